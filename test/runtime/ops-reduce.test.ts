// Reductions of the catalog in every mode vs float64 references computed here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, expectRef, reduceRef, refOf, type Ref } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);
const sum = (v: number[]) => v.reduce((p, q) => p + q, 0);
const mean = (v: number[]) => sum(v) / v.length;
const varOf = (c: number) => (v: number[]) => sum(v.map((x) => (x - mean(v)) ** 2)) / (v.length - c);
const firstIndex = (pick: (v: number[]) => number) => (v: number[]) => v.indexOf(pick(v));

afterEach(() => tpu.mode('strict'));

describe.each(MODES)('%s mode', (mode) => {
  const a = refOf([3, 4, 5], 21);

  it('prod over a dim, amax, amin over a dim, a list of dims, negative dims, keepdim', () => {
    tpu.mode(mode);
    const x = T(a);
    expectRef(x.prod(1), reduceRef(a, [1], false, (v) => v.reduce((p, q) => p * q, 1)), 1e-5, 1e-7);
    expectRef(x.prod(-1, { keepdim: true }).prod(0, { keepdim: true }), reduceRef(a, [0, 2], true, (v) => v.reduce((p, q) => p * q, 1)), 2e-5, 1e-7);
    expectRef(x.amax(-1), reduceRef(a, [2], false, (v) => Math.max(...v)), 0, 0);
    expectRef(x.amin([0, 1], true), reduceRef(a, [0, 1], true, (v) => Math.min(...v)), 0, 0);
    expect(x.amax().shape).toEqual([]);
    expect(x.amax().item()).toBe(Math.max(...a.data));
    expect(tpu.tensor([[1, 2], [3, 4]], { dtype: 'int32' }).prod().item()).toBe(24);
  });

  it('max/min: a value, { values, indices } per dim, or elementwise with a tensor', () => {
    tpu.mode(mode);
    const x = T(a);
    expect(x.max().item()).toBe(Math.max(...a.data));
    const m = x.max(1);
    expectRef(m.values, reduceRef(a, [1], false, (v) => Math.max(...v)), 0, 0);
    expect(m.indices.dtype).toBe('int64'); // as PyTorch's
    expectRef(m.indices, reduceRef(a, [1], false, firstIndex((v) => Math.max(...v))), 0, 0);
    const n = x.min({ dim: -1, keepdim: true });
    expect(n.values.shape).toEqual([3, 4, 1]);
    expectRef(n.indices, reduceRef(a, [2], true, firstIndex((v) => Math.min(...v))), 0, 0);
    expect(tpu.tensor([1, 5], { dtype: 'int32' }).max(tpu.tensor([3, 2], { dtype: 'int32' })).array()).toEqual([3, 5]);
  });

  it('argmax/argmin: first index of ties, flattened without dim', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 3, 3], [2, 2, 0]], { dtype: 'int32' });
    expect(x.argmax(1).array()).toEqual([1, 0]);
    expect(x.argmin({ dim: 0, keepdim: true }).array()).toEqual([[0, 1, 1]]);
    expect(x.argmax().item()).toBe(1);
    expect(x.argmin().shape).toEqual([]);
    expect(x.argmin().item()).toBe(5);
    expectRef(T(a).argmax(-2), reduceRef(a, [1], false, firstIndex((v) => Math.max(...v))), 0, 0);
  });

  it('var and std: unbiased by default, correction, population', () => {
    tpu.mode(mode);
    const x = T(a);
    expectRef(x.var(1), reduceRef(a, [1], false, varOf(1)), 1e-5, 1e-6);
    expectRef(x.std({ dim: [0, 2], correction: 0, keepdim: true }), reduceRef(a, [0, 2], true, (v) => Math.sqrt(varOf(0)(v))), 1e-5, 1e-6);
    expectRef(x.var({ dim: -1, unbiased: false }), reduceRef(a, [2], false, varOf(0)), 1e-5, 1e-6);
    expect(x.var().shape).toEqual([]);
    expectRef(x.var(), { shape: [], data: [varOf(1)(a.data)] }, 1e-5, 1e-6);
  });

  it('logsumexp and norm', () => {
    tpu.mode(mode);
    const x = T(a);
    const lse = (v: number[]) => Math.log(sum(v.map(Math.exp)));
    expectRef(x.logsumexp(1), reduceRef(a, [1], false, lse), 1e-6, 1e-6);
    expectRef(x.mul(40).logsumexp(-1, true), reduceRef({ shape: a.shape, data: a.data.map((v) => Math.fround(v * 40)) }, [2], true, lse), 1e-6, 1e-5);
    expectRef(x.norm(), { shape: [], data: [Math.sqrt(sum(a.data.map((v) => v * v)))] }, 1e-6);
    expectRef(x.norm(1, 0), reduceRef(a, [0], false, (v) => sum(v.map(Math.abs))), 1e-6);
    expectRef(x.norm({ p: Infinity, dim: [1, 2] }), reduceRef(a, [1, 2], false, (v) => Math.max(...v.map(Math.abs))), 0, 0);
    expectRef(x.norm(3, -1, true), reduceRef(a, [2], true, (v) => sum(v.map((q) => Math.abs(q) ** 3)) ** (1 / 3)), 1e-5);
    expect(tpu.tensor([3, 4], { dtype: 'int32' }).norm().item()).toBe(5);
  });

  it('any and all over truth values', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[0, 1, 2], [0, 0, 0]], { dtype: 'int32' });
    expect(x.any(1).array()).toEqual([true, false]);
    expect(x.all({ dim: 0 }).array()).toEqual([false, false, false]);
    expect(x.any().item()).toBe(true);
    expect(tpu.tensor([[true, true], [true, false]]).all(-1, true).array()).toEqual([[true], [false]]);
    expect(tpu.tensor([0.5, -1], { dtype: 'float32' }).all().item()).toBe(true);
  });

  it('int32 and bfloat16 inputs, empty and 0-d tensors', () => {
    tpu.mode(mode);
    const i = tpu.tensor([[4, -1, 7], [2, 9, -3]], { dtype: 'int32' });
    expect(i.amax(0).dtype).toBe('int32');
    expect(i.amax(0).array()).toEqual([4, 9, 7]);
    expect(i.prod(1).array()).toEqual([-28, -54]);
    const h = [0.3, -1.7, 2.2, 5.1].map(bf16);
    const hb = tpu.tensor(h, { dtype: 'bfloat16' });
    expect(hb.amin().item()).toBe(h[1]);
    expect(hb.max(0).indices.item()).toBe(3);
    const p = hb.prod();
    expect(p.dtype).toBe('bfloat16');
    expect(p.item()).toBe(bf16(h.reduce((x, y) => Math.fround(x * y), 1)));
    const e = tpu.zeros([2, 0]);
    expect(e.prod(1).array()).toEqual([1, 1]);
    expect(e.any(1).array()).toEqual([false, false]);
    expect(e.all(1).array()).toEqual([true, true]);
    const s = tpu.tensor(3.5);
    expect(s.amax().item()).toBe(3.5);
    expect(s.prod().item()).toBe(3.5);
    expect(s.argmax().item()).toBe(0);
    expect(s.logsumexp(0).item()).toBeCloseTo(3.5, 6);
  });

  it('bad calls name the op and the argument', () => {
    tpu.mode(mode);
    const x = tpu.ones([2, 3]);
    expect(() => x.prod(3)).toThrow('prod: dim must be an integer in [-2, 1] for a tensor of rank 2; got 3');
    expect(() => x.max({ dim: [0, 1] } as never)).toThrow("max: dim must be one integer, as in PyTorch's max; got the array [0,1]. For the maximum over several dims, x.amax(dims) takes a list (values only).");
    expect(() => tpu.zeros([2, 0]).amax(1)).toThrow('amax: cannot reduce over an empty dimension (input [2, 0], dims [1])');
    expect(() => tpu.zeros([0]).argmax()).toThrow('argmax: cannot reduce over an empty dimension (input [0])');
    expect(() => tpu.tensor([true]).argmax()).toThrow('argmax: bool input is not supported');
    expect(() => x.var({ correction: -1 })).toThrow('var: correction must be a non-negative number; got -1');
    expect(() => x.norm(NaN)).toThrow("norm: p must be a number, ±Infinity or 'fro'; got NaN"); // p = 0 counts non-zeros (test/torch)
    expect(() => tpu.arange(3).var()).toThrow(/var: input must be a floating-point tensor \(float32 or bfloat16\), as in PyTorch; got int64/);
    expect(() => x.amin({ keepdim: 1 as never })).toThrow('amin: keepdim must be a boolean; got 1');
  });
});
