// Elementwise ops of the catalog in every mode vs float64 references computed here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, broadcastRef, erfRef, expectRef, f32, mapRef, refOf, type Ref } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const T = (r: Ref, dtype: 'float32' | 'bfloat16' = 'float32'): Tensor => tpu.tensor(r.data, { dtype }).reshape(r.shape);

afterEach(() => tpu.mode('strict'));

const UNARY: [string, (x: number) => number, [number, number]][] = [
  ['exp', Math.exp, [-3, 3]], ['log', Math.log, [0.1, 5]], ['log1p', Math.log1p, [-0.9, 3]], ['expm1', Math.expm1, [-3, 3]],
  ['sqrt', Math.sqrt, [0, 4]], ['rsqrt', (x) => 1 / Math.sqrt(x), [0.1, 4]], ['square', (x) => x * x, [-3, 3]],
  ['reciprocal', (x) => 1 / x, [0.2, 3]], ['sin', Math.sin, [-4, 4]], ['cos', Math.cos, [-4, 4]], ['tanh', Math.tanh, [-3, 3]],
  ['sigmoid', (x) => 1 / (1 + Math.exp(-x)), [-6, 6]], ['erf', erfRef, [-3, 3]], ['abs', Math.abs, [-2, 2]],
  ['neg', (x) => -x, [-2, 2]], ['sign', Math.sign, [-2, 2]], ['floor', Math.floor, [-3, 3]], ['ceil', Math.ceil, [-3, 3]],
  ['trunc', Math.trunc, [-3, 3]], ['relu', (x) => Math.max(x, 0), [-2, 2]],
  ['silu', (x) => x / (1 + Math.exp(-x)), [-4, 4]], ['gelu', (x) => 0.5 * x * (1 + erfRef(x / Math.SQRT2)), [-4, 4]],
];

describe.each(MODES)('%s mode', (mode) => {
  it.each(UNARY)('%s matches float64 within float32 rounding', (name, f, [lo, hi]) => {
    tpu.mode(mode);
    const a = refOf([3, 5], name.length * 7 + 1, lo, hi);
    const y = (T(a) as unknown as Record<string, () => Tensor>)[name]!.call(T(a));
    expect(y.dtype).toBe('float32');
    expectRef(y, mapRef(a, f), 2e-6, 2e-7);
  });

  it('log1p and expm1 stay accurate for tiny inputs', () => {
    tpu.mode(mode);
    const x = tpu.tensor([1e-10, -3e-9, 1e-6], { dtype: 'float32' });
    expectRef(x.log1p(), { shape: [3], data: f32([1e-10, -3e-9, 1e-6]).map(Math.log1p) }, 1e-6, 0);
    expectRef(x.expm1(), { shape: [3], data: f32([1e-10, -3e-9, 1e-6]).map(Math.expm1) }, 1e-6, 0);
  });

  it('round is half to even; gelu tanh approximation; integer inputs', () => {
    tpu.mode(mode);
    expect(tpu.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.6], { dtype: 'float32' }).round().array()).toEqual([-2, -2, -0, 0, 2, 2, 3]);
    const a = refOf([7], 5, -4, 4);
    const tanhGelu = (x: number) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
    expectRef(T(a).gelu({ approximate: 'tanh' }), mapRef(a, tanhGelu), 2e-6, 2e-7);
    const i = tpu.tensor([-3, 0, 4], { dtype: 'int32' });
    expect(i.floor().dtype).toBe('int32');
    expect(i.floor().array()).toEqual([-3, 0, 4]);
    expect(i.abs().array()).toEqual([3, 0, 4]);
    expect(i.square().array()).toEqual([9, 0, 16]);
    expect(i.abs().sqrt().dtype).toBe('float32');
    expect(i.sigmoid().dtype).toBe('float32');
    expectRef(i.exp(), { shape: [3], data: [-3, 0, 4].map(Math.exp) }, 2e-7);
  });

  it('bfloat16 inputs compute in float32 and round once per op', () => {
    tpu.mode(mode);
    const a = refOf([9], 3, -3, 3);
    const h = a.data.map(bf16);
    const x = tpu.tensor(h, { dtype: 'bfloat16' });
    const s = x.sin();
    expect(s.dtype).toBe('bfloat16');
    expectRef(s, { shape: [9], data: h.map((v) => bf16(Math.fround(Math.sin(v)))) }, 2 ** -8, 0);
    // gelu (composed) rounds only its result
    expectRef(x.gelu(), { shape: [9], data: h.map((v) => bf16(0.5 * v * (1 + erfRef(v / Math.SQRT2)))) }, 2 ** -8, 1e-6);
    expect(x.gelu().dtype).toBe('bfloat16');
  });

  it('pow, maximum, minimum broadcast and take JS scalars on either side', () => {
    tpu.mode(mode);
    const a = refOf([2, 3], 11, 0.5, 2);
    const b = refOf([3], 12, -2, 2);
    expectRef(T(a).pow(T(b)), broadcastRef(a, b, Math.pow), 3e-6);
    expectRef(T(a).pow(2), mapRef(a, (x) => x * x), 1e-6);
    expectRef(T(a).pow(0.5), mapRef(a, Math.sqrt), 1e-6);
    expectRef(tpu.pow(2, T(b)), mapRef(b, (x) => 2 ** x), 2e-6);
    expectRef(T(a).maximum(T(b)), broadcastRef(a, b, Math.max), 0, 0);
    expectRef(T(a).minimum(1), mapRef(a, (x) => Math.min(x, 1)), 0, 0);
    expect(tpu.tensor([2, 3], { dtype: 'int32' }).pow(2).array()).toEqual([4, 9]);
    expect(tpu.tensor([2, 3], { dtype: 'int32' }).pow(2).dtype).toBe('int32');
    expect(tpu.tensor([1, 5], { dtype: 'int32' }).maximum(tpu.tensor([true, false])).array()).toEqual([1, 5]);
  });

  it('clamp, lerp, where, maskedFill', () => {
    tpu.mode(mode);
    const a = refOf([2, 4], 13, -3, 3);
    expectRef(T(a).clamp(-1, 1), mapRef(a, (x) => Math.min(Math.max(x, -1), 1)), 0, 0);
    expectRef(T(a).clamp({ min: 0 }), mapRef(a, (x) => Math.max(x, 0)), 0, 0);
    expectRef(T(a).clamp(null, tpu.tensor([0, 1, 2, 3], { dtype: 'float32' })), broadcastRef(a, { shape: [4], data: [0, 1, 2, 3] }, Math.min), 0, 0);
    const b = refOf([4], 14);
    expectRef(T(a).lerp(T(b), 0.25), broadcastRef(a, b, (x, y) => x + 0.25 * (y - x)), 1e-6, 1e-6);
    const cond = T(a).gt(0);
    expectRef(tpu.where(cond, T(a), T(b)), broadcastRef(a, b, (x, y) => (x > 0 ? x : y)), 0, 0);
    expectRef(tpu.where(cond, 1, 0), mapRef(a, (x) => (x > 0 ? 1 : 0)), 0, 0);
    expect(tpu.where(cond, 1, 0).dtype).toBe('int64'); // as torch.where(c, 1, 0)
    expectRef(T(a).where(cond, -7), mapRef(a, (x) => (x > 0 ? x : -7)), 0, 0);
    const mask = tpu.tensor([true, false, false, true]);
    expectRef(T(a).maskedFill(mask, 9), broadcastRef(a, { shape: [4], data: [1, 0, 0, 1] }, (x, m) => (m ? 9 : x)), 0, 0);
    expect(tpu.tensor([1, 2], { dtype: 'int32' }).maskedFill(tpu.tensor([true, false]), 0.5).dtype).toBe('int32');
  });

  it('comparisons, logical ops, isnan/isinf/isfinite', () => {
    tpu.mode(mode);
    const x = tpu.tensor([1, 2, 3, 4], { dtype: 'float32' });
    const y = tpu.tensor([3, 2, 1, 4], { dtype: 'int32' });
    expect(x.ne(y).array()).toEqual([true, false, true, false]);
    expect(x.ge(y).array()).toEqual([false, true, true, true]);
    expect(x.le(2).array()).toEqual([true, true, false, false]);
    expect(x.lt(y).array()).toEqual([true, false, false, false]);
    const p = tpu.tensor([true, true, false, false]);
    const q = tpu.tensor([1, 0, 2, 0], { dtype: 'int32' });
    expect(p.logicalAnd(q).array()).toEqual([true, false, false, false]);
    expect(p.logicalOr(q).array()).toEqual([true, true, true, false]);
    expect(p.logicalXor(q).array()).toEqual([false, true, true, false]);
    expect(q.logicalNot().array()).toEqual([false, true, false, true]);
    const z = tpu.tensor([0, 1, -1, 2], { dtype: 'float32' });
    const divisor = tpu.tensor([0, 0, 0, 1], { dtype: 'float32' });
    if (mode === 'debug') {
      expect(() => z.div(divisor)).toThrow(/^div produced NaN or Inf/); // debug mode's check
      return;
    }
    const special = z.div(divisor);
    expect(special.isnan().array()).toEqual([true, false, false, false]);
    expect(special.isinf().array()).toEqual([false, true, true, false]);
    expect(special.isfinite().array()).toEqual([false, false, false, true]);
    expect(special.ne(special).array()).toEqual([true, false, false, false]);
    expect(q.isnan().array()).toEqual([false, false, false, false]);
  });

  it('empty and 0-d tensors keep their shapes', () => {
    tpu.mode(mode);
    const e = tpu.zeros([0, 3]);
    expect(e.exp().shape).toEqual([0, 3]);
    expect(e.add(tpu.ones([3])).shape).toEqual([0, 3]);
    expect(Array.from(e.sigmoid().dataSync())).toEqual([]);
    const s = tpu.tensor(0.5);
    expect(s.pow(2).shape).toEqual([]);
    expect(s.pow(2).item()).toBe(0.25);
    expect(s.clamp(0, 0.25).item()).toBe(0.25);
    expect(tpu.tensor(2).maximum(tpu.tensor([1, 3], { dtype: 'int32' })).array()).toEqual([2, 3]);
  });

  it('bad calls name the op, the argument and the values', () => {
    tpu.mode(mode);
    const x = tpu.ones([2, 3]);
    expect(() => x.pow(tpu.ones([4]))).toThrow('pow: shapes [2, 3] (input) and [4] (other) cannot be broadcast: dimension -1 is 3 vs 4');
    expect(() => tpu.where(x as never, 1, 0)).toThrow('where: condition must be a bool tensor; got float32');
    expect(() => tpu.where(x.gt(0), tpu.ones([3, 3]), 0)).toThrow(/where: shapes \[2, 3\] \(input\) and \[3, 3\] \(other\) cannot be broadcast/);
    expect(() => x.clamp()).toThrow('clamp: at least one of min or max must be given');
    expect(() => x.maskedFill(x, 0)).toThrow('maskedFill: mask must be a bool tensor; got float32');
    expect(() => tpu.tensor([true]).floor()).toThrow('floor: input of dtype bool is not supported');
    expect(() => x.gelu({ approximate: 'fast' as never })).toThrow(`gelu: approximate must be 'none' or 'tanh'; got "fast"`);
    expect(() => tpu.tensor([2], { dtype: 'int32' }).pow(-1)).toThrow("pow: integers to negative integer powers are not allowed (input int32, exponent -1); use x.to('float32')");
    expect(() => x.maximum('1' as never)).toThrow('maximum: other must be a tensor, a number or a boolean; got string "1"');
    // number-first functional forms: wrapped where PyTorch wraps them, else named
    expect(() => tpu.div('7' as never, x, { roundingMode: 'floor' })).toThrow('tpu.div: input must be a tensor or a number; got string "7"');
    expect(() => tpu.remainder(7, 2)).toThrow('tpu.remainder: input or other must be a tensor; got two scalars, number 7 and number 2');
    expect(() => tpu.dot(2 as never, x)).toThrow('dot: input must be a tensor; got number 2 (make one with tpu.tensor(2))');
    expect(() => tpu.logicalAnd(1 as never, x)).toThrow('tpu.logicalAnd: input must be a tensor; got number 1');
    expect(() => tpu.sub(true, x)).toThrow('tpu.sub: subtraction with a bool tensor is not supported (as in PyTorch)');
    expect(() => x.sub(false, { alpha: 2 })).toThrow(/^sub: subtraction with a bool tensor is not supported .*; got other false$/);
    expect(() => tpu.tensor([true]).add(true, { alpha: 0.5 })).toThrow('add: for integral input tensors, argument alpha must not be a floating point number (as in PyTorch); got alpha 0.5 for bool');
    expect(x.add(1).sum().item()).toBe(12);
  });
});
