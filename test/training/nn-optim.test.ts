// tpu.nn and tpu.optim against float64 references written here (PyTorch's formulas).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';
import { settledLiveTensors } from '../support/settle-gc.js';

const { nn, optim } = tpu;
const f32 = (xs: number[]) => xs.map(Math.fround);
const t2 = (values: number[], shape: number[]) => tpu.tensor(Float32Array.from(values)).reshape(shape);

describe('nn.Module', () => {
  it('finds parameters by name, switches train/eval, and round-trips its state', () => {
    tpu.manualSeed(0);
    const model = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Dropout(0.5), new nn.Linear(4, 2, { bias: false }));
    expect(model.namedParameters().map(([k, p]) => `${k}:${p.shape.join('x')}`)).toEqual(['0.weight:4x3', '0.bias:4', '3.weight:2x4']);
    expect(model.parameters().every((p) => p.requiresGrad && p.isLeaf)).toBe(true);
    model.eval();
    expect(model.layers.every((m) => !m.training)).toBe(true);
    const x = tpu.randn([5, 3]);
    const y1 = Array.from(model.forward(x).dataSync());
    expect(Array.from(model.forward(x).dataSync())).toEqual(y1); // eval: dropout is the identity

    tpu.manualSeed(1);
    const other = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Dropout(0.5), new nn.Linear(4, 2, { bias: false })).eval();
    const weightObject = (other.layers[0] as InstanceType<typeof nn.Linear>).weight;
    other.loadStateDict(model.stateDict());
    expect(other.stateDict().weight === undefined).toBe(true);
    expect((other.layers[0] as InstanceType<typeof nn.Linear>).weight).toBe(weightObject); // loaded in place
    expect(Array.from(other.forward(x).dataSync())).toEqual(y1);
  });

  it('loadStateDict names missing, unexpected and mis-shaped entries', () => {
    const a = new nn.Linear(2, 3);
    expect(() => a.loadStateDict({ weight: tpu.zeros([3, 2]) })).toThrow(/missing: bias/);
    expect(() => a.loadStateDict({ weight: tpu.zeros([3, 2]), bias: tpu.zeros([3]), extra: tpu.zeros([1]) })).toThrow(/unexpected: extra/);
    expect(() => a.loadStateDict({ weight: tpu.zeros([2, 3]), bias: tpu.zeros([3]) })).toThrow(/'weight' has shape \[2, 3\] in the state, \[3, 2\] in the module/);
    a.loadStateDict({ bias: tpu.ones([3]) }, { strict: false });
    expect(a.bias!.array()).toEqual([1, 1, 1]);
  });

  it('Linear, LayerNorm, GELU and Embedding forward match float64', () => {
    const lin = new nn.Linear(3, 2);
    lin.loadStateDict({ weight: t2([1, 2, 3, -1, 0.5, 0.25], [2, 3]), bias: t2([0.5, -0.5], [2]) });
    expectClose(lin.forward(t2([1, -1, 2, 0, 1, 1], [2, 3])).dataSync(), [1 - 2 + 6 + 0.5, -1 - 0.5 + 0.5 - 0.5, 0 + 2 + 3 + 0.5, 0 + 0.5 + 0.25 - 0.5]);
    const xs = f32(seededValues(8, 3));
    const ln = new nn.LayerNorm(4);
    const expected = [0, 1].flatMap((r) => {
      const row = xs.slice(r * 4, r * 4 + 4);
      const mu = row.reduce((a, b) => a + b, 0) / 4;
      const v = row.reduce((a, b) => a + (b - mu) ** 2, 0) / 4;
      return row.map((x) => (x - mu) / Math.sqrt(v + 1e-5));
    });
    expectClose(ln.forward(t2(xs, [2, 4])).dataSync(), expected, 1e-5, 1e-6);
    const erf = (x: number) => {
      // Abramowitz–Stegun 7.1.26 is too coarse; integrate instead (Simpson, 2000 steps).
      const n = 2000;
      let s = 0;
      for (let i = 0; i <= n; i++) {
        const t = (x * i) / n;
        s += (i === 0 || i === n ? 1 : i % 2 ? 4 : 2) * Math.exp(-t * t);
      }
      return ((2 / Math.sqrt(Math.PI)) * s * x) / (3 * n);
    };
    expectClose(new nn.GELU().forward(t2(xs, [8])).dataSync(), xs.map((x) => 0.5 * x * (1 + erf(x / Math.SQRT2))), 1e-5, 1e-6);
    const emb = new nn.Embedding(4, 2);
    const table = Array.from(emb.weight.dataSync());
    expect(Array.from(emb.forward(tpu.tensor([3, 0, 3], { dtype: 'int32' })).dataSync())).toEqual([table[6], table[7], table[0], table[1], table[6], table[7]]);
  });

  it('Conv2d: parameters, PyTorch init bounds, forward vs a float64 convolution, gradients', () => {
    tpu.manualSeed(9);
    const conv = new nn.Conv2d(2, 3, 3, { padding: 1, stride: 2 });
    expect(conv.namedParameters().map(([k, p]) => `${k}:${p.shape.join('x')}`)).toEqual(['weight:3x2x3x3', 'bias:3']);
    const bound = 1 / Math.sqrt(2 * 9);
    const wv = Array.from(conv.weight.dataSync());
    const bv = Array.from(conv.bias!.dataSync());
    expect(wv.every((v) => Math.abs(v) <= bound)).toBe(true);
    const xv = f32(seededValues(2 * 5 * 5, 13));
    const y = conv.forward(t2(xv, [1, 2, 5, 5]));
    expect(y.shape).toEqual([1, 3, 3, 3]);
    const expected: number[] = [];
    for (let o = 0; o < 3; o++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let acc = bv[o]!;
      for (let c = 0; c < 2; c++) for (let di = 0; di < 3; di++) for (let dj = 0; dj < 3; dj++) {
        const r = i * 2 - 1 + di;
        const q = j * 2 - 1 + dj;
        if (r >= 0 && r < 5 && q >= 0 && q < 5) acc += wv[((o * 2 + c) * 3 + di) * 3 + dj]! * xv[(c * 5 + r) * 5 + q]!;
      }
      expected.push(acc);
    }
    expectClose(y.dataSync(), expected, 1e-5, 1e-6);
    y.sum().backward();
    expect(conv.bias!.grad!.array()).toEqual([9, 9, 9]);
    expect(conv.weight.grad!.shape).toEqual([3, 2, 3, 3]);
  });

  it('Dropout in training zeroes about p of the elements and scales the rest by 1/(1-p)', () => {
    tpu.manualSeed(5);
    const d = new nn.Dropout(0.25);
    const y = d.forward(tpu.ones([4000])).dataSync();
    const zeros = y.filter((v) => v === 0).length;
    expect(zeros / 4000).toBeGreaterThan(0.22);
    expect(zeros / 4000).toBeLessThan(0.28);
    expect(y.filter((v) => v !== 0).every((v) => Math.abs(v - 1 / 0.75) < 1e-6)).toBe(true);
    expect(() => new nn.Dropout(1.5)).toThrow(/Dropout: p must be a probability in \[0, 1\]; got 1.5/);
    // PyTorch's nn.Dropout(p=0.9): p in an options object
    const named = new nn.Dropout({ p: 0.9 });
    expect(named.p).toBe(0.9);
    expect(named.forward(tpu.ones([4000])).dataSync().filter((v) => v === 0).length / 4000).toBeGreaterThan(0.85);
    expect(() => new nn.Dropout({ prob: 0.1 } as never)).toThrow("nn.Dropout: unknown option 'prob'; nn.Dropout accepts 'p'");
  });
});

describe('losses', () => {
  it('crossEntropy, mse, binaryCrossEntropy (+ with logits) match float64', () => {
    const lv = f32(seededValues(6, 21));
    const target = [2, 0];
    const ce = [0, 1].map((r) => {
      const row = lv.slice(r * 3, r * 3 + 3);
      return -(row[target[r]!]! - Math.log(row.reduce((s, v) => s + Math.exp(v), 0)));
    });
    expect(nn.crossEntropy(t2(lv, [2, 3]), tpu.tensor(target, { dtype: 'int32' })).item()).toBeCloseTo((ce[0]! + ce[1]!) / 2, 5);
    expectClose(nn.crossEntropy(t2(lv, [2, 3]), tpu.tensor(target, { dtype: 'int32' }), { reduction: 'none' }).dataSync(), ce, 1e-5);
    const p = f32([0.2, 0.9, 0.5, 0.01]);
    const q = f32([0, 1, 1, 0]);
    expect(nn.mseLoss(t2(p, [4]), t2(q, [4])).item()).toBeCloseTo(p.reduce((s, v, i) => s + (v - q[i]!) ** 2, 0) / 4, 6);
    const bce = p.map((v, i) => -(q[i]! * Math.log(v) + (1 - q[i]!) * Math.log(1 - v)));
    expect(nn.binaryCrossEntropy(t2(p, [4]), t2(q, [4])).item()).toBeCloseTo(bce.reduce((a, b) => a + b) / 4, 5);
    const logits = f32([-3, 0.5, 2, 8]);
    const bcel = logits.map((x, i) => -(q[i]! * Math.log(1 / (1 + Math.exp(-x))) + (1 - q[i]!) * Math.log(1 - 1 / (1 + Math.exp(-x)))));
    expectClose(nn.binaryCrossEntropyWithLogits(t2(logits, [4]), t2(q, [4]), { reduction: 'none' }).dataSync(), bcel, 1e-5, 1e-6);
  });

  it('bad targets get clear errors', () => {
    const logits = tpu.zeros([2, 3]);
    expect(() => nn.crossEntropy(logits, tpu.tensor([0.5, 1.5]))).toThrow(/target must hold int32 class indices; got float32/);
    expect(() => nn.crossEntropy(logits, tpu.tensor([0, 1, 2], { dtype: 'int32' }))).toThrow(/target must have shape \[2\].*got \[3\]/);
    expect(() => nn.mseLoss(tpu.zeros([2]), tpu.zeros([3]))).toThrow(/input \[2\] and target \[3\] must have the same shape/);
    expect(() => nn.mseLoss(tpu.zeros([2]), tpu.zeros([2]), { reduction: 'avg' as never })).toThrow(/reduction must be/);
  });
});

/** Runs `steps` updates of p with the constant gradient c (loss Σ p·c) in the given mode. */
function runOptimizer(make: (p: Tensor) => { step(): void; zeroGrad(): void; lr: number }, p0: number[], c: number[], steps: number, lrs: number[]): number[] {
  const p = t2(p0, [p0.length]).requiresGrad_();
  const opt = make(p);
  const ct = t2(c, [c.length]);
  for (let k = 0; k < steps; k++) {
    opt.lr = lrs[k]!;
    tpu.scope(() => {
      opt.zeroGrad();
      p.mul(ct).sum().backward();
      opt.step();
    });
  }
  return Array.from(p.dataSync());
}

describe.each(['strict', 'fused'] as const)('optimizers (%s mode) against float64 PyTorch formulas', (mode) => {
  const p0 = f32([0.5, -1, 2]);
  const c = f32([0.3, -0.7, 1.1]);
  const lrs = [0.1, 0.05, 0.2, 0.01];

  it('SGD with momentum, dampening and weight decay; Nesterov', () => {
    tpu.mode(mode);
    for (const nesterov of [false, true]) {
      const [mom, damp, wd] = [0.9, nesterov ? 0 : 0.1, 0.01];
      const p = [...p0];
      let buf: number[] | null = null;
      for (const lr of lrs) {
        const g = p.map((v, i) => c[i]! + wd * v);
        buf = buf ? buf.map((b, i) => mom * b + (1 - damp) * g[i]!) : g;
        const d = nesterov ? g.map((v, i) => v + mom * buf![i]!) : buf;
        d.forEach((v, i) => (p[i] = p[i]! - lr * v));
      }
      const got = runOptimizer((q) => new optim.SGD([q], { lr: 0.1, momentum: mom, dampening: damp, weightDecay: wd, nesterov }), p0, c, 4, lrs);
      expectClose(got, p, 1e-5, 1e-6);
    }
  });

  it('Adam (L2 decay) and AdamW (decoupled decay)', () => {
    tpu.mode(mode);
    for (const decoupled of [false, true]) {
      const [b1, b2, eps, wd] = [0.9, 0.999, 1e-8, 0.05];
      const p = [...p0];
      const m = [0, 0, 0];
      const v = [0, 0, 0];
      lrs.forEach((lr, k) => {
        const t = k + 1;
        for (let i = 0; i < 3; i++) {
          const g = decoupled ? c[i]! : c[i]! + wd * p[i]!;
          if (decoupled) p[i] = p[i]! * (1 - lr * wd);
          m[i] = b1 * m[i]! + (1 - b1) * g;
          v[i] = b2 * v[i]! + (1 - b2) * g * g;
          p[i] = p[i]! - (lr / (1 - b1 ** t)) * (m[i]! / (Math.sqrt(v[i]! / (1 - b2 ** t)) + eps));
        }
      });
      const Opt = decoupled ? optim.AdamW : optim.Adam;
      const got = runOptimizer((q) => new Opt([q], { lr: 0.1, weightDecay: wd }), p0, c, 4, lrs);
      expectClose(got, p, 1e-5, 1e-6);
    }
  });

  it('a learning rate changed at every step never recompiles, and memory stays flat', async () => {
    tpu.mode(mode);
    tpu.manualSeed(2);
    const model = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 3));
    const opt = new optim.Adam(model.parameters());
    const x = tpu.randn([16, 4]);
    const y = tpu.tensor(Int32Array.from({ length: 16 }, (_, i) => i % 3));
    // Reading the loss every step (a sync point) makes each fused region one step.
    const step = (k: number) =>
      tpu.scope(() => {
        opt.lr = 0.01 / (1 + k);
        opt.zeroGrad();
        const loss = nn.crossEntropy(model.forward(x), y);
        loss.backward();
        opt.step();
        return loss.item();
      });
    for (let k = 0; k < 3; k++) step(k);
    tpu.syncBlocking();
    const compiled = tpu.stats().programsCompiled;
    // Fused recipes left by a region pin their inputs until they are garbage-collected.
    const live = await settledLiveTensors();
    for (let k = 3; k < 10; k++) step(k);
    tpu.syncBlocking();
    expect(tpu.stats().programsCompiled - compiled).toBe(0);
    expect(await settledLiveTensors()).toBe(live);
  });
});

describe('optimizer errors', () => {
  it('names the bad argument', () => {
    expect(() => new optim.SGD([tpu.zeros([2])])).toThrow(/SGD: params\[0\].*does not require grad/);
    expect(() => new optim.Adam([])).toThrow(/Adam: params is empty/);
    expect(() => new optim.SGD(3 as never)).toThrow(/params must be an array of tensors/);
    const p = tpu.zeros([2], { requiresGrad: true });
    expect(() => new optim.Adam([p], { lr: -1 })).toThrow(/Adam: lr must be a number in \[0, Infinity\]; got -1/);
    expect(() => new optim.Adam([p], { betas: [1, 0.9] })).toThrow(/betas\[0\] must be a number in \[0, 1\)/);
    expect(() => new optim.SGD([p], { nesterov: true })).toThrow(/nesterov needs momentum > 0/);
    // torch.optim.SGD([w * 2]) raises "can't optimize a non-leaf Tensor": its grad would never be filled
    expect(() => new optim.SGD([p.mul(2)])).toThrow('SGD: params[0] [2] float32 is not a leaf (it was computed from other tensors; PyTorch: "can\'t optimize a non-leaf Tensor")');
    expect(() => new optim.Adam([{ params: [p.reshape(1, 2)] }])).toThrow(/Adam: paramGroups\[0\]\.params\[0\] .* is not a leaf/);
  });
});

describe('in-place updates in fused mode', () => {
  it('are recorded in the region: later ops read the new value; a dropped region undoes them', () => {
    tpu.mode('fused');
    const w = tpu.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.SGD([w], { lr: 0.5 });
    tpu.syncBlocking();
    w.mul(w).sum().backward(); // grad 2w
    opt.step(); // w <- w - w = 0 ... recorded, nothing ran
    const after = w.add(1);
    expect(tpu.stats().pendingOps).toBeGreaterThan(0);
    expect(after.array()).toEqual([1, 1, 1]);
    expect(w.array()).toEqual([0, 0, 0]);

    const v = tpu.tensor([4, 5], { dtype: 'float32', requiresGrad: true });
    const opt2 = new optim.SGD([v], { lr: 1 });
    v.sum().backward(); // grad 1
    opt2.step(); // v <- v - 1, recorded
    tpu.cancelPending(); // an interrupt drops the region
    expect(v.array()).toEqual([4, 5]);
  });
});

describe('values computed before an in-place update', () => {
  it('keep their value when recomputed after it (fused recipes read the old buffer)', () => {
    tpu.mode('fused');
    const w = tpu.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.SGD([w], { lr: 0.5 });
    const h = tpu.noGrad(() => w.mul(2)); // consumed once below: never materialized
    expect(h.sum().item()).toBe(12);
    w.mul(w).sum().backward();
    opt.step(); // w <- 0
    expect(w.array()).toEqual([0, 0, 0]);
    expect(h.array()).toEqual([2, 4, 6]); // recomputed from w's value before the step
  });
});
