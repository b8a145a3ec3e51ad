// Each learning-rate scheduler's sequence of learning rates (and OneCycleLR's and CyclicLR's momenta) over 30
// steps, on an optimizer of three param groups with different base lrs, against
// torch.optim.lr_scheduler in float64 (getLastLr() after the constructor and after each step).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const { optim } = tpu;
const S = optim.lrScheduler;
type Opt = InstanceType<typeof optim.SGD> | InstanceType<typeof optim.Adam>;
const STEPS = 30;
const LRS = [0.1, 0.05, 0.3];
/** Metrics for ReduceLROnPlateau: improving, then flat with noise, then improving again. */
const METRICS = Array.from({ length: STEPS }, (_, k) => (k < 8 ? 10 - k : k < 22 ? 2.5 + 0.01 * (k % 3) : 2 - 0.1 * (k - 22)));

interface Case {
  name: string;
  /** The optimizer class: 'SGD' (momentum) or 'Adam' (betas). */
  opt?: 'SGD' | 'Adam';
  js: (opt: Opt) => ({ step(): void } | InstanceType<typeof S.ReduceLROnPlateau>)[];
  /** Python: the schedulers, a list over `opt`. */
  py: string;
  plateau?: boolean;
}

const cases: Case[] = [
  { name: 'StepLR', js: (o) => [new S.StepLR(o, 7)], py: '[L.StepLR(opt, 7)]' },
  { name: 'StepLR gamma', js: (o) => [new S.StepLR(o, { stepSize: 3, gamma: 0.7 })], py: '[L.StepLR(opt, step_size=3, gamma=0.7)]' },
  { name: 'MultiStepLR (a repeated milestone)', js: (o) => [new S.MultiStepLR(o, [2, 9, 9, 20], { gamma: 0.5 })], py: '[L.MultiStepLR(opt, [2, 9, 9, 20], gamma=0.5)]' },
  { name: 'ExponentialLR', js: (o) => [new S.ExponentialLR(o, 0.9)], py: '[L.ExponentialLR(opt, 0.9)]' },
  { name: 'CosineAnnealingLR (past tMax: back up)', js: (o) => [new S.CosineAnnealingLR(o, 10)], py: '[L.CosineAnnealingLR(opt, 10)]' },
  { name: 'CosineAnnealingLR, tMax not an integer', js: (o) => [new S.CosineAnnealingLR(o, 7.5)], py: '[L.CosineAnnealingLR(opt, 7.5)]' },
  { name: 'CosineAnnealingLR etaMin', js: (o) => [new S.CosineAnnealingLR(o, { tMax: 7, etaMin: 0.01 })], py: '[L.CosineAnnealingLR(opt, T_max=7, eta_min=0.01)]' },
  { name: 'LambdaLR', js: (o) => [new S.LambdaLR(o, (e) => 1 / (1 + 0.3 * e))], py: '[L.LambdaLR(opt, lambda e: 1 / (1 + 0.3 * e))]' },
  { name: 'LambdaLR per group', js: (o) => [new S.LambdaLR(o, [(e) => 0.95 ** e, (e) => (e < 5 ? (e + 1) / 5 : 1), (e) => 1 - e / 40])], py: '[L.LambdaLR(opt, [lambda e: 0.95 ** e, lambda e: (e + 1) / 5 if e < 5 else 1, lambda e: 1 - e / 40])]' },
  { name: 'LinearLR defaults', js: (o) => [new S.LinearLR(o)], py: '[L.LinearLR(opt)]' },
  { name: 'LinearLR decay', js: (o) => [new S.LinearLR(o, { startFactor: 1, endFactor: 0.1, totalIters: 20 })], py: '[L.LinearLR(opt, start_factor=1.0, end_factor=0.1, total_iters=20)]' },
  { name: 'OneCycleLR defaults (SGD momentum)', js: (o) => [new S.OneCycleLR(o, [1, 0.5, 2], { totalSteps: STEPS })], py: '[L.OneCycleLR(opt, [1, 0.5, 2], total_steps=30)]' },
  { name: 'OneCycleLR epochs, linear, three phases, divFactors (Adam beta1)', opt: 'Adam', js: (o) => [new S.OneCycleLR(o, { maxLr: 0.4, epochs: 5, stepsPerEpoch: 6, annealStrategy: 'linear', threePhase: true, pctStart: 0.25, divFactor: 10, finalDivFactor: 100, baseMomentum: 0.8, maxMomentum: 0.9 })], py: "[L.OneCycleLR(opt, 0.4, epochs=5, steps_per_epoch=6, anneal_strategy='linear', three_phase=True, pct_start=0.25, div_factor=10, final_div_factor=100, base_momentum=0.8, max_momentum=0.9)]" },
  { name: 'OneCycleLR without cycleMomentum', js: (o) => [new S.OneCycleLR(o, 0.6, { totalSteps: STEPS, cycleMomentum: false })], py: '[L.OneCycleLR(opt, 0.6, total_steps=30, cycle_momentum=False)]' },
  { name: 'LinearLR warmup chained with ExponentialLR (both stepped)', js: (o) => [new S.LinearLR(o, { startFactor: 0.1, totalIters: 4 }), new S.ExponentialLR(o, 0.95)], py: '[L.LinearLR(opt, start_factor=0.1, total_iters=4), L.ExponentialLR(opt, 0.95)]' },
  { name: 'ConstantLR defaults', js: (o) => [new S.ConstantLR(o)], py: '[L.ConstantLR(opt)]' },
  { name: 'ConstantLR factor, totalIters', js: (o) => [new S.ConstantLR(o, { factor: 0.25, totalIters: 7 })], py: '[L.ConstantLR(opt, factor=0.25, total_iters=7)]' },
  { name: 'PolynomialLR defaults', js: (o) => [new S.PolynomialLR(o)], py: '[L.PolynomialLR(opt)]' },
  { name: 'PolynomialLR power 2 over 20 steps', js: (o) => [new S.PolynomialLR(o, { totalIters: 20, power: 2 })], py: '[L.PolynomialLR(opt, total_iters=20, power=2.0)]' },
  { name: 'MultiplicativeLR per group', js: (o) => [new S.MultiplicativeLR(o, [() => 0.95, (e) => (e < 5 ? 1 : 0.9), (e) => 1 - e / 100])], py: '[L.MultiplicativeLR(opt, [lambda e: 0.95, lambda e: 1 if e < 5 else 0.9, lambda e: 1 - e / 100])]' },
  { name: 'CosineAnnealingWarmRestarts', js: (o) => [new S.CosineAnnealingWarmRestarts(o, 7)], py: '[L.CosineAnnealingWarmRestarts(opt, 7)]' },
  { name: 'CosineAnnealingWarmRestarts tMult, etaMin', js: (o) => [new S.CosineAnnealingWarmRestarts(o, { t0: 3, tMult: 2, etaMin: 0.01 })], py: '[L.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)]' },
  { name: 'ConstantLR warmup chained with PolynomialLR', js: (o) => [new S.ConstantLR(o, { factor: 0.5, totalIters: 3 }), new S.PolynomialLR(o, { totalIters: 25 })], py: '[L.ConstantLR(opt, factor=0.5, total_iters=3), L.PolynomialLR(opt, total_iters=25)]' },
  { name: 'SequentialLR: LinearLR warmup, then StepLR restarted by its closed form', js: (o) => [new S.SequentialLR(o, [new S.LinearLR(o, { startFactor: 0.1, totalIters: 5 }), new S.StepLR(o, 4, { gamma: 0.5 })], [5])], py: '[L.SequentialLR(opt, [L.LinearLR(opt, start_factor=0.1, total_iters=5), L.StepLR(opt, 4, gamma=0.5)], [5])]' },
  { name: 'SequentialLR of three (options form): ConstantLR, ExponentialLR, CosineAnnealingLR', js: (o) => [new S.SequentialLR(o, { schedulers: [new S.ConstantLR(o, { factor: 0.5, totalIters: 6 }), new S.ExponentialLR(o, 0.8), new S.CosineAnnealingLR(o, 9, { etaMin: 0.001 })], milestones: [4, 12] })], py: '[L.SequentialLR(opt, [L.ConstantLR(opt, factor=0.5, total_iters=6), L.ExponentialLR(opt, 0.8), L.CosineAnnealingLR(opt, 9, eta_min=0.001)], milestones=[4, 12])]' },
  { name: 'SequentialLR of schedules without a closed form: MultiplicativeLR, LambdaLR, PolynomialLR, MultiStepLR', js: (o) => [new S.SequentialLR(o, [new S.MultiplicativeLR(o, () => 0.9), new S.LambdaLR(o, (e) => 1 / (1 + e)), new S.PolynomialLR(o, { totalIters: 6, power: 2 }), new S.MultiStepLR(o, [0, 3, 3])], { milestones: [3, 9, 14] })], py: '[L.SequentialLR(opt, [L.MultiplicativeLR(opt, lambda e: 0.9), L.LambdaLR(opt, lambda e: 1 / (1 + e)), L.PolynomialLR(opt, total_iters=6, power=2), L.MultiStepLR(opt, [0, 3, 3])], milestones=[3, 9, 14])]' },
  { name: 'SequentialLR with a milestone at 0', js: (o) => [new S.SequentialLR(o, [new S.ExponentialLR(o, 0.5), new S.StepLR(o, 3)], [0])], py: '[L.SequentialLR(opt, [L.ExponentialLR(opt, 0.5), L.StepLR(opt, 3)], [0])]' },
  { name: 'ChainedScheduler: ConstantLR and ExponentialLR', js: (o) => [new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.1, totalIters: 5 }), new S.ExponentialLR(o, 0.9)])], py: '[L.ChainedScheduler([L.ConstantLR(opt, factor=0.1, total_iters=5), L.ExponentialLR(opt, 0.9)])]' },
  { name: 'ChainedScheduler with its optimizer: LinearLR, MultiStepLR, CosineAnnealingWarmRestarts', js: (o) => [new S.ChainedScheduler([new S.LinearLR(o, { startFactor: 0.2, totalIters: 4 }), new S.MultiStepLR(o, [10, 20]), new S.CosineAnnealingWarmRestarts(o, 6)], o)], py: '[L.ChainedScheduler([L.LinearLR(opt, start_factor=0.2, total_iters=4), L.MultiStepLR(opt, [10, 20]), L.CosineAnnealingWarmRestarts(opt, 6)], optimizer=opt)]' },
  { name: 'CyclicLR triangular (SGD momentum)', js: (o) => [new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 4 })], py: '[L.CyclicLR(opt, 0.01, 0.1, step_size_up=4)]' },
  { name: 'CyclicLR triangular2, stepSizeDown, per-group lrs and momenta', js: (o) => [new S.CyclicLR(o, [0.01, 0.02, 0.001], [0.1, 0.5, 0.01], { stepSizeUp: 3, stepSizeDown: 5, mode: 'triangular2', baseMomentum: [0.7, 0.8, 0.85], maxMomentum: 0.95 })], py: "[L.CyclicLR(opt, [0.01, 0.02, 0.001], [0.1, 0.5, 0.01], step_size_up=3, step_size_down=5, mode='triangular2', base_momentum=[0.7, 0.8, 0.85], max_momentum=0.95)]" },
  { name: 'CyclicLR exp_range (Adam beta1), options form', opt: 'Adam', js: (o) => [new S.CyclicLR(o, { baseLr: 0.001, maxLr: 0.01, stepSizeUp: 5, mode: 'exp_range', gamma: 0.97 })], py: "[L.CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=5, mode='exp_range', gamma=0.97)]" },
  { name: 'CyclicLR without cycleMomentum, maxLr in the options', js: (o) => [new S.CyclicLR(o, 0.05, { maxLr: 0.2, stepSizeUp: 2, stepSizeDown: 7, cycleMomentum: false })], py: '[L.CyclicLR(opt, 0.05, max_lr=0.2, step_size_up=2, step_size_down=7, cycle_momentum=False)]' },
  { name: 'CyclicLR scaleFn of the iterations', js: (o) => [new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 3, scaleFn: (x) => 1 / (1 + 0.1 * x), scaleMode: 'iterations' })], py: "[L.CyclicLR(opt, 0.01, 0.1, step_size_up=3, scale_fn=lambda x: 1 / (1 + 0.1 * x), scale_mode='iterations')]" },
  { name: 'CyclicLR scaleFn of the cycle', js: (o) => [new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 2, scaleFn: (c) => 0.5 ** c })], py: '[L.CyclicLR(opt, 0.01, 0.1, step_size_up=2, scale_fn=lambda c: 0.5 ** c)]' },
  { name: 'ReduceLROnPlateau', plateau: true, js: (o) => [new S.ReduceLROnPlateau(o, { patience: 2, factor: 0.5, minLr: [0, 0.02, 0] })], py: '[L.ReduceLROnPlateau(opt, patience=2, factor=0.5, min_lr=[0, 0.02, 0])]' },
  { name: 'ReduceLROnPlateau max, abs, cooldown', plateau: true, js: (o) => [new S.ReduceLROnPlateau(o, { mode: 'max', thresholdMode: 'abs', threshold: 0.05, cooldown: 2, patience: 1 })], py: "[L.ReduceLROnPlateau(opt, mode='max', threshold_mode='abs', threshold=0.05, cooldown=2, patience=1)]" },
];

/** [lrs per group, momentum (or beta1) per group] after the constructor and after each step. */
type Trace = [number[], number[]][];

function jsTrace(c: Case): Trace {
  const params = LRS.map(() => tpu.zeros([2], { requiresGrad: true }));
  const groups = params.map((p, i) => ({ params: [p], lr: LRS[i]! }));
  const opt: Opt = c.opt === 'Adam' ? new optim.Adam(groups) : new optim.SGD(groups, { momentum: 0.9 });
  const scheds = c.js(opt);
  const read = (): [number[], number[]] => [
    opt.paramGroups.map((g) => g.lr),
    opt.paramGroups.map((g) => ('betas' in g ? g.betas[0] : g.momentum)),
  ];
  const trace: Trace = [read()];
  for (let k = 0; k < STEPS; k++) {
    for (const s of scheds) {
      if (s instanceof S.ReduceLROnPlateau) s.step(METRICS[k]!);
      else s.step();
    }
    trace.push(read());
  }
  return trace;
}

const PY = `
import json, sys, torch
import torch.optim.lr_scheduler as L
cases = json.load(sys.stdin)
out = []
for c in cases:
    params = [torch.zeros(2, requires_grad=True) for _ in c['lrs']]
    groups = [{'params': [p], 'lr': lr} for p, lr in zip(params, c['lrs'])]
    opt = torch.optim.Adam(groups) if c['opt'] == 'Adam' else torch.optim.SGD(groups, momentum=0.9)
    scheds = eval(c['py'])
    read = lambda: [[g['lr'] for g in opt.param_groups], [g['betas'][0] if 'betas' in g else g['momentum'] for g in opt.param_groups]]
    trace = [read()]
    for k in range(c['steps']):
        for s in scheds:
            s.step(c['metrics'][k]) if c['plateau'] else s.step()
        trace.append(read())
    out.append(trace)
print(json.dumps(out))
`;

function torchTraces(): Trace[] {
  const payload = cases.map((c) => ({ py: c.py, opt: c.opt ?? 'SGD', lrs: LRS, steps: STEPS, plateau: Boolean(c.plateau), metrics: METRICS }));
  const run = spawnSync('python3', ['-W', 'ignore', '-c', PY], { input: JSON.stringify(payload), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Trace[];
}

describe('lr schedulers vs torch.optim.lr_scheduler (float64, three param groups, 30 steps)', () => {
  const want = torchTraces();
  cases.forEach((c, i) => {
    it(c.name, () => {
      const got = jsTrace(c);
      expect(got.length).toBe(want[i]!.length);
      got.forEach((step, k) => step.forEach((values, which) => values.forEach((v, g) => {
        const w = want[i]![k]![which]![g]!;
        // JS and Python's cos and pow may differ in the last bit
        if (!(Math.abs(v - w) <= 1e-12 * Math.abs(w) + 1e-15)) expect.fail(`${c.name}: step ${k}, ${which ? 'momentum' : 'lr'} of group ${g} is ${v} but PyTorch gives ${w}`);
      })));
    });
  });
});
