// The issue-3 op set and dtypes against float64 references computed here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, addApplyHook, type Tensor } from 'tpu-kernel/runtime';
import { broadcastRef, expectClose, seededValues, sumRef } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const f32 = (xs: readonly number[]) => Array.from(Float32Array.from(xs));
const fround = Math.fround;
const bf16 = (x: number) => {
  // float64 reference rounding to bfloat16, nearest even (via the float32 value first).
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  const lsb = (u[0]! >>> 16) & 1;
  u[0] = ((u[0]! + 0x7fff + lsb) >>> 16) << 16;
  return f[0]!;
};

afterEach(() => tpu.mode('strict'));

describe.each(MODES)('%s mode', (mode) => {
  it('sub, div, neg, exp, log, tanh, relu elementwise match float64 rounded to float32', () => {
    tpu.mode(mode);
    const xs = f32(seededValues(24, 7, 0.1, 3));
    const ys = f32(seededValues(6, 8, 0.5, 2));
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([4, 6]);
    const y = tpu.tensor(ys, { dtype: 'float32' });
    const a = { shape: [4, 6], data: xs };
    const b = { shape: [6], data: ys };
    expect(Array.from(x.sub(y).dataSync())).toEqual(f32(broadcastRef(a, b, (p, q) => p - q).data));
    expect(Array.from(x.div(y).dataSync())).toEqual(f32(broadcastRef(a, b, (p, q) => p / q).data));
    expect(Array.from(x.neg().dataSync())).toEqual(xs.map((v) => -v));
    // transcendental functions: within a few float32 ulps of the float64 value
    expectClose(x.exp().dataSync(), xs.map(Math.exp), 3e-7, 0);
    expectClose(x.log().dataSync(), xs.map(Math.log), 3e-7, 1e-7);
    expectClose(x.tanh().dataSync(), xs.map(Math.tanh), 3e-7, 1e-7);
    const z = tpu.tensor([-2, -0.5, 0, 0.5, 3], { dtype: 'float32' });
    expect(z.relu().array()).toEqual([0, 0, 0, 0.5, 3]);
  });

  it('mean over dims with keepdim, and errors for integer mean', () => {
    tpu.mode(mode);
    const xs = f32(seededValues(60, 9));
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 4, 5]);
    const a = { shape: [3, 4, 5], data: xs };
    const m = x.mean({ dim: [0, 2], keepdim: true });
    expect(m.shape).toEqual([1, 4, 1]);
    expectClose(m.dataSync(), sumRef(a, [0, 2], true).data.map((v) => v / 15), 1e-6, 1e-6);
    expect(x.mean(-1).shape).toEqual([3, 4]);
    expectClose([x.mean().item()], [xs.reduce((p, q) => p + q, 0) / 60], 1e-6, 1e-6);
    expect(() => tpu.arange(4).mean()).toThrow(/mean: input dtype must be floating point.*int64/);
  });

  it('reshape (with -1), transpose, T and permute move values like row-major arrays', () => {
    tpu.mode(mode);
    const x = tpu.arange(24).reshape([2, -1, 4]);
    expect(x.shape).toEqual([2, 3, 4]);
    const t = x.transpose(0, 2);
    expect(t.shape).toEqual([4, 3, 2]);
    const v = t.array() as number[][][];
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) expect(v[k]![j]![i]).toBe(i * 12 + j * 4 + k);
    const m = tpu.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'int32' });
    expect(m.T.array()).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(x.permute(1, 0, 2).reshape([3, 8]).array()).toEqual([
      [0, 1, 2, 3, 12, 13, 14, 15], [4, 5, 6, 7, 16, 17, 18, 19], [8, 9, 10, 11, 20, 21, 22, 23],
    ]);
  });

  it('.to(dtype): truncation toward zero, bool as non-zero, bf16 round-to-nearest-even', () => {
    tpu.mode(mode);
    const x = tpu.tensor([-2.7, -0.5, 0, 1.5, 2.9, 1000.7], { dtype: 'float32' });
    expect(x.to('int32').array()).toEqual([-2, 0, 0, 1, 2, 1000]);
    expect(x.to('bool').array()).toEqual([true, true, false, true, true, true]);
    expect(x.to('bfloat16').array()).toEqual([-2.703125, -0.5, 0, 1.5, 2.90625, 1000]);
    expect(x.to('int32').to('float32').dtype).toBe('float32');
    expect(x.to({ dtype: 'float32' })).toBe(x);
  });

  it('bfloat16: 16-bit storage, each op computed in float32 and rounded', () => {
    tpu.mode(mode);
    const third = tpu.tensor([1 / 3], { dtype: 'bfloat16' });
    expect(third.dataSync()[0]).toBe(0.333984375);
    const xs = seededValues(32, 11);
    const x = tpu.tensor(xs, { dtype: 'bfloat16' });
    const xr = xs.map(bf16);
    expect(Array.from(x.dataSync())).toEqual(xr);
    const y = x.mul(1.7).add(0.3).tanh();
    const ref = xr.map((v) => bf16(Math.tanh(bf16(bf16(fround(v * fround(1.7))) + fround(0.3)))));
    // tanh of ORT vs float64: equal after rounding except at rare ties: allow 1 bf16 ulp
    const got = y.dataSync();
    for (let i = 0; i < ref.length; i++) expect(Math.abs(got[i]! - ref[i]!)).toBeLessThanOrEqual(Math.abs(ref[i]!) * 2 ** -7);
    expect(y.dtype).toBe('bfloat16');
    const s = x.sum();
    expect(s.dtype).toBe('bfloat16');
    expect(s.item()).toBe(bf16(xr.reduce((p, q) => fround(p + q), 0)));
  });
});

describe('type promotion (PyTorch rules)', () => {
  const cases: [string, string, string][] = [
    ['int32', 'float32', 'float32'], ['int32', 'bfloat16', 'bfloat16'], ['bfloat16', 'float32', 'float32'],
    ['bool', 'int32', 'int32'], ['bool', 'float32', 'float32'], ['bool', 'bool', 'bool'], ['int32', 'int32', 'int32'],
  ];
  it.each(cases)('%s + %s -> %s', (a, b, want) => {
    const x = tpu.tensor([1, 0], { dtype: a as 'float32' });
    const y = tpu.tensor([1, 1], { dtype: b as 'float32' });
    const z = x.add(y);
    expect(z.dtype).toBe(want);
    expect(y.add(x).dtype).toBe(want);
    expect(z.array()).toEqual(want === 'bool' ? [true, true] : [2, 1]);
  });

  it('JS scalars are weak: they never widen a tensor of the same category', () => {
    const i = tpu.tensor([1, 2], { dtype: 'int32' });
    const h = tpu.tensor([1, 2], { dtype: 'bfloat16' });
    const b = tpu.tensor([true, false]);
    expect(i.mul(3).dtype).toBe('int32');
    expect(i.mul(1.5).dtype).toBe('float32');
    expect(h.mul(1.5).dtype).toBe('bfloat16');
    expect(h.add(100000).dtype).toBe('bfloat16');
    expect(b.add(1).dtype).toBe('int64'); // bool + int is torch.int64
    expect(b.add(true).dtype).toBe('bool');
    expect(b.add(1).array()).toEqual([2, 1]);
  });

  it('true division of integers gives float32; exp of int gives float32', () => {
    const i = tpu.tensor([1, 2, 7], { dtype: 'int32' });
    const q = i.div(2);
    expect(q.dtype).toBe('float32');
    expect(q.array()).toEqual([0.5, 1, 3.5]);
    expect(i.exp().dtype).toBe('float32');
    expect(i.sum().dtype).toBe('int64'); // torch.int32 sums are torch.int64
    expect(tpu.tensor([true, true, false]).sum().item()).toBe(2);
  });

  it('creation dtypes: numbers -> float32 (JS cannot tell 1.0 from 1), Int32Array -> int32, booleans -> bool, integer arange -> int64', () => {
    expect(tpu.tensor([[1, 2], [3, 4]]).dtype).toBe('float32');
    expect(tpu.tensor(new Int32Array([1, 2])).dtype).toBe('int32');
    expect(tpu.full([2], 1).dtype).toBe('float32');
    expect(tpu.arange(3).dtype).toBe('int64');
    expect(tpu.tensor([1, 2.5]).dtype).toBe('float32');
    expect(tpu.tensor([true]).dtype).toBe('bool');
    expect(tpu.tensor(new Float32Array([1, 2])).dtype).toBe('float32');
    expect(tpu.arange(5).array()).toEqual([0, 1, 2, 3, 4]);
    expect(tpu.arange(1, 2, 0.25).array()).toEqual([1, 1.25, 1.5, 1.75]);
    expect(tpu.full([2], 7).array()).toEqual([7, 7]);
    expect(tpu.zeros([2, 1]).array()).toEqual([[0], [0]]);
    expect(tpu.ones([2], { dtype: 'bfloat16' }).dtype).toBe('bfloat16');
    expect(tpu.tensor(5).shape).toEqual([]);
  });

  it('rand/randn are reproducible with manualSeed and have the right moments', () => {
    tpu.manualSeed(42);
    const a = tpu.randn([20000]).dataSync();
    tpu.manualSeed(42);
    const b = tpu.randn([20000]).dataSync();
    expect(Array.from(a)).toEqual(Array.from(b));
    const mean = a.reduce((p, q) => p + q, 0) / a.length;
    const variance = a.reduce((p, q) => p + (q - mean) ** 2, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
    const u = tpu.rand([10000]).dataSync();
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...u)).toBeLessThan(1);
  });
});

describe('matmul shapes', () => {
  it('1-D, batched and broadcast operands follow NumPy rules', () => {
    const v = tpu.tensor([1, 2, 3], { dtype: 'float32' });
    const m = tpu.arange(6).reshape([3, 2]).to('float32');
    expect(v.matmul(m).array()).toEqual([16, 22]);
    expect(m.T.matmul(v).array()).toEqual([8, 26].map((x, i) => [0 * 1 + 2 * 2 + 4 * 3, 1 + 3 * 2 + 5 * 3][i]));
    expect(v.matmul(v).item()).toBe(14);
    const batch: Tensor = tpu.ones([4, 2, 3]);
    expect(batch.matmul(m).shape).toEqual([4, 2, 2]);
    expect(batch.matmul(m).sum().item()).toBe(4 * 2 * (0 + 1 + 2 + 3 + 4 + 5));
    expect(tpu.arange(4).reshape([2, 2]).matmul(tpu.arange(4).reshape([2, 2])).array()).toEqual([[2, 3], [6, 11]]);
  });
});

describe('matmul precision', () => {
  it("'highest' multiplies in float32; 'default' rounds operands to bfloat16 like one TPU pass", () => {
    const a = tpu.tensor([[1 / 3, 1 / 7]], { dtype: 'float32' });
    const b = tpu.tensor([[3], [7]], { dtype: 'float32' });
    expect(a.matmul(b).item()).toBe(Math.fround(Math.fround(Math.fround(1 / 3) * 3) + Math.fround(Math.fround(1 / 7) * 7)));
    tpu.setMatmulPrecision('default');
    try {
      // bf16(1/3) = 0.333984375, bf16(1/7) = 0.142578125; products exact in float32
      expect(a.matmul(b).item()).toBe(0.333984375 * 3 + 0.142578125 * 7);
    } finally {
      tpu.setMatmulPrecision('highest');
    }
    expect(() => tpu.setMatmulPrecision('fast' as never)).toThrow("tpu.setMatmulPrecision: precision must be 'highest' or 'default'; got \"fast\"");
  });
});

describe('softmax', () => {
  it.each(['debug', 'strict', 'fused'] as const)('%s: matches float64 softmax; fused runs it as one ONNX Softmax', (mode) => {
    tpu.mode(mode);
    const xs = seededValues(12, 5, -4, 4).map(Math.fround);
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 4]);
    const ref: number[] = [];
    for (let r = 0; r < 3; r++) {
      const row = xs.slice(r * 4, r * 4 + 4);
      const m = Math.max(...row);
      const e = row.map((v) => Math.exp(v - m));
      const s = e.reduce((p, q) => p + q, 0);
      ref.push(...e.map((v) => v / s));
    }
    expectClose(x.softmax(-1).dataSync(), ref, 1e-6, 1e-7);
    if (mode === 'fused') expect(lowerToOnnx(tpu.stats().lastProgram!.program).text).toMatch(/= Softmax\(v\d+, axis=1\)\n/);
    // its temporaries: freed at once in debug/strict (never outputs in fused) when no
    // gradient is recorded; kept usable when autograd needs them for the backward pass
    const made: Tensor[] = [];
    const stop = addApplyHook((_op, _operands, _attrs, out) => made.push(out));
    x.softmax(0).dataSync();
    const n = made.length; // 5 ops (6 in fused: an identity takes the input, ops/identity.ts)
    x.requiresGrad_().softmax(0).dataSync();
    stop();
    expect(made.slice(0, n).map((t) => t.disposed)).toEqual(made.slice(0, n).map((_, i) => mode !== 'fused' && i < n - 1));
    expect(made.slice(n).every((t) => !t.disposed)).toBe(true);
    const exp = made[made.length - 3]!;
    expect(exp.shape).toEqual([3, 4]);
    expect(exp.sum().item()).toBeGreaterThan(0);
    tpu.mode('strict');
  });
});
