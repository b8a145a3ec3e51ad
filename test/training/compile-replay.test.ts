// tpu.compile traces once per signature and replays: the JS body runs once, later calls run
// the one program on the new arguments and the current state (parameters, optimizer state,
// learning rates, step counts), with the same values as eager execution.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose } from '../support/reference.js';

const { nn, optim } = tpu;
afterEach(() => {
  tpu.mode('strict');
  vi.restoreAllMocks();
});

type MakeOptimizer = (params: Tensor[]) => InstanceType<typeof optim.SGD> | InstanceType<typeof optim.Adam>;
const optimizers: [string, MakeOptimizer][] = [
  ['SGD with momentum', (p) => new optim.SGD(p, { lr: 0.1, momentum: 0.9, dampening: 0.1, weightDecay: 1e-3 })],
  ['Adam', (p) => new optim.Adam(p, { lr: 1e-2, weightDecay: 1e-3 })],
  ['AdamW', (p) => new optim.AdamW(p, { lr: 1e-2 })],
];
const STEPS = 6;
const lrAt = (k: number) => 0.05 / (1 + k) + 0.001 * k;

/** An MLP, its optimizer and one batch; `step` counts how often its JS body runs. */
function setup(seed: number, make: MakeOptimizer) {
  tpu.manualSeed(seed);
  const model = new nn.Sequential(new nn.Linear(8, 32), new nn.ReLU(), new nn.Linear(32, 5));
  const opt = make(model.parameters());
  const x = tpu.randn([64, 8]);
  const y = tpu.tensor(Int32Array.from({ length: 64 }, (_, i) => (i * 7 + 3) % 5));
  const counter = { bodyRuns: 0 };
  const step = (xb: Tensor, yb: Tensor) => {
    counter.bodyRuns++;
    opt.zeroGrad();
    const loss = nn.crossEntropy(model.forward(xb), yb);
    loss.backward();
    opt.step();
    return loss;
  };
  return { model, opt, x, y, step, counter };
}

const values = (ts: Tensor[]) => ts.map((p) => Array.from(p.dataSync()));
const programsRun = () => tpu.stats().cacheHits + tpu.stats().cacheMisses;

describe('tpu.compile: trace once, replay', () => {
  for (const [label, make] of optimizers) {
    for (const mode of ['strict', 'fused'] as const) {
      it(`${label} (${mode}): a compiled training step matches eager steps with a new learning rate each step; the body runs once`, () => {
        tpu.mode(mode);
        const eager = setup(11, make);
        const eagerLosses: number[] = [];
        for (let k = 0; k < STEPS; k++) {
          eager.opt.lr = lrAt(k);
          eagerLosses.push(eager.step(eager.x, eager.y).item());
        }
        const comp = setup(11, make);
        const step = tpu.compile(comp.step);
        const losses: number[] = [];
        for (let k = 0; k < STEPS; k++) {
          comp.opt.lr = lrAt(k); // set outside the body: read again on every replay
          losses.push(step(comp.x, comp.y).item());
        }
        expect(comp.counter.bodyRuns).toBe(1);
        expect(step.stats().traces).toBe(1);
        expect(comp.opt.stepCount).toBe(STEPS); // the per-call effect advanced it on every replay
        expectClose(losses, eagerLosses, 1e-5, 1e-6);
        expect(losses[STEPS - 1]).toBeLessThan(losses[0]!);
        values(comp.model.parameters()).forEach((p, i) => expectClose(p, values(eager.model.parameters())[i]!, 1e-4, 1e-6));
        // gradients of the last call are readable, as after an eager step
        values(comp.model.parameters().map((p) => p.grad!)).forEach((g, i) =>
          expectClose(g, values(eager.model.parameters().map((p) => p.grad!))[i]!, 1e-4, 1e-6));
      });
    }
  }

  it('a learning rate passed as an argument and set inside the body (opt.lr = lr) is bound per call', () => {
    const make: MakeOptimizer = (p) => new optim.AdamW(p, { lr: 1e-2 });
    const eager = setup(5, make);
    const comp = setup(5, make);
    const step = tpu.compile((x: Tensor, y: Tensor, lr: number) => {
      comp.opt.lr = lr;
      return comp.step(x, y);
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (let k = 0; k < STEPS; k++) {
      eager.opt.lr = lrAt(k);
      const expected = eager.step(eager.x, eager.y).item();
      expect(step(comp.x, comp.y, lrAt(k)).item()).toBeCloseTo(expected, 5);
    }
    expect(comp.counter.bodyRuns).toBe(1);
    expect(warn).not.toHaveBeenCalled();
    values(comp.model.parameters()).forEach((p, i) => expectClose(p, values(eager.model.parameters())[i]!, 1e-4, 1e-6));
  });

  it('SGD with momentum against a float64 loop: w <- w - lr_k * buf, buf <- 0.9 buf + g', () => {
    // loss = sum(w * x)^2 / 2 for a fixed x: g = (w . x) x
    const x = [0.5, -1, 2];
    const w = tpu.tensor([1, 0.25, -0.5], { dtype: 'float32', requiresGrad: true });
    const xt = tpu.tensor(x, { dtype: 'float32' });
    const opt = new optim.SGD([w], { lr: 0.1, momentum: 0.9 });
    const step = tpu.compile((xb: Tensor) => {
      opt.zeroGrad();
      const loss = w.mul(xb).sum().square().div(2);
      loss.backward();
      opt.step();
      return loss;
    });
    let ref = [1, 0.25, -0.5];
    let buf = [0, 0, 0];
    for (let k = 0; k < 5; k++) {
      const lr = 0.1 / (k + 1);
      opt.lr = lr;
      const dot = ref.reduce((s, v, i) => s + v * x[i]!, 0);
      expect(step(xt).item()).toBeCloseTo((dot * dot) / 2, 5);
      const g = x.map((xi) => dot * xi);
      buf = k === 0 ? g : buf.map((b, i) => 0.9 * b + g[i]!);
      ref = ref.map((v, i) => v - lr * buf[i]!);
      expectClose(w.dataSync(), ref, 1e-5, 1e-6);
    }
    expect(step.stats().traces).toBe(1);
  });

  it('runs one program per call after warm-up, compiles nothing more; a new shape traces once', () => {
    const { x, y, step: raw, counter } = setup(3, (p) => new optim.SGD(p, { lr: 0.1, momentum: 0.9 }));
    const step = tpu.compile(raw);
    step(x, y);
    tpu.syncBlocking();
    const compiled = tpu.stats().programsCompiled;
    for (let k = 0; k < 4; k++) {
      const before = programsRun();
      step(x, y).item();
      expect(programsRun() - before).toBe(1);
    }
    expect(tpu.stats().programsCompiled - compiled).toBe(0);
    expect(counter.bodyRuns).toBe(1);
    const x2 = tpu.randn([16, 8]);
    const y2 = tpu.tensor(Int32Array.from({ length: 16 }, (_, i) => i % 5));
    step(x2, y2);
    step(x2, y2);
    step(x, y); // the first signature still replays
    expect(counter.bodyRuns).toBe(2);
    expect(step.stats().traces).toBe(2);
    expect(step.stats().lastRetrace).toBeNull();
  });

  it('number arguments are program inputs bound per call; used in JS arithmetic they re-trace per value, with a warning', () => {
    let runs = 0;
    const scale = tpu.compile((t: Tensor, s: number, o: { shift: number }) => {
      runs++;
      return t.mul(s).add(o.shift);
    });
    const x = tpu.tensor([1, -2, 3], { dtype: 'float32' });
    expect(scale(x, 2, { shift: 1 }).array()).toEqual([3, -3, 7]);
    expect(scale(x, 0.5, { shift: 0.25 }).array()).toEqual([0.75, -0.75, 1.75]); // float kind: one more trace
    const compiled = tpu.stats().programsCompiled;
    expect(scale(x, -3, { shift: 10 }).array()).toEqual([7, 16, 1]);
    expect(scale(x, 1.5, { shift: -0.5 }).array()).toEqual([1, -3.5, 4]);
    expect(runs).toBe(2);
    expect(tpu.stats().programsCompiled).toBe(compiled);
    expect(scale.stats().signatures).toEqual(['float32[3], int, {shift: int}', 'float32[3], float, {shift: float}']);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let arithmeticRuns = 0;
    const doubled = tpu.compile(function twice(t: Tensor, s: number) {
      arithmeticRuns++;
      return t.mul(s * 2);
    });
    expect(doubled(x, 2).array()).toEqual([4, -8, 12]);
    expect(doubled(x, 3).array()).toEqual([6, -12, 18]); // never the stale 2 * 2
    expect(doubled(x, 3).array()).toEqual([6, -12, 18]);
    expect(arithmeticRuns).toBe(2);
    expect(doubled.stats().lastRetrace).toMatch(/number argument #0 \(used as a JS value while tracing\) changed \(2 -> 3\)/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/tpu\.compile\(twice\): number argument #0 was used as a JS value.*x\.mul\(lr\)/s);
  });

  it('loadStateDict reaches the next call (in place, no re-trace); a replaced parameter re-traces; a disposed one gives a clear error', () => {
    const lin = new nn.Linear(2, 1, { bias: false });
    let runs = 0;
    const forward = tpu.compile((t: Tensor) => {
      runs++;
      return lin.forward(t);
    });
    const x = tpu.tensor([[1, 2]], { dtype: 'float32' });
    lin.loadStateDict({ weight: tpu.tensor([[3, 4]], { dtype: 'float32' }) });
    expect(forward(x).array()).toEqual([[11]]);
    lin.loadStateDict({ weight: tpu.tensor([[-1, 5]], { dtype: 'float32' }) });
    expect(forward(x).array()).toEqual([[9]]);
    expect(runs).toBe(1);

    lin.weight = tpu.tensor([[2, 2]], { dtype: 'float32', requiresGrad: true });
    expect(forward(x).array()).toEqual([[6]]);
    expect(runs).toBe(2);
    expect(forward.stats().lastRetrace).toMatch(/a module tensor or submodule was replaced/);

    lin.weight.dispose();
    expect(() => forward(x)).toThrow(/: input is a disposed tensor \[1, 2\] float32/);
    expect(forward.stats().lastRetrace).toMatch(/the captured tensor \[1, 2\] float32 was disposed/);
    lin.weight = tpu.tensor([[1, 1]], { dtype: 'float32', requiresGrad: true });
    expect(forward(x).array()).toEqual([[3]]); // the session and the function keep working
  });

  it('zeroGrad() outside the compiled step is fine (gradients are slots, not captured); a momentum switched off re-traces', () => {
    const make: MakeOptimizer = (p) => new optim.SGD(p, { lr: 0.05, momentum: 0.9 });
    const eager = setup(9, make);
    const comp = setup(9, make);
    const step = tpu.compile(comp.step);
    const both = () => {
      const a = eager.step(eager.x, eager.y).item();
      expect(step(comp.x, comp.y).item()).toBeCloseTo(a, 5);
    };
    both();
    both();
    comp.opt.zeroGrad(); // disposes the gradients the last call wrote
    eager.opt.zeroGrad();
    expect(comp.model.parameters()[0]!.grad).toBeNull();
    both();
    expect(step.stats().traces).toBe(1);
    comp.opt.momentum = 0;
    eager.opt.momentum = 0;
    both();
    expect(step.stats().lastRetrace).toMatch(/SGD paramGroups\[0\]\.momentum != 0 changed \(true -> false\)/);
    both();
    expect(comp.counter.bodyRuns).toBe(2);
    values(comp.model.parameters()).forEach((p, i) => expectClose(p, values(eager.model.parameters())[i]!, 1e-4, 1e-6));
  });

  it('random numbers drawn inside (dropout) advance on every replay as in eager execution; eval() re-traces', () => {
    const run = (compiled: boolean) => {
      tpu.manualSeed(21);
      const model = new nn.Sequential(new nn.Linear(4, 16), new nn.Dropout(0.5), new nn.Linear(16, 2));
      const x = tpu.randn([8, 4]);
      const f = (t: Tensor) => model.forward(t);
      const g = compiled ? tpu.compile(f) : f;
      const out = [0, 1, 2].map(() => Array.from(g(x).dataSync()));
      model.eval();
      out.push(Array.from(g(x).dataSync()));
      return { out, traces: compiled ? (g as ReturnType<typeof tpu.compile>).stats().traces : 0 };
    };
    const eager = run(false);
    const comp = run(true);
    expect(eager.out[0]).not.toEqual(eager.out[1]); // new masks each call
    comp.out.forEach((o, k) => expectClose(o, eager.out[k]!, 1e-5, 1e-6));
    expect(comp.traces).toBe(2); // train, then eval
  });

  it('returns the same structure with fresh tensors; plain values are those of the trace', () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    const opt = new optim.SGD([w], { lr: 0.5 });
    const f = tpu.compile((t: Tensor) => {
      opt.zeroGrad();
      const loss = w.mul(t).sum();
      loss.backward();
      opt.step();
      return { loss, parts: [t.mul(2), w], tag: 'step' };
    });
    const a = f(tpu.tensor([1, 1], { dtype: 'float32' }));
    const b = f(tpu.tensor([2, -1], { dtype: 'float32' }));
    expect(b.loss).not.toBe(a.loss);
    expect(a.loss.item()).toBe(3);
    expect(b.loss.item()).toBe(0.5 * 2 + 1.5 * -1); // w was [0.5, 1.5] after the first step
    expect(b.parts[0]!.array()).toEqual([4, -2]);
    expect(b.parts[1]).toBe(w); // the parameter itself, updated in place
    expect(w.array()).toEqual([-0.5, 2]);
    expect(w.grad!.array()).toEqual([2, -1]);
    expect(b.tag).toBe('step');
  });

  it('a call that cannot be replayed runs its body on each call, with a warning once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let ext = tpu.tensor([1, 2], { dtype: 'int32' });
    let runs = 0;
    const consumer = tpu.compile(function consume(t: Tensor) {
      runs++;
      const out = t.add(ext);
      ext.dispose();
      return out;
    });
    const x = tpu.tensor([10, 20], { dtype: 'int32' });
    expect(consumer(x).array()).toEqual([11, 22]);
    ext = tpu.tensor([3, 4], { dtype: 'int32' });
    expect(consumer(x).array()).toEqual([13, 24]);
    expect(runs).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/tpu\.compile\(consume\): this call cannot be replayed \(it reads \[2\] int32, a tensor disposed while the function ran\)/);
  });

  it('constants made inside are made again on each replay; a body without device work replays too', () => {
    let runs = 0;
    const f = tpu.compile((t: Tensor, k: number) => {
      runs++;
      return { y: t.mul(tpu.tensor([1, 10], { dtype: 'float32' })).add(k), k: 'same' };
    });
    const x = tpu.tensor([2, 3], { dtype: 'float32' });
    expect(f(x, 1).y.array()).toEqual([3, 31]);
    const live = tpu.memory().liveTensors;
    expect(f(x, 4).y.array()).toEqual([6, 34]);
    expect(tpu.memory().liveTensors).toBe(live + 1); // the new result; the remade constant was freed
    expect(runs).toBe(1);
    let idRuns = 0;
    const id = tpu.compile((t: Tensor) => (idRuns++, [t]));
    expect(id(x)[0]).toBe(x);
    const y = tpu.tensor([7], { dtype: 'float32' });
    expect(id(tpu.tensor([8], { dtype: 'float32' }))[0]!.array()).toEqual([8]);
    expect(id(y)[0]).toBe(y);
    expect(idRuns).toBe(2); // two signatures
  });

  it('a tensor read from a closure is frozen like any JS value, with a warning once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let batch = tpu.tensor([1, 2], { dtype: 'float32' });
    const first = batch;
    const f = tpu.compile(function fromClosure() {
      return batch.mul(2);
    });
    expect(f().array()).toEqual([2, 4]);
    batch = tpu.tensor([5, 6], { dtype: 'float32' });
    expect(f().array()).toEqual([2, 4]); // the replay reads the tensor object of the trace
    first.copy_(tpu.tensor([3, 4], { dtype: 'float32' }));
    expect(f().array()).toEqual([6, 8]); // ... and sees that object's new value
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/tpu\.compile\(fromClosure\): the function reads a tensor \[2\] float32 that is not one of its arguments.*pass it as an argument instead/s);
  });
});
