// tpu.compile: a whole training step (forward, backward, optimizer update in place) as one
// program per call, cached per input signature, with the same values as eager execution.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { nn, optim } = tpu;
afterEach(() => tpu.mode('strict'));

function setup(seed: number) {
  tpu.manualSeed(seed);
  const model = new nn.Sequential(new nn.Linear(6, 16), new nn.ReLU(), new nn.Linear(16, 4));
  const opt = new optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9, weightDecay: 1e-3 });
  const x = tpu.randn([32, 6]);
  const y = tpu.tensor(Int32Array.from({ length: 32 }, (_, i) => (i * 7) % 4));
  const step = (xb: Tensor, yb: Tensor, lr: number) => {
    opt.lr = lr;
    opt.zeroGrad();
    const loss = nn.crossEntropy(model.forward(xb), yb);
    loss.backward();
    opt.step();
    return loss;
  };
  return { model, opt, x, y, step };
}

const programsRun = () => tpu.stats().cacheHits + tpu.stats().cacheMisses;

describe('tpu.compile', () => {
  it('a compiled training step returns the same losses and parameters as eager strict mode', () => {
    const eager = setup(7);
    const eagerLosses = [0, 1, 2, 3, 4].map((k) => eager.step(eager.x, eager.y, 0.1 / (k + 1)).item());
    const comp = setup(7);
    const step = tpu.compile(comp.step);
    const losses = [0, 1, 2, 3, 4].map((k) => step(comp.x, comp.y, 0.1 / (k + 1)).item());
    losses.forEach((l, k) => expect(l).toBeCloseTo(eagerLosses[k]!, 5));
    const a = eager.model.parameters().map((p) => Array.from(p.dataSync()));
    const b = comp.model.parameters().map((p) => Array.from(p.dataSync()));
    a.forEach((pa, i) => pa.forEach((v, j) => expect(b[i]![j]).toBeCloseTo(v, 5)));
    expect(losses[4]).toBeLessThan(losses[0]!);
  });

  it('runs ONE program per call, compiles once per input signature, never for a new learning rate', () => {
    const { x, y, step: raw } = setup(3);
    const step = tpu.compile(raw);
    step(x, y, 0.1); // first step (no momentum buffer yet)
    step(x, y, 0.1); // steady state
    tpu.syncBlocking();
    const compiled = tpu.stats().programsCompiled;
    for (let k = 0; k < 5; k++) {
      const before = programsRun();
      const loss = step(x, y, 0.05 + k * 0.01);
      expect(programsRun() - before).toBe(1);
      loss.item(); // outputs are materialized: reading them runs nothing more
      expect(programsRun() - before).toBe(1);
    }
    expect(tpu.stats().programsCompiled - compiled).toBe(0);
    // a new batch size: a new signature, compiled once, then cached
    const x2 = tpu.randn([8, 6]);
    const y2 = tpu.tensor([0, 1, 2, 3, 0, 1, 2, 3], { dtype: 'int32' });
    step(x2, y2, 0.1);
    const afterNew = tpu.stats().programsCompiled;
    expect(afterNew - compiled).toBe(1);
    step(x2, y2, 0.1);
    expect(tpu.stats().programsCompiled).toBe(afterNew);
    expect(step.stats().signatures).toEqual(['float32[32, 6], int32[32], float', 'float32[8, 6], int32[8], float']);
  });

  it('returns trees of tensors; parameters and gradients are readable after the call', () => {
    const w = tpu.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.SGD([w], { lr: 0.5 });
    const f = tpu.compile((x: Tensor) => {
      opt.zeroGrad();
      const loss = w.mul(x).sum();
      loss.backward();
      opt.step();
      return { loss, doubled: [x.mul(2)] };
    });
    const out = f(tpu.tensor([1, -1, 2], { dtype: 'float32' }));
    expect(out.loss.item()).toBe(1 - 2 + 6);
    expect(out.doubled[0]!.array()).toEqual([2, -2, 4]);
    expect(w.grad!.array()).toEqual([1, -1, 2]);
    expect(w.array()).toEqual([0.5, 2.5, 2]);
  });

  it('a data-dependent branch throws a clear error; the session and its tensors survive', () => {
    const x = tpu.tensor([1.5, -2]);
    const f = tpu.compile(function branchy(t: Tensor) {
      const s = t.sum();
      return s.item() > 0 ? t : t.neg();
    });
    expect(() => f(x)).toThrow(/dataSync: tpu\.compile\(branchy\) is tracing: reading a tensor value is not possible.*x\.where\(cond, other\).*outside the compiled function/s);
    expect(x.array()).toEqual([1.5, -2]);
    const g = tpu.compile((t: Tensor) => t.gt(0).to('float32').mul(t).add(t.lt(0).to('float32').mul(t.neg())));
    expect(g(x).array()).toEqual([1.5, 2]);
    expect(() => tpu.compile(async (t: Tensor) => t.data())(x)).toThrow(/must be synchronous|reads a tensor value/);
    expect(() => tpu.compile(3 as never)).toThrow(/tpu\.compile: fn must be a function; got number/);
    expect(g(x).array()).toEqual([1.5, 2]); // still usable after the errors
  });

  it('a parameter read after its in-place update in the same compiled function has the new value', () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.SGD([w], { lr: 0.25 });
    const f = tpu.compile(() => {
      opt.zeroGrad();
      w.mul(w).sum().backward();
      opt.step(); // w <- w - 0.25 * 2w = 0.5 w
      return w.mul(2);
    });
    const before = programsRun();
    expect(f().array()).toEqual([1, 2]);
    expect(programsRun() - before).toBe(1);
    expect(w.array()).toEqual([0.5, 1]);
    expect(w.grad!.array()).toEqual([2, 4]);
  });

  it('a step between forward and backward in a compiled function is PyTorch\'s error at trace time; the usual order runs', () => {
    const { model, opt, x, y } = setup(3);
    const step = tpu.compile((xb: Tensor, yb: Tensor) => {
      opt.zeroGrad();
      const loss = nn.crossEntropy(model.forward(xb), yb);
      loss.backward();
      opt.step();
      return loss;
    });
    const first = step(x, y).item();
    const wrongOrder = tpu.compile((xb: Tensor, yb: Tensor) => {
      const loss = nn.crossEntropy(model.forward(xb), yb);
      opt.step(); // changes the second layer's weight, which its backward reads
      loss.backward();
      return loss;
    });
    expect(() => wrongOrder(x, y)).toThrow(/modified by an inplace operation/);
    const losses = [0, 1, 2].map(() => step(x, y).item());
    expect(losses[2]).toBeLessThan(first);
  });

  it('nested compiled functions are inlined into the outer program', () => {
    const inner = tpu.compile((t: Tensor) => t.mul(3));
    const outer = tpu.compile((t: Tensor) => inner(t).add(1));
    const x = tpu.tensor([1, 2], { dtype: 'float32' });
    outer(x);
    const before = programsRun();
    expect(outer(x).array()).toEqual([4, 7]);
    expect(programsRun() - before).toBe(1);
  });

  it('a value read caught by try/catch inside the body is an error at trace time, never a stale replay', () => {
    const f = tpu.compile(function guarded(t: Tensor) {
      let scale = 1;
      try {
        scale = t.sum().item(); // refused while tracing
      } catch {
        scale = 1;
      }
      return t.mul(scale);
    });
    const x = tpu.tensor([1, 2]);
    expect(() => f(x)).toThrow(/tpu\.compile\(guarded\): the function caught this error.*dataSync: tpu\.compile\(guarded\) is tracing/s);
    expect(() => f(tpu.tensor([3, 4]))).toThrow(/the function caught this error/); // no plan was kept
    expect(() => f.lower(x)).toThrow(/tpu\.compile\(guarded\)\.lower: the function caught this error/);
    expect(x.array()).toEqual([1, 2]);
  });

  it('a mode switch inside the body is an error at trace time; the mode and later calls are intact', () => {
    tpu.mode('strict');
    const f = tpu.compile(function switching(t: Tensor) {
      const y = t.add(1);
      tpu.mode('debug');
      return y.mul(2);
    });
    const g = tpu.compile(function switchingWith(t: Tensor) {
      return tpu.withMode('debug', () => t.add(1));
    });
    const x = tpu.tensor([1, 2]);
    for (let i = 0; i < 2; i++) {
      expect(() => f(x)).toThrow(/tpu\.mode: tpu\.compile\(switching\) is tracing: .*cannot switch modes inside/);
      expect(() => g(x)).toThrow(/tpu\.withMode: tpu\.compile\(switchingWith\) is tracing/);
      expect(tpu.mode()).toBe('strict');
    }
    expect(() => f.lower(x)).toThrow(/tpu\.mode: tpu\.compile\(switching\) is tracing/); // ahead-of-time lowering too
    // the same body without the switch compiles and replays
    const h = tpu.compile((t: Tensor) => t.add(1).mul(2));
    expect(h(x).array()).toEqual([4, 6]);
    expect(h(tpu.tensor([5, -1])).array()).toEqual([12, 0]);
  });
});
