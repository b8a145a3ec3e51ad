// SequentialLR, ChainedScheduler and CyclicLR stepped inside a tpu.compile'd training step: each
// replay takes one schedule step, as the eager loop does (learning rates against PyTorch's, in
// float64; weights against the eager run's, whose steps use the same float32 ops); and their
// argument errors, each naming what was wrong.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { optim } = tpu;
const S = optim.lrScheduler;
const STEPS = 12;

interface Case { name: string; js: (o: InstanceType<typeof optim.SGD>) => { step(): void }; py: string }
const cases: Case[] = [
  { name: 'SequentialLR', js: (o) => new S.SequentialLR(o, [new S.LinearLR(o, { startFactor: 0.25, totalIters: 3 }), new S.StepLR(o, 2, { gamma: 0.5 })], [3]), py: 'L.SequentialLR(opt, [L.LinearLR(opt, start_factor=0.25, total_iters=3), L.StepLR(opt, 2, gamma=0.5)], [3])' },
  { name: 'ChainedScheduler', js: (o) => new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.5, totalIters: 4 }), new S.ExponentialLR(o, 0.8)]), py: 'L.ChainedScheduler([L.ConstantLR(opt, factor=0.5, total_iters=4), L.ExponentialLR(opt, 0.8)])' },
  { name: 'CyclicLR (its momentum cycled too)', js: (o) => new S.CyclicLR(o, 0.01, 0.2, { stepSizeUp: 3, mode: 'triangular2' }), py: "L.CyclicLR(opt, 0.01, 0.2, step_size_up=3, mode='triangular2')" },
];

const PY = `
import json, sys, torch
import torch.optim.lr_scheduler as L
out = []
for c in json.load(sys.stdin):
    opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1, momentum=0.9)
    sched = eval(c['py'])
    lrs = []
    for _ in range(c['steps']):
        sched.step()
        lrs.append([opt.param_groups[0]['lr'], opt.param_groups[0]['momentum']])
    out.append(lrs)
print(json.dumps(out))
`;

function torchLrs(): number[][][] {
  const run = spawnSync('python3', ['-W', 'ignore', '-c', PY], { input: JSON.stringify(cases.map((c) => ({ py: c.py, steps: STEPS }))), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function train(c: Case, compiled: boolean) {
  const w = tpu.tensor([1, -2], { requiresGrad: true });
  const opt = new optim.SGD([w], { lr: 0.1, momentum: 0.9 });
  const sched = c.js(opt);
  const x = tpu.tensor([0.5, 3]);
  let bodyRuns = 0;
  const body = (xs: Tensor) => {
    bodyRuns++;
    opt.zeroGrad();
    w.mul(xs).sum().add(w.square().sum()).backward();
    opt.step();
    sched.step();
    return w.mul(1);
  };
  const step = compiled ? tpu.compile(body) : body;
  const lrs: number[][] = [];
  const weights: number[][] = [];
  for (let k = 0; k < STEPS; k++) {
    weights.push(Array.from(step(x).dataSync() as Float32Array));
    lrs.push([opt.paramGroups[0]!.lr, (opt.paramGroups[0] as { momentum: number }).momentum]);
  }
  return { lrs, weights, bodyRuns };
}

describe('schedulers that drive or cycle, stepped in a tpu.compile\'d step', () => {
  const want = torchLrs();
  cases.forEach((c, i) => {
    it(c.name, () => {
      const eager = train(c, false);
      const compiled = train(c, true);
      expect(compiled.bodyRuns).toBe(1);
      for (const run of [eager, compiled]) {
        run.lrs.forEach((pair, k) => pair.forEach((v, j) => {
          if (!(Math.abs(v - want[i]![k]![j]!) <= 1e-12)) expect.fail(`${c.name}: step ${k}: ${j ? 'momentum' : 'lr'} ${v}, PyTorch ${want[i]![k]![j]}`);
        }));
      }
      compiled.weights.forEach((ws, k) => ws.forEach((v, j) => expect(v).toBeCloseTo(eager.weights[k]![j]!, 5)));
      // the schedule moved the weights: a run whose lr stayed put would differ
      expect(new Set(eager.lrs.map(([lr]) => lr)).size).toBeGreaterThan(2);
    });
  });
});

describe('their argument errors', () => {
  const opt = () => new optim.SGD([tpu.zeros([2], { requiresGrad: true })], { lr: 0.1, momentum: 0.9 });
  it('SequentialLR', () => {
    const o = opt();
    const [a, b] = [new S.ConstantLR(o), new S.ExponentialLR(o, 0.9)];
    expect(() => new S.SequentialLR(o, [a, b], [2, 4])).toThrow('SequentialLR: milestones must have one fewer entry than the schedulers (1), as in PyTorch; got 2');
    expect(() => new S.SequentialLR(o, [a, b], [1.5])).toThrow('SequentialLR: milestones[0] must be an integer >= 0; got 1.5');
    expect(() => new S.SequentialLR(o, [], [])).toThrow(/SequentialLR: schedulers must be an array of at least one scheduler/);
    expect(() => new S.SequentialLR(o, [a, new S.StepLR(opt(), 2)], [3])).toThrow('SequentialLR: every scheduler must belong to the same optimizer, as in PyTorch; schedulers[1] (StepLR) has another one');
    expect(() => new S.SequentialLR(o, [a, new S.ReduceLROnPlateau(o) as never], [3])).toThrow('SequentialLR: schedulers[1] must be a tpu.optim.lrScheduler scheduler other than ReduceLROnPlateau (its step takes a metric), as in PyTorch');
    expect(() => new S.SequentialLR(o, { schedulers: [a, b], milestone: [3] } as never)).toThrow(/SequentialLR: unknown option 'milestone'/);
  });
  it('ChainedScheduler', () => {
    const o = opt();
    expect(() => new S.ChainedScheduler([new S.ConstantLR(o), 3 as never])).toThrow(/ChainedScheduler: schedulers\[1\] must be a tpu.optim.lrScheduler scheduler \(StepLR, LinearLR, ...\); got .*3/);
    expect(() => new S.ChainedScheduler([new S.ConstantLR(o)], opt())).toThrow(/ChainedScheduler: every scheduler must belong to the same optimizer/);
    expect(() => new S.ChainedScheduler([new S.ConstantLR(o)]).step(3 as never)).toThrow('ChainedScheduler.step: takes no argument');
  });
  it('CyclicLR', () => {
    expect(() => new S.CyclicLR(opt(), 0.01)).toThrow('CyclicLR: maxLr is required (the highest lr of the cycle)');
    expect(() => new S.CyclicLR(opt(), 0.01, 0.1, { mode: 'exp-range' as never })).toThrow(`CyclicLR: mode must be one of 'triangular', 'triangular2', 'exp_range'; got "exp-range"`);
    expect(() => new S.CyclicLR(opt(), 0.01, 0.1, { stepSizeUP: 3 } as never)).toThrow(/CyclicLR: unknown option 'stepSizeUP' \(did you mean 'stepSizeUp'\?\)/);
    expect(() => new S.CyclicLR(opt(), 0.01, 0.1, { maxLr: 0.2 })).toThrow('CyclicLR: maxLr is given twice: positionally and in the options');
    expect(() => new S.CyclicLR(new optim.Adagrad([tpu.zeros([2], { requiresGrad: true })]), 0.01, 0.1)).toThrow('CyclicLR: cycleMomentum needs an optimizer with momentum or betas (SGD, Adam, AdamW, RMSprop); give cycleMomentum: false');
    expect(() => new S.CyclicLR(opt(), [0.01, 0.02], 0.1)).toThrow('CyclicLR: baseLr must have one value per param group (1); got 2');
  });
});
