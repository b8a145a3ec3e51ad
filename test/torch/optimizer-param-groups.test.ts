// Param groups and learning-rate schedulers against torch.optim: a two-layer model trained
// several steps with two groups of different options and a scheduler, its weights compared
// with PyTorch's after every step; also stepped through tpu.compile (one trace, no new
// program after the first calls although the learning rates change every step).
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const { optim } = tpu;
const { lrScheduler } = optim;
type Opt = InstanceType<typeof optim.SGD> | InstanceType<typeof optim.Adam> | InstanceType<typeof optim.RMSprop> | InstanceType<typeof optim.Adagrad>;
type Sched = { step(): void };

const vals = (n: number, a: number, b: number) => Array.from({ length: n }, (_, i) => Math.round(Math.sin(a * i + b) * 100) / 100);
const grid = (rows: number, cols: number, a: number, b: number) => Array.from({ length: rows }, (_, r) => vals(cols, a, b + r));
const X = f32(grid(8, 4, 0.7, 0.1));
const Y = f32(grid(8, 2, 1.3, 0.5));
const W1 = f32(grid(3, 4, 0.9, 0.2));
const B1 = f32(vals(3, 1.1, 0.3));
const W2 = f32(grid(2, 3, 0.5, 0.4));
const B2 = f32(vals(2, 1.7, 0.6));
const STEPS = 6;

const PY_SETUP = [
  'w1, b1, w2, b2 = [t.clone().requires_grad_() for t in (x2, x3, x4, x5)]',
  'def body():',
  '    opt.zero_grad()',
  '    out = (x0 @ w1.T + b1).relu() @ w2.T + b2',
  '    ((out - x1) ** 2).mean().backward()',
  '    opt.step()',
  'snap = lambda: torch.cat([w1.flatten(), b1, w2.flatten(), b2]).detach().clone()',
].join('\n');

interface Model {
  readonly first: Tensor[];
  readonly second: Tensor[];
  body(opt: Opt): void;
  snap(): Tensor;
}

function model(x: Tensor, y: Tensor, w1: Tensor, b1: Tensor, w2: Tensor, b2: Tensor): Model {
  const [a, c, d, e] = [w1, b1, w2, b2].map((t) => t.detach().requiresGrad_());
  return {
    first: [a!, c!],
    second: [d!, e!],
    body(opt) {
      opt.zeroGrad();
      x.matmul(a!.T).add(c!).relu().matmul(d!.T).add(e!).sub(y).square().mean().backward();
      opt.step();
    },
    snap: () => tpu.cat([a!.flatten(), c!, d!.flatten(), e!]).detach(),
  };
}

type Make = (first: Tensor[], second: Tensor[]) => Opt;
interface Py {
  opt: string;
  sched: string;
  /** Python run before each step, k and opt in scope. */
  each?: string;
}

/** The model, its optimizer and scheduler, from a case's inputs. */
function start(ts: Tensor[], make: Make, sched: (opt: Opt) => Sched | null) {
  const m = model(...(ts as [Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]));
  const opt = make(m.first, m.second);
  return { m, opt, s: sched(opt) };
}

/** PyTorch's side: STEPS steps, the scheduler stepped after each, the weights after each. */
const pyTraining = (py: Py) => [
  PY_SETUP,
  `opt = ${py.opt}`,
  `sched = ${py.sched}`,
  'result = []',
  `for k in range(${STEPS}):`,
  ...(py.each ? py.each.split('\n').map((l) => `    ${l}`) : []),
  '    body()',
  '    if sched is not None: sched.step()',
  '    result.append(snap())',
].join('\n');

/**
 * STEPS steps of an optimizer over two param groups (`make` gets the first layer's and the
 * second layer's parameters) and a scheduler stepped after each; `each(k, opt)` runs before
 * step k (`py.each` in Python).
 */
function training(name: string, make: Make, sched: (opt: Opt) => Sched | null, py: Py, each?: (k: number, opt: Opt, m: Model) => void): TorchCase {
  return {
    name,
    inputs: [X, Y, W1, B1, W2, B2],
    js: (...ts) => {
      const { m, opt, s } = start(ts, make, sched);
      const snaps: Tensor[] = [];
      for (let k = 0; k < STEPS; k++) {
        each?.(k, opt, m);
        m.body(opt);
        s?.step();
        snaps.push(m.snap());
      }
      return snaps;
    },
    py: pyTraining(py),
  };
}

/**
 * The same under tpu.compile: the step (and the scheduler's step when `inside`) traced once;
 * an error when a later call traced again or compiled a program.
 */
function compiled(name: string, make: Make, sched: (opt: Opt) => Sched, py: Py, inside: boolean): TorchCase {
  return {
    name,
    inputs: [X, Y, W1, B1, W2, B2],
    js: (...ts) => {
      const { m, opt, s } = start(ts, make, sched);
      const step = tpu.compile(() => {
        m.body(opt);
        if (inside) s!.step();
        return m.snap();
      });
      const snaps: Tensor[] = [];
      let programs = 0;
      for (let k = 0; k < STEPS; k++) {
        if (k === 2) programs = tpu.stats().programsCompiled;
        snaps.push(step());
        if (!inside) s!.step();
      }
      tpu.syncBlocking();
      if (step.stats().traces !== 1) throw new Error(`traced ${step.stats().traces} times`);
      if (tpu.stats().programsCompiled !== programs) throw new Error(`${tpu.stats().programsCompiled - programs} programs compiled after the second call`);
      return snaps;
    },
    py: pyTraining(py),
  };
}

const sgdGroups = (a: Tensor[], b: Tensor[]) => new optim.SGD([{ params: a, lr: 0.05, weightDecay: 0.1 }, { params: b }], { lr: 0.02, momentum: 0.9 });
const SGD_GROUPS = "torch.optim.SGD([{'params': [w1, b1], 'lr': 0.05, 'weight_decay': 0.1}, {'params': [w2, b2]}], lr=0.02, momentum=0.9)";
const adamGroups = (a: Tensor[], b: Tensor[]) => new optim.Adam([{ params: a, lr: 0.03, betas: [0.8, 0.99] }, { params: b, weightDecay: 0.05 }], { lr: 0.01 });
const ADAM_GROUPS = "torch.optim.Adam([{'params': [w1, b1], 'lr': 0.03, 'betas': (0.8, 0.99)}, {'params': [w2, b2], 'weight_decay': 0.05}], lr=0.01)";
// one group AMSGrad and maximize (a choice per group), beta2 0.6 so the AMSGrad maximum matters
const amsgradGroups = (a: Tensor[], b: Tensor[]) => new optim.Adam([{ params: a, amsgrad: true }, { params: b, lr: 0.02, maximize: true }], { lr: 0.03, betas: [0.9, 0.6] });
const AMSGRAD_GROUPS = "torch.optim.Adam([{'params': [w1, b1], 'amsgrad': True}, {'params': [w2, b2], 'lr': 0.02, 'maximize': True}], lr=0.03, betas=(0.9, 0.6))";
const rmspropGroups = (a: Tensor[], b: Tensor[]) => new optim.RMSprop([{ params: a, alpha: 0.9, centered: true, weightDecay: 0.1 }, { params: b, lr: 0.005 }], { lr: 0.01, momentum: 0.8 });
const RMSPROP_GROUPS = "torch.optim.RMSprop([{'params': [w1, b1], 'alpha': 0.9, 'centered': True, 'weight_decay': 0.1}, {'params': [w2, b2], 'lr': 0.005}], lr=0.01, momentum=0.8)";
// the second group's initialAccumulatorValue is kept but unused, as in PyTorch: every sum starts at the constructor's
const adagradGroups = (a: Tensor[], b: Tensor[]) => new optim.Adagrad([{ params: a, lrDecay: 0.3, weightDecay: 0.05 }, { params: b, lr: 0.2, initialAccumulatorValue: 5 }], { lr: 0.1, initialAccumulatorValue: 0.5 });
const ADAGRAD_GROUPS = "torch.optim.Adagrad([{'params': [w1, b1], 'lr_decay': 0.3, 'weight_decay': 0.05}, {'params': [w2, b2], 'lr': 0.2, 'initial_accumulator_value': 5}], lr=0.1, initial_accumulator_value=0.5)";

const cases: TorchCase[] = [
  training('SGD momentum, two groups (lr, weightDecay), StepLR', sgdGroups, (o) => new lrScheduler.StepLR(o, 2, { gamma: 0.5 }),
    { opt: SGD_GROUPS, sched: 'torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)' }),
  training('Adam, two groups (lr, betas, weightDecay), CosineAnnealingLR', adamGroups, (o) => new lrScheduler.CosineAnnealingLR(o, 4, { etaMin: 1e-3 }),
    { opt: ADAM_GROUPS, sched: 'torch.optim.lr_scheduler.CosineAnnealingLR(opt, 4, eta_min=1e-3)' }),
  training('AdamW, two groups, OneCycleLR (cycles beta1)', (a, b) => new optim.AdamW([{ params: a, weightDecay: 0.2 }, { params: b }], { lr: 0.01 }),
    (o) => new lrScheduler.OneCycleLR(o, [0.1, 0.05], { totalSteps: STEPS }),
    { opt: "torch.optim.AdamW([{'params': [w1, b1], 'weight_decay': 0.2}, {'params': [w2, b2]}], lr=0.01)", sched: 'torch.optim.lr_scheduler.OneCycleLR(opt, [0.1, 0.05], total_steps=6)' }),
  training('SGD, OneCycleLR linear, three phases (cycles momentum)', sgdGroups, (o) => new lrScheduler.OneCycleLR(o, { maxLr: 0.1, totalSteps: STEPS, annealStrategy: 'linear', threePhase: true }),
    { opt: SGD_GROUPS, sched: "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=6, anneal_strategy='linear', three_phase=True)" }),
  training('SGD nesterov, LinearLR, paramGroups[1].lr set by hand at step 3', (a, b) => new optim.SGD([{ params: a }, { params: b, lr: 0.1 }], { lr: 0.05, momentum: 0.8, nesterov: true }),
    (o) => new lrScheduler.LinearLR(o, { startFactor: 0.25, totalIters: 4 }),
    { opt: "torch.optim.SGD([{'params': [w1, b1]}, {'params': [w2, b2], 'lr': 0.1}], lr=0.05, momentum=0.8, nesterov=True)", sched: 'torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)', each: "if k == 3: opt.param_groups[1]['lr'] = 0.3" },
    (k, o) => { if (k === 3) o.paramGroups[1]!.lr = 0.3; }),
  training('SGD, MultiStepLR, momentum and weightDecay set on a group by hand', sgdGroups, (o) => new lrScheduler.MultiStepLR(o, [1, 3, 3]),
    { opt: SGD_GROUPS, sched: 'torch.optim.lr_scheduler.MultiStepLR(opt, [1, 3, 3])', each: "if k == 2: opt.param_groups[0]['momentum'] = 0.5; opt.param_groups[1]['weight_decay'] = 0.3" },
    (k, o) => { if (k === 2) Object.assign(o.paramGroups[0]!, { momentum: 0.5 }) && Object.assign(o.paramGroups[1]!, { weightDecay: 0.3 }); }),
  training('SGD, LambdaLR with one function per group', sgdGroups, (o) => new lrScheduler.LambdaLR(o, [(e) => 1 / (e + 1), (e) => 0.9 ** e]),
    { opt: SGD_GROUPS, sched: 'torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1 / (e + 1), lambda e: 0.9 ** e])' }),
  training('Adam, addParamGroup after two steps (the new group\'s bias correction starts at its first step), ExponentialLR', (a) => new optim.Adam(a, { lr: 0.02 }),
    (o) => new lrScheduler.ExponentialLR(o, 0.8),
    { opt: 'torch.optim.Adam([w1, b1], lr=0.02)', sched: 'torch.optim.lr_scheduler.ExponentialLR(opt, 0.8)', each: "if k == 2: opt.add_param_group({'params': [w2, b2], 'lr': 0.05})" },
    (k, o, m) => { if (k === 2) o.addParamGroup({ params: m.second, lr: 0.05 }); }),
  training('one group: opt.lr and paramGroups[0].lr are the same value', (a, b) => new optim.SGD([...a, ...b], { lr: 0.05 }), () => null,
    { opt: 'torch.optim.SGD([w1, b1, w2, b2], lr=0.05)', sched: 'None', each: "opt.param_groups[0]['lr'] = 0.05 * (k + 1)" },
    (k, o) => { if (k % 2) o.lr = 0.05 * (k + 1); else o.paramGroups[0]!.lr = 0.05 * (k + 1); }),
  training('Adam, one group amsgrad, the other maximize, StepLR', amsgradGroups, (o) => new lrScheduler.StepLR(o, 2, { gamma: 0.5 }),
    { opt: AMSGRAD_GROUPS, sched: 'torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)' }),
  training('RMSprop momentum, two groups (lr, alpha, centered, weightDecay), StepLR', rmspropGroups, (o) => new lrScheduler.StepLR(o, 2, { gamma: 0.5 }),
    { opt: RMSPROP_GROUPS, sched: 'torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)' }),
  training('RMSprop, OneCycleLR (cycles momentum)', rmspropGroups, (o) => new lrScheduler.OneCycleLR(o, [0.02, 0.01], { totalSteps: STEPS }),
    { opt: RMSPROP_GROUPS, sched: 'torch.optim.lr_scheduler.OneCycleLR(opt, [0.02, 0.01], total_steps=6)' }),
  training('Adagrad, two groups (lr, lrDecay, weightDecay, initialAccumulatorValue), ExponentialLR, paramGroups[1].lrDecay set at step 3', adagradGroups,
    (o) => new lrScheduler.ExponentialLR(o, 0.8),
    { opt: ADAGRAD_GROUPS, sched: 'torch.optim.lr_scheduler.ExponentialLR(opt, 0.8)', each: "if k == 3: opt.param_groups[1]['lr_decay'] = 0.5" },
    (k, o) => { if (k === 3) Object.assign(o.paramGroups[1]!, { lrDecay: 0.5 }); }),
  training('Adagrad, addParamGroup after two steps (its sum starts at the constructor\'s initialAccumulatorValue)', (a) => new optim.Adagrad(a, { lr: 0.1, initialAccumulatorValue: 0.5, lrDecay: 0.1 }),
    () => null,
    { opt: 'torch.optim.Adagrad([w1, b1], lr=0.1, initial_accumulator_value=0.5, lr_decay=0.1)', sched: 'None', each: "if k == 2: opt.add_param_group({'params': [w2, b2], 'lr': 0.05})" },
    (k, o, m) => { if (k === 2) o.addParamGroup({ params: m.second, lr: 0.05 }); }),
  compiled('tpu.compile: SGD momentum, two groups, ExponentialLR stepped outside', sgdGroups, (o) => new lrScheduler.ExponentialLR(o, 0.7),
    { opt: SGD_GROUPS, sched: 'torch.optim.lr_scheduler.ExponentialLR(opt, 0.7)' }, false),
  compiled('tpu.compile: Adam, two groups, CosineAnnealingLR stepped inside', adamGroups, (o) => new lrScheduler.CosineAnnealingLR(o, 3),
    { opt: ADAM_GROUPS, sched: 'torch.optim.lr_scheduler.CosineAnnealingLR(opt, 3)' }, true),
  compiled('tpu.compile: SGD, OneCycleLR stepped inside (momentum cycled)', sgdGroups, (o) => new lrScheduler.OneCycleLR(o, [0.1, 0.2], { totalSteps: STEPS }),
    { opt: SGD_GROUPS, sched: 'torch.optim.lr_scheduler.OneCycleLR(opt, [0.1, 0.2], total_steps=6)' }, true),
  compiled('tpu.compile: Adam amsgrad and maximize groups, ExponentialLR stepped inside', amsgradGroups, (o) => new lrScheduler.ExponentialLR(o, 0.7),
    { opt: AMSGRAD_GROUPS, sched: 'torch.optim.lr_scheduler.ExponentialLR(opt, 0.7)' }, true),
  compiled('tpu.compile: RMSprop, two groups, OneCycleLR stepped inside (lr and momentum cycled)', rmspropGroups, (o) => new lrScheduler.OneCycleLR(o, [0.02, 0.01], { totalSteps: STEPS }),
    { opt: RMSPROP_GROUPS, sched: 'torch.optim.lr_scheduler.OneCycleLR(opt, [0.02, 0.01], total_steps=6)' }, true),
  compiled('tpu.compile: Adagrad, two groups, ExponentialLR stepped outside', adagradGroups, (o) => new lrScheduler.ExponentialLR(o, 0.7),
    { opt: ADAGRAD_GROUPS, sched: 'torch.optim.lr_scheduler.ExponentialLR(opt, 0.7)' }, false),
];

torchTier('param groups and lr schedulers vs torch.optim', cases);
