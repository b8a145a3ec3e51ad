// Linear algebra, NN functional ops and creation in every mode vs float64 references here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import {
  bf16, bmmRef, conv2dRef, erfRef, expectRef, mapRef, permuteRef, ravel, reduceRef, refOf, unravel, type Ref,
} from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const F = tpu.nn.functional;
const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);
const sum = (v: number[]) => v.reduce((p, q) => p + q, 0);

afterEach(() => tpu.mode('strict'));

function softmaxRef(a: Ref, dim: number, log = false): Ref {
  const lse = reduceRef(a, [dim], true, (v) => Math.log(sum(v.map(Math.exp))));
  return mapRef(a, (x, k) => {
    const idx = unravel(k, a.shape);
    idx[dim] = 0;
    const l = lse.data[ravel(idx, lse.shape)]!;
    return log ? x - l : Math.exp(x - l);
  });
}

function layerNormRef(a: Ref, w: number[], b: number[], eps: number): Ref {
  const n = a.shape[a.shape.length - 1]!;
  const out: number[] = [];
  for (let r = 0; r < a.data.length / n; r++) {
    const row = a.data.slice(r * n, r * n + n);
    const m = sum(row) / n;
    const v = sum(row.map((x) => (x - m) ** 2)) / n;
    row.forEach((x, j) => out.push(((x - m) / Math.sqrt(v + eps)) * w[j]! + b[j]!));
  }
  return { shape: a.shape, data: out };
}

describe.each(MODES)('%s mode', (mode) => {
  it('dot, outer, bmm, linear', () => {
    tpu.mode(mode);
    const u = refOf([4], 1);
    const v = refOf([4], 2);
    expectRef(T(u).dot(T(v)), { shape: [], data: [sum(u.data.map((x, i) => x * v.data[i]!))] }, 1e-6);
    expectRef(tpu.outer(T(u), T(v).at('0:3')), { shape: [4, 3], data: u.data.flatMap((x) => v.data.slice(0, 3).map((y) => x * y)) }, 1e-6);
    const a = refOf([2, 3, 4], 3);
    const b = refOf([2, 4, 5], 4);
    expectRef(T(a).bmm(T(b)), bmmRef(a, b), 1e-5, 1e-6);
    const x = refOf([3, 4], 5);
    const w = refOf([2, 4], 6);
    const bias = refOf([2], 7);
    const want = bmmRef(x, permuteRef(w, [1, 0]));
    expectRef(F.linear(T(x), T(w), T(bias)), mapRef(want, (y, k) => y + bias.data[k % 2]!), 1e-5, 1e-6);
    expectRef(F.linear(T(x), T(w)), want, 1e-5, 1e-6);
  });

  it('einsum: matmul, batch, transpose, contraction to a scalar, outer, sums', () => {
    tpu.mode(mode);
    const a = refOf([2, 3, 4], 8);
    const b = refOf([2, 4, 5], 9);
    expectRef(tpu.einsum('bij,bjk->bik', T(a), T(b)), bmmRef(a, b), 1e-5, 1e-6);
    expectRef(tpu.einsum('bij,bjk->bki', T(a), T(b)), permuteRef(bmmRef(a, b), [0, 2, 1]), 1e-5, 1e-6);
    expectRef(tpu.einsum('ijk->kji', T(a)), permuteRef(a, [2, 1, 0]), 0, 0);
    expectRef(tpu.einsum('ijk->j', T(a)), reduceRef(a, [0, 2], false, sum), 1e-5, 1e-6);
    expectRef(tpu.einsum('ijk,ijk->', T(a), T(a)), { shape: [], data: [sum(a.data.map((x) => x * x))] }, 1e-5);
    const u = refOf([3], 10);
    const v = refOf([2], 11);
    expectRef(tpu.einsum('i,j', T(u), T(v)), { shape: [3, 2], data: u.data.flatMap((x) => v.data.map((y) => x * y)) }, 1e-6);
    // three operands: (a·b)·c, the middle index summed away
    const c = refOf([5, 2], 12);
    const ab = bmmRef(a, b);
    const want = { shape: [2, 3, 2], data: [] as number[] };
    for (let n = 0; n < 2; n++) for (let i = 0; i < 3; i++) for (let l = 0; l < 2; l++) {
      want.data.push(sum([0, 1, 2, 3, 4].map((k) => ab.data[ravel([n, i, k], ab.shape)]! * c.data[k * 2 + l]!)));
    }
    expectRef(tpu.einsum('nij,njk,kl->nil', T(a), T(b), T(c)), want, 1e-5, 1e-5);
  });

  it('softmax and logSoftmax over any dim, large values stay finite', () => {
    tpu.mode(mode);
    const a = refOf([3, 4], 13, -30, 30);
    expectRef(T(a).softmax(-1), softmaxRef(a, 1), 1e-5, 1e-7);
    expectRef(F.softmax(T(a), 0), softmaxRef(a, 0), 1e-5, 1e-7);
    expectRef(T(a).logSoftmax(1), softmaxRef(a, 1, true), 1e-5, 1e-5);
    expectRef(F.logSoftmax(T(a), { dim: 0 }), softmaxRef(a, 0, true), 1e-5, 1e-5);
  });

  it('layerNorm and rmsNorm with and without affine parameters, float32 and bfloat16', () => {
    tpu.mode(mode);
    const a = refOf([3, 8], 14);
    const w = refOf([8], 15);
    const b = refOf([8], 16);
    expectRef(F.layerNorm(T(a), [8], { weight: T(w), bias: T(b) }), layerNormRef(a, w.data, b.data, 1e-5), 1e-5, 1e-5);
    expectRef(F.layerNorm(T(a), 8, { eps: 0.1 }), layerNormRef(a, new Array(8).fill(1), new Array(8).fill(0), 0.1), 1e-5, 1e-5);
    const two = refOf([2, 3, 4], 17);
    const flat = layerNormRef({ shape: [2, 12], data: two.data }, new Array(12).fill(1), new Array(12).fill(0), 1e-5);
    expectRef(F.layerNorm(T(two), [3, 4]), { shape: [2, 3, 4], data: flat.data }, 1e-5, 1e-5);
    const rms = a.data.map((x, k) => {
      const row = a.data.slice(Math.floor(k / 8) * 8, Math.floor(k / 8) * 8 + 8);
      return (x / Math.sqrt(sum(row.map((q) => q * q)) / 8 + 1e-6)) * w.data[k % 8]!;
    });
    expectRef(F.rmsNorm(T(a), [8], { weight: T(w), eps: 1e-6 }), { shape: [3, 8], data: rms }, 1e-5, 1e-5);
    const h = tpu.tensor(a.data.map(bf16), { dtype: 'bfloat16' }).reshape([3, 8]);
    const y = F.layerNorm(h, [8]);
    expect(y.dtype).toBe('bfloat16');
    const ref = layerNormRef({ shape: [3, 8], data: a.data.map(bf16) }, new Array(8).fill(1), new Array(8).fill(0), 1e-5);
    expectRef(y, mapRef(ref, bf16), 2 ** -7, 1e-6);
  });

  it('gelu/silu functional forms, dropout, embedding', () => {
    tpu.mode(mode);
    const a = refOf([6], 18, -3, 3);
    expectRef(F.gelu(T(a)), mapRef(a, (x) => 0.5 * x * (1 + erfRef(x / Math.SQRT2))), 2e-6, 2e-7);
    expectRef(F.silu(T(a)), mapRef(a, (x) => x / (1 + Math.exp(-x))), 2e-6, 2e-7);
    expect(F.relu(T(a)).array()).toEqual(a.data.map((x) => Math.max(x, 0)));
    tpu.manualSeed(3);
    const x = tpu.ones([2000]);
    const d = F.dropout(x, { p: 0.25 }).dataSync();
    const kept = Array.from(d).filter((v) => v !== 0);
    expect(kept.every((v) => Math.abs(v - 1 / 0.75) < 1e-6)).toBe(true);
    expect(Math.abs(kept.length / 2000 - 0.75)).toBeLessThan(0.04);
    expect(F.dropout(x, { p: 0.5, training: false })).toBe(x);
    expect(Array.from(F.dropout(x, { p: 1 }).dataSync()).every((v) => v === 0)).toBe(true);
    const weight = T(refOf([5, 3], 19));
    const e = F.embedding(tpu.tensor([[4, 0], [1, 4]], { dtype: 'int32' }), weight);
    expect(e.shape).toEqual([2, 2, 3]);
    expect(e.at(0, 0).array()).toEqual(weight.at(4).array());
    expect(e.at(1, 0).array()).toEqual(weight.at(1).array());
  });

  it('conv2d: stride, padding, dilation, groups, bias; conv1d; unbatched input', () => {
    tpu.mode(mode);
    const x = refOf([2, 4, 6, 5], 20);
    const w = refOf([6, 2, 3, 2], 21);
    const o = { stride: [2, 1] as [number, number], padding: [1, 0] as [number, number], dilation: [1, 2] as [number, number], groups: 2 };
    expectRef(F.conv2d(T(x), T(w), o), conv2dRef(x, w, o), 1e-5, 1e-5);
    const w1 = refOf([3, 4, 3, 3], 22);
    const bias = refOf([3], 23);
    const plain = conv2dRef(x, w1, { stride: [1, 1], padding: [1, 1], dilation: [1, 1], groups: 1 });
    expectRef(F.conv2d(T(x), T(w1), { padding: 'same', bias: T(bias) }), mapRef(plain, (v, k) => v + bias.data[unravel(k, plain.shape)[1]!]!), 1e-5, 1e-5);
    const single = F.conv2d(T(x).at(0), T(w1), { padding: 1 });
    expect(single.shape).toEqual([3, 6, 5]);
    expectRef(single, { shape: [3, 6, 5], data: plain.data.slice(0, 90) }, 1e-5, 1e-5);
    const s = refOf([2, 3, 7], 24);
    const k = refOf([4, 3, 3], 25);
    const want = conv2dRef({ shape: [2, 3, 1, 7], data: s.data }, { shape: [4, 3, 1, 3], data: k.data }, { stride: [1, 2], padding: [0, 1], dilation: [1, 1], groups: 1 });
    expectRef(F.conv1d(T(s), T(k), { stride: 2, padding: 1 }), { shape: [2, 4, 4], data: want.data }, 1e-5, 1e-5);
  });

  it('maxPool2d and avgPool2d: kernel, stride, padding', () => {
    tpu.mode(mode);
    const x = refOf([1, 2, 5, 5], 26);
    const pool = (k: number, s: number, p: number, f: (v: number[]) => number, includePad: boolean) => {
      const out = Math.floor((5 + 2 * p - k) / s) + 1;
      const data: number[] = [];
      for (let c = 0; c < 2; c++) for (let i = 0; i < out; i++) for (let j = 0; j < out; j++) {
        const v: number[] = [];
        for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
          const y = i * s - p + a;
          const z = j * s - p + b;
          if (y >= 0 && y < 5 && z >= 0 && z < 5) v.push(x.data[ravel([0, c, y, z], x.shape)]!);
          else if (includePad) v.push(0);
        }
        data.push(f(v));
      }
      return { shape: [1, 2, out, out], data };
    };
    const mean = (v: number[]) => sum(v) / v.length;
    expectRef(F.maxPool2d(T(x), 2), pool(2, 2, 0, (v) => Math.max(...v), false), 0, 0);
    expectRef(F.maxPool2d(T(x), 3, { stride: 2, padding: 1 }), pool(3, 2, 1, (v) => Math.max(...v), false), 0, 0);
    expectRef(F.avgPool2d(T(x), 3, { stride: 1, padding: 1 }), pool(3, 1, 1, mean, true), 1e-6, 1e-6);
    expectRef(F.avgPool2d(T(x), 3, { stride: 2, padding: 1, countIncludePad: false }), pool(3, 2, 1, mean, false), 1e-6, 1e-6);
  });

  it('interpolate: nearest and bilinear (alignCorners both ways) against PyTorch rules', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[[[1, 2], [3, 4]]]], { dtype: 'float32' });
    expect(F.interpolate(x, { scaleFactor: 2 }).array()).toEqual([[[[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]]]);
    expect(F.interpolate(x, { size: [2, 3], mode: 'nearest' }).array()).toEqual([[[[1, 1, 2], [3, 3, 4]]]]);
    // torch.nn.functional.interpolate(x, scale_factor=2, mode='bilinear') on [[1,2],[3,4]]
    expect(F.interpolate(x, { scaleFactor: 2, mode: 'bilinear' }).array()).toEqual([[[
      [1, 1.25, 1.75, 2], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5], [3, 3.25, 3.75, 4],
    ]]]);
    const ac = F.interpolate(x, { size: 3, mode: 'bilinear', alignCorners: true });
    expect(ac.array()).toEqual([[[[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]]]]);
    expect(F.interpolate(tpu.tensor([[[0, 10]]], { dtype: 'float32' }), { size: 4, mode: 'linear' }).array()).toEqual([[[0, 2.5, 7.5, 10]]]);
  });

  it('scaledDotProductAttention: plain, causal, bool and float masks', () => {
    tpu.mode(mode);
    const q = refOf([2, 3, 4], 27);
    const k = refOf([2, 5, 4], 28);
    const v = refOf([2, 5, 2], 29);
    const attend = (mask: (i: number, j: number) => number) => {
      const scores = bmmRef(q, permuteRef(k, [0, 2, 1]));
      const masked = mapRef(scores, (s, n) => {
        const [, i, j] = unravel(n, scores.shape);
        return s / 2 + mask(i!, j!);
      });
      return bmmRef(softmaxRef(masked, 2), v);
    };
    expectRef(F.scaledDotProductAttention(T(q), T(k), T(v)), attend(() => 0), 1e-5, 1e-6);
    expectRef(F.scaledDotProductAttention(T(q), T(k), T(v), { isCausal: true }), attend((i, j) => (j <= i ? 0 : -Infinity)), 1e-5, 1e-6);
    const bool = tpu.tensor([[true, false, true, true, false], [true, true, true, true, true], [false, false, false, false, true]]);
    const bm = bool.array() as boolean[][];
    expectRef(F.scaledDotProductAttention(T(q), T(k), T(v), { attnMask: bool }), attend((i, j) => (bm[i]![j] ? 0 : -Infinity)), 1e-5, 1e-6);
    const add = refOf([3, 5], 30);
    expectRef(F.scaledDotProductAttention(T(q), T(k), T(v), { attnMask: T(add), scale: 0.5 }), attend((i, j) => add.data[i * 5 + j]!), 1e-5, 1e-6);
  });

  it('creation: linspace, eye, randint, *Like', () => {
    tpu.mode(mode);
    expect(tpu.linspace(-1, 1, 5).array()).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(tpu.linspace(0, 1, 1).array()).toEqual([0]);
    expect(tpu.linspace(0, 1, 3, { dtype: 'bfloat16' }).dtype).toBe('bfloat16');
    expect(tpu.eye(3).array()).toEqual([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    expect(tpu.eye(2, 3, { dtype: 'int32' }).array()).toEqual([[1, 0, 0], [0, 1, 0]]);
    tpu.manualSeed(1);
    const r = tpu.randint(-2, 3, [4000]);
    expect(r.dtype).toBe('int64'); // as PyTorch's
    const vals = Array.from(r.dataSync() as BigInt64Array, Number);
    expect(Math.min(...vals)).toBe(-2);
    expect(Math.max(...vals)).toBe(2);
    expect(tpu.randint(4, [2, 2]).shape).toEqual([2, 2]);
    const x = tpu.tensor([[1, 2]], { dtype: 'bfloat16' });
    expect(tpu.zerosLike(x).dtype).toBe('bfloat16');
    expect(tpu.onesLike(x, { dtype: 'int32' }).array()).toEqual([[1, 1]]);
    expect(tpu.fullLike(x, 2.5).array()).toEqual([[2.5, 2.5]]);
    const u = tpu.randLike(x);
    expect(u.shape).toEqual([1, 2]);
    expect(u.dtype).toBe('bfloat16');
    expect(tpu.randnLike(tpu.zeros([3])).shape).toEqual([3]);
  });

  it('bad calls name the op, the argument and the shapes', () => {
    tpu.mode(mode);
    const x = tpu.ones([2, 3]);
    expect(() => tpu.ones([3]).dot(tpu.ones([4]))).toThrow('dot: both operands must be 1-D of the same length; got input [3] and other [4]');
    expect(() => F.linear(x, tpu.ones([4, 2]))).toThrow('linear: input [2, 3] has 3 features but weight [4, 2] expects 2');
    expect(() => tpu.einsum('ij,jk->ik', x, tpu.ones([4, 2]))).toThrow("einsum: index 'j' has size 3 in one operand and 4 in operand 1");
    expect(() => tpu.einsum('ii->i', tpu.ones([2, 3]))).toThrow("einsum: index 'i' repeats in operand 0 with sizes 2 and 3; a diagonal needs equal sizes");
    expect(() => tpu.einsum('...i,...i', x, tpu.ones([4, 3]))).toThrow("einsum: '...' dim has size 2 in one operand and 4 in operand 1");
    expect(() => tpu.einsum('i...j...', x)).toThrow("einsum: '...' appears more than once in 'i...j...' of 'i...j...'");
    expect(() => tpu.einsum('ij->ik', x)).toThrow("einsum: output index 'k' appears in no operand of 'ij->ik'");
    expect(() => tpu.einsum('ij,jk', x)).toThrow("einsum: 'ij,jk' names 2 operands but 1 were given");
    expect(() => F.layerNorm(x, [2])).toThrow('layerNorm: normalizedShape [2] must match the last dims of the input [2, 3]');
    expect(() => F.layerNorm(x, [3], { weight: tpu.ones([2]) })).toThrow('layerNorm: weight must be a tensor of shape [3]; got [2]');
    expect(() => F.conv2d(tpu.ones([1, 3, 4, 4]), tpu.ones([2, 2, 3, 3]))).toThrow('conv2d: weight [2, 2, 3, 3] with groups=1 expects 2 input channels; the input [1, 3, 4, 4] has 3');
    expect(() => F.conv2d(tpu.ones([1, 2, 2, 2]), tpu.ones([1, 2, 3, 3]))).toThrow('conv2d: the kernel 3x3 (dilated) is larger than the padded input [1, 2, 2, 2]');
    expect(() => F.conv2d(tpu.ones([1, 2, 4, 4]), tpu.ones([1, 2, 2, 2]), { padding: 'same', stride: 2 })).toThrow(/conv2d: padding 'same' needs stride 1/);
    expect(() => F.maxPool2d(x, 2)).toThrow('maxPool2d: input must be [N, C, H, W] or [C, H, W]; got [2, 3]');
    expect(() => F.maxPool2d(tpu.ones([1, 1, 4, 4]), 2, { ceilMode: true } as never)).toThrow("maxPool2d: ceilMode: true is not supported, only PyTorch's default false");
    // PyTorch's defaults of the options not implemented are accepted: F.max_pool2d(x, 2, ceil_mode=False)
    expect(F.maxPool2d(tpu.arange(16).reshape([1, 1, 4, 4]).float(), 2, { ceilMode: false, returnIndices: false }).tolist()).toEqual([[[[5, 7], [13, 15]]]]);
    expect(F.avgPool2d(tpu.ones([1, 1, 4, 4]), 2, { ceilMode: false, divisorOverride: null }).tolist()).toEqual([[[[1, 1], [1, 1]]]]);
    expect(() => F.interpolate(tpu.ones([1, 1, 2, 2]), { size: 4, scaleFactor: 2 })).toThrow('interpolate: give exactly one of size and scaleFactor');
    expect(() => F.interpolate(tpu.ones([1, 1, 2]), { size: 4, mode: 'bilinear' })).toThrow("interpolate: mode 'bilinear' needs a 4-D input; got [1, 1, 2]");
    expect(() => F.scaledDotProductAttention(x, tpu.ones([2, 4]), x)).toThrow(/scaledDotProductAttention: query \[2, 3\], key \[2, 4\] and value \[2, 3\] do not fit/);
    expect(() => F.dropout(x, { p: 2 })).toThrow('dropout: p must be a probability in [0, 1]; got 2');
    expect(() => F.embedding(tpu.tensor([0.5]), x)).toThrow(/^embedding: input must be an int32 or int64 tensor of indices; got float32/);
    expect(() => tpu.linspace(0, 1, -1)).toThrow('tpu.linspace: steps must be a non-negative integer; got -1');
    expect(() => tpu.randint(3, 3, [2])).toThrow('tpu.randint: low and high must be integers with low < high; got low=3, high=3');
    expect(() => tpu.randLike(tpu.tensor([1], { dtype: 'int32' }))).toThrow('tpu.rand: dtype must be float32 or bfloat16; got int32');
    expect(x.sum().item()).toBe(6);
  });
});
