// Each learning-rate scheduler's stateDict()/loadStateDict() against torch.optim.lr_scheduler's
// state_dict() (camelCase keys, in PyTorch's order, after 10 steps), and a resumed run: 10 steps,
// save the optimizer's and the scheduler's state, make a fresh optimizer and scheduler over the
// same weights, load both, 10 more steps: its learning rates and weights are the uninterrupted
// run's, and its learning rates PyTorch's (float64).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { optim } = tpu;
const S = optim.lrScheduler;
type Opt = InstanceType<typeof optim.SGD> | InstanceType<typeof optim.Adam>;
type Sched = InstanceType<typeof S.StepLR> | InstanceType<typeof S.ReduceLROnPlateau> | InstanceType<typeof S.SequentialLR> | InstanceType<typeof S.ChainedScheduler>;
const HALF = 10;
const LRS = [0.1, 0.05];
const METRICS = Array.from({ length: 2 * HALF }, (_, k) => (k < 5 ? 10 - k : 5 + 0.01 * (k % 2)));

interface Case { name: string; opt?: 'Adam'; js: (o: Opt) => Sched; py: string }

const cases: Case[] = [
  { name: 'StepLR', js: (o) => new S.StepLR(o, 3, { gamma: 0.5 }), py: 'L.StepLR(opt, 3, gamma=0.5)' },
  { name: 'MultiStepLR', js: (o) => new S.MultiStepLR(o, [4, 12, 12], { gamma: 0.5 }), py: 'L.MultiStepLR(opt, [4, 12, 12], gamma=0.5)' },
  { name: 'ExponentialLR', js: (o) => new S.ExponentialLR(o, 0.9), py: 'L.ExponentialLR(opt, 0.9)' },
  { name: 'LambdaLR', js: (o) => new S.LambdaLR(o, (e) => 1 / (1 + 0.3 * e)), py: 'L.LambdaLR(opt, lambda e: 1 / (1 + 0.3 * e))' },
  { name: 'LinearLR', js: (o) => new S.LinearLR(o, { startFactor: 0.25, totalIters: 14 }), py: 'L.LinearLR(opt, start_factor=0.25, total_iters=14)' },
  { name: 'CosineAnnealingLR', js: (o) => new S.CosineAnnealingLR(o, 8, { etaMin: 0.001 }), py: 'L.CosineAnnealingLR(opt, 8, eta_min=0.001)' },
  { name: 'OneCycleLR (Adam beta1)', opt: 'Adam', js: (o) => new S.OneCycleLR(o, [1, 0.5], { totalSteps: 2 * HALF, threePhase: true }), py: 'L.OneCycleLR(opt, [1, 0.5], total_steps=20, three_phase=True)' },
  { name: 'ConstantLR', js: (o) => new S.ConstantLR(o, { factor: 0.5, totalIters: 13 }), py: 'L.ConstantLR(opt, factor=0.5, total_iters=13)' },
  { name: 'PolynomialLR', js: (o) => new S.PolynomialLR(o, { totalIters: 16, power: 1.5 }), py: 'L.PolynomialLR(opt, total_iters=16, power=1.5)' },
  { name: 'MultiplicativeLR', js: (o) => new S.MultiplicativeLR(o, (e) => 1 - e / 50), py: 'L.MultiplicativeLR(opt, lambda e: 1 - e / 50)' },
  { name: 'CosineAnnealingWarmRestarts', js: (o) => new S.CosineAnnealingWarmRestarts(o, 4, { tMult: 2, etaMin: 0.001 }), py: 'L.CosineAnnealingWarmRestarts(opt, 4, T_mult=2, eta_min=0.001)' },
  { name: 'SequentialLR (its schedulers saved in it)', js: (o) => new S.SequentialLR(o, [new S.LinearLR(o, { startFactor: 0.1, totalIters: 4 }), new S.StepLR(o, 3, { gamma: 0.5 }), new S.ExponentialLR(o, 0.9)], [4, 12]), py: 'L.SequentialLR(opt, [L.LinearLR(opt, start_factor=0.1, total_iters=4), L.StepLR(opt, 3, gamma=0.5), L.ExponentialLR(opt, 0.9)], [4, 12])' },
  { name: 'ChainedScheduler', js: (o) => new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.5, totalIters: 13 }), new S.ExponentialLR(o, 0.9)]), py: 'L.ChainedScheduler([L.ConstantLR(opt, factor=0.5, total_iters=13), L.ExponentialLR(opt, 0.9)])' },
  { name: 'CyclicLR triangular2 (SGD momentum)', js: (o) => new S.CyclicLR(o, [0.01, 0.02], 0.1, { stepSizeUp: 3, stepSizeDown: 4, mode: 'triangular2' }), py: "L.CyclicLR(opt, [0.01, 0.02], 0.1, step_size_up=3, step_size_down=4, mode='triangular2')" },
  { name: 'CyclicLR exp_range (Adam beta1)', opt: 'Adam', js: (o) => new S.CyclicLR(o, 0.001, 0.01, { stepSizeUp: 4, mode: 'exp_range', gamma: 0.95 }), py: "L.CyclicLR(opt, 0.001, 0.01, step_size_up=4, mode='exp_range', gamma=0.95)" },
  { name: 'CyclicLR without cycleMomentum', js: (o) => new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 5, cycleMomentum: false }), py: 'L.CyclicLR(opt, 0.01, 0.1, step_size_up=5, cycle_momentum=False)' },
  { name: 'ReduceLROnPlateau', js: (o) => new S.ReduceLROnPlateau(o, { patience: 1, factor: 0.5, cooldown: 1 }), py: 'L.ReduceLROnPlateau(opt, patience=1, factor=0.5, cooldown=1)' },
];

function makeOpt(c: Case, w: Tensor[]): Opt {
  const groups = w.map((p, i) => ({ params: [p], lr: LRS[i]! }));
  return c.opt === 'Adam' ? new optim.Adam(groups) : new optim.SGD(groups, { momentum: 0.9 });
}

function train(opt: Opt, sched: Sched, w: Tensor[], from: number, to: number, lrs: number[][]): void {
  for (let k = from; k < to; k++) {
    opt.zeroGrad();
    w[0]!.square().sum().add(w[1]!.mul(w[0]!).sum()).backward();
    opt.step();
    if (sched instanceof S.ReduceLROnPlateau) sched.step(METRICS[k]!);
    else sched.step();
    lrs.push(opt.paramGroups.map((g) => g.lr));
  }
}

const weights = () => [tpu.tensor([0.5, -1]).requiresGrad_(), tpu.tensor([2, 0.25]).requiresGrad_()];

/** [lrs after each step, weights at the end, stateDict after HALF steps] of a run; `resume`: a fresh optimizer and scheduler loaded at HALF. */
function run(c: Case, resume: boolean) {
  const w = weights();
  let opt = makeOpt(c, w);
  let sched = c.js(opt);
  const lrs: number[][] = [];
  train(opt, sched, w, 0, HALF, lrs);
  const saved = sched.stateDict();
  if (resume) {
    const savedOpt = opt.stateDict();
    opt = makeOpt(c, w);
    sched = c.js(opt);
    opt.loadStateDict(savedOpt);
    sched.loadStateDict(saved);
  }
  train(opt, sched, w, HALF, 2 * HALF, lrs);
  return { lrs, weights: w.map((p) => p.tolist()), saved: JSON.parse(JSON.stringify(saved, (_, v) => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v))) };
}

const PY = `
import json, sys, math, torch, collections
import torch.optim.lr_scheduler as L
def camel(k):
    lead = len(k) - len(k.lstrip('_'))
    parts = k.lstrip('_').split('_')
    return '_' * lead + parts[0][0].lower() + parts[0][1:] + ''.join(p[:1].upper() + p[1:] for p in parts[1:])
def plain(v):
    if isinstance(v, dict): return {(camel(k) if isinstance(k, str) else str(k)): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)): return [plain(x) for x in v]
    if isinstance(v, float) and math.isinf(v): return 'inf' if v > 0 else '-inf'
    if isinstance(v, str) and v.endswith(('_lr', '_momentum')): return camel(v)
    return v
c = json.load(sys.stdin)
out = []
for case in c['cases']:
    w = [torch.tensor([0.5, -1], dtype=torch.float32, requires_grad=True), torch.tensor([2, 0.25], dtype=torch.float32, requires_grad=True)]
    groups = [{'params': [p], 'lr': lr} for p, lr in zip(w, c['lrs'])]
    opt = torch.optim.Adam(groups) if case['opt'] == 'Adam' else torch.optim.SGD(groups, momentum=0.9)
    sched = eval(case['py'])
    lrs, saved = [], None
    for k in range(2 * c['half']):
        opt.zero_grad()
        ((w[0] ** 2).sum() + (w[1] * w[0]).sum()).backward()
        opt.step()
        sched.step(c['metrics'][k]) if isinstance(sched, L.ReduceLROnPlateau) else sched.step()
        lrs.append([g['lr'] for g in opt.param_groups])
        if k == c['half'] - 1: saved = plain(sched.state_dict())
    out.append({'lrs': lrs, 'saved': saved})
print(json.dumps(out))
`;

function torchRuns(): { lrs: number[][]; saved: Record<string, unknown> }[] {
  const payload = { cases: cases.map((c) => ({ py: c.py, opt: c.opt ?? 'SGD' })), lrs: LRS, half: HALF, metrics: METRICS };
  const py = spawnSync('python3', ['-W', 'ignore', '-c', PY], { input: JSON.stringify(payload), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (py.status !== 0) throw new Error(`python3 failed: ${py.stderr}`);
  return JSON.parse(py.stdout);
}

/** Where two JSON values differ (numbers to 1e-12 relative: JS and Python's cos and pow may differ in the last bit), or null. */
function difference(got: unknown, want: unknown, path = ''): string | null {
  if (typeof got === 'number' && typeof want === 'number') return Math.abs(got - want) <= 1e-12 * Math.abs(want) + 1e-15 ? null : `${path}: ${got} but PyTorch has ${want}`;
  if (Array.isArray(got) && Array.isArray(want)) {
    if (got.length !== want.length) return `${path}: length ${got.length} but PyTorch's is ${want.length}`;
    for (let i = 0; i < got.length; i++) { const d = difference(got[i], want[i], `${path}[${i}]`); if (d) return d; }
    return null;
  }
  if (got && want && typeof got === 'object' && typeof want === 'object') {
    const [gk, wk] = [Object.keys(got), Object.keys(want)];
    if (gk.join() !== wk.join()) return `${path}: keys ${gk.join(', ')} but PyTorch's are ${wk.join(', ')}`;
    for (const k of gk) { const d = difference((got as never)[k], (want as never)[k], `${path}.${k}`); if (d) return d; }
    return null;
  }
  return got === want ? null : `${path}: ${JSON.stringify(got)} but PyTorch has ${JSON.stringify(want)}`;
}

describe('lr scheduler stateDict vs torch.optim.lr_scheduler, and a resumed run (two param groups, 10 + 10 steps)', () => {
  const want = torchRuns();
  cases.forEach((c, i) => {
    it(c.name, () => {
      const whole = run(c, false);
      const resumed = run(c, true);
      expect(difference(whole.saved, want[i]!.saved)).toBeNull();
      expect(difference(whole.lrs, want[i]!.lrs)).toBeNull();
      expect(resumed.lrs).toEqual(whole.lrs);
      expect(resumed.weights).toEqual(whole.weights);
    });
  });
});

it('loadStateDict refuses unknown keys and wrong values, naming the key, and changes nothing then', () => {
  const opt = new optim.SGD([tpu.zeros([2], { requiresGrad: true })], { lr: 0.1 });
  const sched = new S.StepLR(opt, 3);
  const before = sched.stateDict();
  expect(() => sched.loadStateDict({ ...before, last_epoch: 4 })).toThrow(/StepLR\.loadStateDict: unknown option 'last_epoch' \(did you mean 'lastEpoch'\?\)/);
  expect(() => sched.loadStateDict({ ...before, lastEpoch: 4, gamma: -1 })).toThrow('StepLR.loadStateDict: gamma must be a number in [0, Infinity]; got -1');
  expect(() => sched.loadStateDict({ ...before, baseLrs: [0.1, 0.2] })).toThrow('StepLR.loadStateDict: baseLrs must be an array of 1 numbers (one per param group); got [0.1,0.2]');
  expect(sched.stateDict()).toEqual(before);
  const lambda = new S.LambdaLR(opt, () => 1);
  expect(() => lambda.loadStateDict({ lrLambdas: [() => 2] })).toThrow(/LambdaLR\.loadStateDict: lrLambdas must be 1 nulls/);
  const plateau = new S.ReduceLROnPlateau(opt);
  expect(() => plateau.loadStateDict({ mode: 'max', modeWorse: Infinity })).toThrow("ReduceLROnPlateau.loadStateDict: modeWorse must be -Infinity for mode 'max'; got Infinity");
});
