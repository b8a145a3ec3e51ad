// Autograd semantics (PyTorch's) and exact backward through broadcasting, reductions,
// indexing, matmul, layer norm and cross entropy against float64 formulas written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, matmulRef, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));
const MODES = ['debug', 'strict', 'fused'] as const;
const f32 = (xs: number[]) => xs.map(Math.fround);
const leaf = (values: number[], shape: number[]) => tpu.tensor(Float32Array.from(values)).reshape(shape).requiresGrad_();
const seedOf = (values: number[], shape: number[]) => tpu.tensor(Float32Array.from(values)).reshape(shape);
const transpose = (a: number[], rows: number, cols: number) =>
  Array.from({ length: rows * cols }, (_, k) => a[(k % rows) * cols + Math.floor(k / rows)]!);

describe.each(MODES)('exact backward (%s mode)', (mode) => {
  it('through broadcasting: d(a*b + b) for a [2,3], b [3]', () => {
    tpu.mode(mode);
    const av = f32(seededValues(6, 1));
    const bv = f32(seededValues(3, 2));
    const gv = f32(seededValues(6, 3));
    const a = leaf(av, [2, 3]);
    const b = leaf(bv, [3]);
    a.mul(b).add(b).backward(seedOf(gv, [2, 3]));
    expect(b.grad!.shape).toEqual([3]);
    expectClose(a.grad!.dataSync(), gv.map((g, k) => g * bv[k % 3]!), 1e-6);
    const gb = [0, 1, 2].map((j) => gv[j]! * av[j]! + gv[j]! + gv[3 + j]! * av[3 + j]! + gv[3 + j]!);
    expectClose(b.grad!.dataSync(), gb, 1e-5);
  });

  it('through reductions: sum(dim), mean(keepdim) and amax', () => {
    tpu.mode(mode);
    const xv = f32([0.5, -1, 2, 3, 0.25, -2]);
    const x = leaf(xv, [2, 3]);
    // L = Σ_j 2·Σ_i x_ij + Σ_i 3·mean_j x_ij + 5·max(x)
    x.sum(0).mul(2).sum().add(x.mean(1, true).mul(3).sum()).add(x.amax().mul(5)).backward();
    expectClose(x.grad!.dataSync(), [3, 3, 3, 3 + 5, 3, 3]);
  });

  it('through matmul: dA = G Bᵀ, dB = Aᵀ G', () => {
    tpu.mode(mode);
    const av = f32(seededValues(12, 4));
    const bv = f32(seededValues(15, 5));
    const gv = f32(seededValues(20, 6));
    const a = leaf(av, [4, 3]);
    const b = leaf(bv, [3, 5]);
    a.matmul(b).backward(seedOf(gv, [4, 5]));
    expectClose(a.grad!.dataSync(), matmulRef({ shape: [4, 5], data: gv }, { shape: [5, 3], data: transpose(bv, 3, 5) }).data, 1e-5);
    expectClose(b.grad!.dataSync(), matmulRef({ shape: [3, 4], data: transpose(av, 4, 3) }, { shape: [4, 5], data: gv }).data, 1e-5);
  });

  it('through layer norm: the analytic float64 gradient of x, weight and bias', () => {
    tpu.mode(mode);
    const [rows, n, eps] = [3, 4, 1e-5];
    const xv = f32(seededValues(rows * n, 7));
    const wv = f32(seededValues(n, 8, 0.5, 1.5));
    const bv = f32(seededValues(n, 9));
    const gv = f32(seededValues(rows * n, 10));
    const x = leaf(xv, [rows, n]);
    const w = leaf(wv, [n]);
    const b = leaf(bv, [n]);
    tpu.nn.functional.layerNorm(x, [n], { weight: w, bias: b, eps }).backward(seedOf(gv, [rows, n]));
    const dx: number[] = [];
    const dw = new Array(n).fill(0);
    const db = new Array(n).fill(0);
    for (let r = 0; r < rows; r++) {
      const xs = xv.slice(r * n, r * n + n);
      const gs = gv.slice(r * n, r * n + n);
      const mu = xs.reduce((s, v) => s + v, 0) / n;
      const variance = xs.reduce((s, v) => s + (v - mu) ** 2, 0) / n;
      const inv = 1 / Math.sqrt(variance + eps);
      const xhat = xs.map((v) => (v - mu) * inv);
      const gw = gs.map((g, j) => g * wv[j]!);
      const meanGw = gw.reduce((s, v) => s + v, 0) / n;
      const meanGwX = gw.reduce((s, v, j) => s + v * xhat[j]!, 0) / n;
      for (let j = 0; j < n; j++) {
        dx.push(inv * (gw[j]! - meanGw - xhat[j]! * meanGwX));
        dw[j] += gs[j]! * xhat[j]!;
        db[j] += gs[j]!;
      }
    }
    expectClose(x.grad!.dataSync(), dx, 1e-4, 1e-5);
    expectClose(w.grad!.dataSync(), dw, 1e-5, 1e-6);
    expectClose(b.grad!.dataSync(), db, 1e-6, 1e-7);
  });

  it('through indexing: an embedding lookup scatter-adds into the rows picked', () => {
    tpu.mode(mode);
    tpu.manualSeed(3);
    const emb = new tpu.nn.Embedding(3, 2);
    const idx = tpu.tensor([[2, 0], [2, 1]], { dtype: 'int32' });
    const gv = f32(seededValues(8, 11));
    const out = emb.forward(idx);
    expect(out.shape).toEqual([2, 2, 2]);
    out.backward(seedOf(gv, [2, 2, 2]));
    // rows: 0 <- position 1; 1 <- position 3; 2 <- positions 0 and 2
    const expected = [gv[2]!, gv[3]!, gv[6]!, gv[7]!, gv[0]! + gv[4]!, gv[1]! + gv[5]!];
    expectClose(emb.weight.grad!.dataSync(), expected, 1e-6);
  });

  it('through cross entropy: (softmax(logits) - onehot) / N', () => {
    tpu.mode(mode);
    const lv = f32(seededValues(8, 12));
    const target = [1, 0];
    const logits = leaf(lv, [2, 4]);
    tpu.nn.crossEntropy(logits, tpu.tensor(target, { dtype: 'int32' })).backward();
    const expected: number[] = [];
    for (let r = 0; r < 2; r++) {
      const row = lv.slice(r * 4, r * 4 + 4);
      const z = row.reduce((s, v) => s + Math.exp(v), 0);
      row.forEach((v, j) => expected.push((Math.exp(v) / z - (j === target[r] ? 1 : 0)) / 2));
    }
    expectClose(logits.grad!.dataSync(), expected, 1e-5, 1e-7);
  });
});

describe('autograd semantics', () => {
  it('gradients accumulate across backward calls until zeroGrad', () => {
    const x = tpu.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    x.mul(x).sum().backward();
    x.mul(3).sum().backward();
    expect(x.grad!.array()).toEqual([2 + 3, 4 + 3, 6 + 3]);
    const model = new tpu.nn.Linear(3, 1);
    const opt = new tpu.optim.SGD(model.parameters());
    model.forward(x.detach().reshape([1, 3])).sum().backward();
    expect(model.weight.grad!.array()).toEqual([[1, 2, 3]]);
    opt.zeroGrad();
    expect(model.weight.grad).toBeNull();
  });

  it('retainGraph allows a second backward; without it the second one throws clearly', () => {
    const x = tpu.tensor([1.5, -2], { requiresGrad: true });
    const y = x.exp().sum();
    y.backward(undefined, { retainGraph: true });
    y.backward();
    expectClose(x.grad!.dataSync(), [2 * Math.exp(1.5), 2 * Math.exp(-2)], 1e-6);
    expect(() => y.backward()).toThrow(/backward through the graph a second time.*retainGraph: true/);
  });

  it('noGrad, detach and requiresGrad flags', () => {
    const x = tpu.randn([3], { requiresGrad: true });
    expect(x.requiresGrad && x.isLeaf).toBe(true);
    const y = x.mul(2);
    expect(y.requiresGrad).toBe(true);
    expect(y.isLeaf).toBe(false);
    expect(tpu.noGrad(() => x.mul(2)).requiresGrad).toBe(false);
    const d = y.detach();
    expect(d.requiresGrad).toBe(false);
    expect(Array.from(d.dataSync())).toEqual(Array.from(y.dataSync()));
    expect(x.gt(0).requiresGrad).toBe(false); // comparisons are not differentiable
    expect(tpu.zeros([2]).requiresGrad_().requiresGrad).toBe(true);
  });

  it('bad use gets clear errors', () => {
    expect(() => tpu.tensor([1, 2], { dtype: 'int32', requiresGrad: true })).toThrow(/only floating point tensors.*int32/);
    expect(() => tpu.tensor([1.5]).mul(2).backward()).toThrow(/does not require grad/);
    const x = tpu.randn([2, 2], { requiresGrad: true });
    expect(() => x.mul(2).backward()).toThrow(/one-element output; got shape \[2, 2\]/);
    expect(() => x.mul(2).backward(tpu.ones([3]))).toThrow(/gradient has shape \[3\], but the output has shape \[2, 2\]/);
    expect(() => x.mul(2).requiresGrad_(false)).toThrow(/only on a leaf/);
    expect(() => tpu.noGrad(3 as never)).toThrow(/fn must be a function/);
  });

  it('backward inside tpu.scope keeps the gradients, frees the intermediates', () => {
    const x = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const before = tpu.memory().liveTensors;
    tpu.scope(() => x.mul(x).mul(x).sum().backward());
    expect(x.grad!.array()).toEqual([3, 12]);
    expect(tpu.memory().liveTensors).toBe(before + 1); // just the gradient
  });

  it('in fused mode the backward pass is recorded and runs with the forward as one program', () => {
    tpu.mode('fused');
    const x = tpu.tensor([0.5, -1, 2], { requiresGrad: true });
    const w = tpu.tensor([1.5, 2, -0.5], { requiresGrad: true });
    tpu.syncBlocking();
    const runsBefore = tpu.stats().cacheHits + tpu.stats().cacheMisses;
    const loss = x.mul(w).tanh().sum();
    loss.backward();
    expect(tpu.stats().pendingOps).toBeGreaterThan(5); // forward + backward recorded, nothing ran
    const gx = x.grad!.dataSync();
    expect(tpu.stats().cacheHits + tpu.stats().cacheMisses - runsBefore).toBe(1);
    const t = [0.5 * 1.5, -2, -1].map(Math.tanh);
    expectClose(gx, [1.5, 2, -0.5].map((wv, i) => wv * (1 - t[i]! ** 2)), 1e-6);
    expectClose(w.grad!.dataSync(), [0.5, -1, 2].map((xv, i) => xv * (1 - t[i]! ** 2)), 1e-6);
  });
});

describe('functional gradients (tpu.grad, tpu.valueAndGrad)', () => {
  it('differentiates with respect to the chosen arguments, trees included, without touching .grad', () => {
    const f = (p: { w: Tensor; b: Tensor }, x: Tensor) => x.matmul(p.w).add(p.b).mul(x.matmul(p.w).add(p.b)).sum();
    const w = tpu.tensor([[1], [2]], { dtype: 'float32', requiresGrad: true });
    const b = tpu.tensor([0.5]);
    const x = tpu.tensor([[1, -1], [2, 0.5]], { dtype: 'float32' });
    const [value, g] = tpu.valueAndGrad(f)({ w, b }, x) as [Tensor, { w: Tensor; b: Tensor }];
    // rows: z = [1-2+0.5, 2+1+0.5] = [-0.5, 3.5]; L = Σ z²; dL/dw = Σ 2 z x; dL/db = Σ 2 z
    expect(value.item()).toBeCloseTo(0.25 + 12.25, 5);
    expectClose(g.w.dataSync(), [2 * (-0.5 * 1 + 3.5 * 2), 2 * (-0.5 * -1 + 3.5 * 0.5)], 1e-6);
    expectClose(g.b.dataSync(), [2 * (-0.5 + 3.5)], 1e-6);
    expect(w.grad).toBeNull();
    const both = tpu.grad((u: Tensor, v: Tensor) => u.mul(v).sum(), { argnums: [0, 1] })(tpu.tensor([2, 3], { dtype: 'float32' }), tpu.tensor([5.5, 7], { dtype: 'float32' })) as Tensor[];
    expect(both.map((t) => t.array())).toEqual([[5.5, 7], [2, 3]]);
    const unused = tpu.grad((u: Tensor, v: Tensor) => v.sum(), { argnums: [0] })(tpu.tensor([2, 3], { dtype: 'float32' }), tpu.tensor([1.5])) as Tensor[];
    expect(unused[0]!.array()).toEqual([0, 0]);
  });

  it('rejects non-scalar outputs and bad argnums', () => {
    expect(() => tpu.grad((u: Tensor) => u.mul(2))(tpu.tensor([1.5, 2]))).toThrow(/one-element tensor/);
    expect(() => tpu.grad((u: Tensor) => u.sum(), { argnums: 2 })(tpu.tensor([1.5]))).toThrow(/argnums entry 2/);
    expect(() => tpu.grad((u: Tensor) => u.sum())([1, 2] as never)).toThrow(/argument 0\[0\] must be a tensor/);
  });

  it('a gradient inside a gradient (a second derivative) is an error, not a zero; the transforms keep working after it', () => {
    // d²/dx² Σ exp(x) is exp(x): the inner gradient is computed outside autograd, so the outer one gave [0, 0]
    const inner = tpu.grad((u: Tensor) => u.exp().sum());
    const x = tpu.tensor([0, 1]);
    expect(() => tpu.grad((u: Tensor) => inner(u).sum())(x)).toThrow('tpu.grad: a gradient inside the function of tpu.grad or tpu.valueAndGrad (a second derivative) is not supported');
    expect(() => tpu.valueAndGrad((u: Tensor) => tpu.valueAndGrad((v: Tensor) => v.mul(u).sum())(u)[0])(x)).toThrow(/tpu\.valueAndGrad: a gradient inside the function/);
    expectClose(Array.from(inner(x).dataSync()), [1, Math.E], 1e-6);
  });
});
