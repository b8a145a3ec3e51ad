// Optimizer stateDict()/loadStateDict() against torch.optim's state_dict()/load_state_dict():
// training continued by a new optimizer that loaded the first one's state (hyperparameters
// and per-parameter state of two param groups), and a state saved, trained past and loaded
// back (also inside a tpu.compile'd step: the loaded state reaches the next replay); the
// weights compared with PyTorch's after every step.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const { optim } = tpu;
type Opt = InstanceType<typeof optim.SGD> | InstanceType<typeof optim.Adam> | InstanceType<typeof optim.RMSprop> | InstanceType<typeof optim.Adagrad>;

const W = f32([[0.5, -1, 0.25], [1.5, 0.3, -0.7]]);
const B = f32([0.1, -0.2]);
const X = f32([[1, 2, -1], [0.5, -0.5, 2], [-1, 0.3, 0.8], [2, 1, 0]]);
const T = f32([[0.2, 1], [-1, 0.5], [0.3, 0.3], [1, -2]]);

const PY_SETUP = [
  'import copy',
  'w, b = x0.clone().requires_grad_(), x1.clone().requires_grad_()',
  'def body(opt):',
  '    opt.zero_grad()',
  '    ((x2 @ w.T + b - x3) ** 2).mean().backward()',
  '    opt.step()',
  'snap = lambda: torch.cat([w.flatten(), b]).detach().clone()',
  'result = []',
].join('\n');

function setup(w0: Tensor, b0: Tensor, x: Tensor, t: Tensor) {
  const [w, b] = [w0.detach().requiresGrad_(), b0.detach().requiresGrad_()];
  return {
    w: w!,
    b: b!,
    body(opt: Opt) {
      opt.zeroGrad();
      x.matmul(w.T).add(b).sub(t).square().mean().backward();
      opt.step();
    },
    snap: () => tpu.cat([w.flatten(), b]).detach(),
  };
}

/** Three steps with `make`'s optimizer, then three with `other`'s after it loaded the first's stateDict(). */
function continued(name: string, make: (w: Tensor, b: Tensor) => Opt, other: (w: Tensor, b: Tensor) => Opt, pyMake: string, pyOther: string): TorchCase {
  return {
    name,
    inputs: [W, B, X, T],
    js: (w0, b0, x, t) => {
      const m = setup(w0!, b0!, x!, t!);
      const first = make(m.w, m.b);
      const snaps: Tensor[] = [];
      for (let k = 0; k < 3; k++) { m.body(first); snaps.push(m.snap()); }
      const second = other(m.w, m.b);
      second.loadStateDict(first.stateDict());
      for (let k = 0; k < 3; k++) { m.body(second); snaps.push(m.snap()); }
      return snaps;
    },
    py: [PY_SETUP, `first = ${pyMake}`, 'for _ in range(3):', '    body(first); result.append(snap())', `second = ${pyOther}`, 'second.load_state_dict(first.state_dict())', 'for _ in range(3):', '    body(second); result.append(snap())'].join('\n'),
  };
}

/** `saveAt` steps (2), a saved copy of the state, steps up to 4, the copy loaded back, two steps; `compiled`: the step through tpu.compile. */
function rewound(name: string, make: (w: Tensor, b: Tensor) => Opt, pyMake: string, compiled: boolean, saveAt = 2): TorchCase {
  return {
    name,
    inputs: [W, B, X, T],
    js: (w0, b0, x, t) => {
      const m = setup(w0!, b0!, x!, t!);
      const opt = make(m.w, m.b);
      const body = () => { m.body(opt); return m.snap(); };
      const step = compiled ? tpu.compile(body) : body;
      const snaps: Tensor[] = [];
      let saved: ReturnType<Opt['stateDict']> | null = null;
      for (let k = 0; k < 6; k++) {
        if (k === saveAt) {
          const sd = opt.stateDict();
          saved = { ...sd, state: Object.fromEntries(Object.entries(sd.state).map(([i, s]) => [i, Object.fromEntries(Object.entries(s).map(([key, v]) => [key, typeof v === 'number' ? v : tpu.keep(v.clone())]))])) };
        }
        if (k === 4) opt.loadStateDict(saved!);
        snaps.push(step());
      }
      if (compiled && (step as ReturnType<typeof tpu.compile>).stats().traces !== 1) throw new Error('traced again');
      return snaps;
    },
    py: [PY_SETUP, `opt = ${pyMake}`, 'for k in range(6):', `    if k == ${saveAt}: saved = copy.deepcopy(opt.state_dict())`, '    if k == 4: opt.load_state_dict(saved)', '    body(opt); result.append(snap())'].join('\n'),
  };
}

const sgd = (lr: number) => (w: Tensor, b: Tensor) => new optim.SGD([{ params: [w], weightDecay: 0.1 }, { params: [b], lr: 0.02 }], { lr, momentum: 0.9 });
const adam = (lr: number) => (w: Tensor, b: Tensor) => new optim.Adam([{ params: [w], betas: [0.8, 0.99] }, { params: [b], lr: 0.02 }], { lr });
const amsgrad = (lr: number) => (w: Tensor, b: Tensor) => new optim.Adam([{ params: [w], amsgrad: true }, { params: [b], lr: 0.02, maximize: true }], { lr, betas: [0.9, 0.6] });
const rmsprop = (lr: number) => (w: Tensor, b: Tensor) => new optim.RMSprop([{ params: [w], centered: true }, { params: [b], lr: 0.02 }], { lr, momentum: 0.7 });
const adagrad = (lr: number) => (w: Tensor, b: Tensor) => new optim.Adagrad([{ params: [w], lrDecay: 0.2 }, { params: [b], lr: 0.02 }], { lr, initialAccumulatorValue: 0.3 });
const adadelta = (lr: number) => (w: Tensor, b: Tensor) => new optim.Adadelta([{ params: [w], rho: 0.8 }, { params: [b], lr: 0.2 }], { lr });
const adamax = (lr: number) => (w: Tensor, b: Tensor) => new optim.Adamax([{ params: [w], betas: [0.8, 0.9] }, { params: [b], lr: 0.02 }], { lr });
const nadam = (lr: number) => (w: Tensor, b: Tensor) => new optim.NAdam([{ params: [w], momentumDecay: 0.1 }, { params: [b], lr: 0.02, decoupledWeightDecay: true, weightDecay: 0.2 }], { lr });
const radam = (lr: number) => (w: Tensor, b: Tensor) => new optim.RAdam([{ params: [w], betas: [0.9, 0.9] }, { params: [b], lr: 0.02 }], { lr });
const ADADELTA_PY = (lr: number) => `torch.optim.Adadelta([{'params': [w], 'rho': 0.8}, {'params': [b], 'lr': 0.2}], lr=${lr})`;
const ADAMAX_PY = (lr: number) => `torch.optim.Adamax([{'params': [w], 'betas': (0.8, 0.9)}, {'params': [b], 'lr': 0.02}], lr=${lr})`;
const NADAM_PY = (lr: number) => `torch.optim.NAdam([{'params': [w], 'momentum_decay': 0.1}, {'params': [b], 'lr': 0.02, 'decoupled_weight_decay': True, 'weight_decay': 0.2}], lr=${lr})`;
const RADAM_PY = (lr: number) => `torch.optim.RAdam([{'params': [w], 'betas': (0.9, 0.9)}, {'params': [b], 'lr': 0.02}], lr=${lr})`;
const AMSGRAD_PY = (lr: number) => `torch.optim.Adam([{'params': [w], 'amsgrad': True}, {'params': [b], 'lr': 0.02, 'maximize': True}], lr=${lr}, betas=(0.9, 0.6))`;
const RMSPROP_PY = (lr: number) => `torch.optim.RMSprop([{'params': [w], 'centered': True}, {'params': [b], 'lr': 0.02}], lr=${lr}, momentum=0.7)`;
const ADAGRAD_PY = (lr: number) => `torch.optim.Adagrad([{'params': [w], 'lr_decay': 0.2}, {'params': [b], 'lr': 0.02}], lr=${lr}, initial_accumulator_value=0.3)`;
const SGD_PY = (lr: number) => `torch.optim.SGD([{'params': [w], 'weight_decay': 0.1}, {'params': [b], 'lr': 0.02}], lr=${lr}, momentum=0.9)`;
const ADAM_PY = (lr: number) => `torch.optim.Adam([{'params': [w], 'betas': (0.8, 0.99)}, {'params': [b], 'lr': 0.02}], lr=${lr})`;

const cases: TorchCase[] = [
  continued('SGD momentum: a new optimizer (other lrs) loads the state and hyperparameters', sgd(0.05), sgd(0.5), SGD_PY(0.05), SGD_PY(0.5)),
  continued('Adam: a new optimizer (other lrs) loads the moments, step counts and hyperparameters', adam(0.05), adam(0.5), ADAM_PY(0.05), ADAM_PY(0.5)),
  rewound('SGD momentum: a saved state loaded back', sgd(0.05), SGD_PY(0.05), false),
  rewound('Adam: a saved state loaded back', adam(0.05), ADAM_PY(0.05), false),
  rewound('Adam under tpu.compile: a saved state loaded back reaches the next replay', adam(0.05), ADAM_PY(0.05), true),
  continued('Adam amsgrad: a new optimizer loads the largest second moments', amsgrad(0.05), amsgrad(0.5), AMSGRAD_PY(0.05), AMSGRAD_PY(0.5)),
  continued('RMSprop centered, momentum: a new optimizer loads the averages and buffers', rmsprop(0.05), rmsprop(0.5), RMSPROP_PY(0.05), RMSPROP_PY(0.5)),
  continued('Adagrad: a new optimizer loads the sums and step counts (lrDecay)', adagrad(0.05), adagrad(0.5), ADAGRAD_PY(0.05), ADAGRAD_PY(0.5)),
  rewound('Adam amsgrad under tpu.compile: a saved state loaded back', amsgrad(0.05), AMSGRAD_PY(0.05), true),
  rewound('RMSprop under tpu.compile: a saved state loaded back', rmsprop(0.05), RMSPROP_PY(0.05), true),
  rewound('Adagrad under tpu.compile: a saved state loaded back', adagrad(0.05), ADAGRAD_PY(0.05), true),
  rewound('Adagrad: a saved state loaded back', adagrad(0.05), ADAGRAD_PY(0.05), false),
  continued('Adadelta: a new optimizer loads the averages', adadelta(1), adadelta(0.5), ADADELTA_PY(1), ADADELTA_PY(0.5)),
  continued('Adamax: a new optimizer loads the moments and step counts', adamax(0.05), adamax(0.5), ADAMAX_PY(0.05), ADAMAX_PY(0.5)),
  continued('NAdam: a new optimizer loads the moments and step counts (its momentum schedule follows)', nadam(0.05), nadam(0.5), NADAM_PY(0.05), NADAM_PY(0.5)),
  continued('RAdam: a new optimizer loads the moments and step counts', radam(0.05), radam(0.5), RADAM_PY(0.05), RADAM_PY(0.5)),
  rewound('NAdam under tpu.compile: a saved state loaded back', nadam(0.05), NADAM_PY(0.05), true),
  rewound('RAdam under tpu.compile: a saved state loaded back', radam(0.05), RADAM_PY(0.05), true),
  rewound('Adadelta: a saved state loaded back', adadelta(1), ADADELTA_PY(1), false),
  rewound('Adamax under tpu.compile: a saved state loaded back', adamax(0.05), ADAMAX_PY(0.05), true),
  rewound("Adagrad: the constructor's state (step 0, sums at initialAccumulatorValue) saved and loaded back", adagrad(0.05), ADAGRAD_PY(0.05), false, 0),
  {
    // PyTorch's Adagrad makes each parameter's state in its constructor; a group added later gets
    // its state at its first step with a gradient. Each state entry as [index, step, ...sum].
    name: "Adagrad's stateDict before the first step, and with a group added after it",
    inputs: [W, B, X, T, f32([0.5, -2])],
    js: (w0, b0, x, t, e0) => {
      const m = setup(w0!, b0!, x!, t!);
      const opt = adagrad(0.05)(m.w, m.b);
      const rows = () => Object.entries(opt.stateDict().state).map(([i, st]) => tpu.cat([tpu.tensor([Number(i), st.step as number]), (st.sum as Tensor).flatten()]));
      const before = rows();
      const e = e0!.detach().requiresGrad_();
      opt.addParamGroup({ params: [e], lr: 0.1 });
      const added = rows();
      m.body(opt);
      e.square().sum().backward();
      opt.step();
      return [...before, ...added, ...rows(), e.detach()];
    },
    py: [
      PY_SETUP,
      `opt = ${ADAGRAD_PY(0.05)}`,
      'rows = lambda: [torch.cat([torch.tensor([float(i), float(s["step"])]), s["sum"].flatten()]) for i, s in opt.state_dict()["state"].items()]',
      'result = rows()',
      'e = x4.clone().requires_grad_()',
      "opt.add_param_group({'params': [e], 'lr': 0.1})",
      'result += rows()',
      'body(opt)',
      '(e ** 2).sum().backward()',
      'opt.step()',
      'result += rows() + [e.detach()]',
    ].join('\n'),
  },
];

torchTier('optimizer stateDict / loadStateDict vs torch.optim', cases);

describe('optimizer stateDict', () => {
  it('has PyTorch\'s layout: state by parameter index with step and tensors, groups with indices', () => {
    const [w, b] = [tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true }), tpu.tensor([3], { dtype: 'float32', requiresGrad: true })];
    const opt = new optim.Adam([{ params: [w] }, { params: [b], lr: 0.5 }]);
    w.sum().backward();
    opt.step();
    const sd = opt.stateDict();
    expect(Object.keys(sd.state)).toEqual(['0']);
    expect(sd.state[0]!.step).toBe(1);
    expect(Object.keys(sd.state[0]!)).toEqual(['step', 'expAvg', 'expAvgSq']);
    const adamDefaults = { betas: [0.9, 0.999], eps: 1e-8, weightDecay: 0, amsgrad: false, maximize: false };
    expect(sd.paramGroups).toEqual([{ lr: 1e-3, ...adamDefaults, params: [0] }, { lr: 0.5, ...adamDefaults, params: [1] }]);
  });

  it("of Adam amsgrad, RMSprop and Adagrad has PyTorch's keys (camelCase, in PyTorch's order)", () => {
    const w = tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
    // PyTorch 2.13's state_dict() keys; its implementation switches (foreach, fused, ...) are not options here
    const pytorch: [() => Opt, string[], string[]][] = [
      [() => new optim.Adam([w], { amsgrad: true }), ['step', 'exp_avg', 'exp_avg_sq', 'max_exp_avg_sq'], ['lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize']],
      [() => new optim.RMSprop([w], { momentum: 0.9, centered: true }), ['step', 'square_avg', 'momentum_buffer', 'grad_avg'], ['lr', 'momentum', 'alpha', 'eps', 'centered', 'weight_decay', 'maximize']],
      [() => new optim.Adagrad([w]), ['step', 'sum'], ['lr', 'lr_decay', 'eps', 'weight_decay', 'initial_accumulator_value', 'maximize']],
    ];
    const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const [make, stateKeys, groupKeys] of pytorch) {
      const opt = make();
      w.sum().backward();
      opt.step();
      const sd = opt.stateDict();
      expect(Object.keys(sd.state[0]!)).toEqual(stateKeys.map(camel));
      expect(Object.keys(sd.paramGroups[0]!)).toEqual([...groupKeys.map(camel), 'params']);
      opt.zeroGrad();
    }
  });

  it('loading names what does not match', () => {
    const [w, b] = [tpu.tensor([1, 2], { dtype: 'float32', requiresGrad: true }), tpu.tensor([3], { dtype: 'float32', requiresGrad: true })];
    const opt = new optim.SGD([{ params: [w] }, { params: [b] }], { momentum: 0.9 });
    const sd = opt.stateDict();
    expect(() => new optim.SGD([w, b]).loadStateDict(sd)).toThrow(/SGD\.loadStateDict: paramGroups must be an array of 1 groups, as this optimizer's; got 2/);
    expect(() => new optim.SGD([{ params: [w, b] }, { params: [tpu.zeros([1], { requiresGrad: true })] }]).loadStateDict(sd)).toThrow(/SGD\.loadStateDict: paramGroups\[0\] has 1 params; this optimizer's has 2/);
    expect(() => opt.loadStateDict({ ...sd, state: { 1: { step: 1, momentumBuffer: tpu.zeros([2]) } } })).toThrow(/state\[1\]\.momentumBuffer must be a tensor of shape \[1\] \(its parameter's\); got shape \[2\]/);
    expect(() => opt.loadStateDict({ ...sd, state: { 0: { step: 1, exp_avg: tpu.zeros([2]) } } })).toThrow(/SGD\.loadStateDict state\[0\]: unknown option 'exp_avg'/);
    expect(() => opt.loadStateDict({ ...sd, paramGroups: [{ ...sd.paramGroups[0], lr: -1 }, sd.paramGroups[1]!] })).toThrow(/SGD: paramGroups\[0\]\.lr must be a number in \[0, Infinity\]; got -1/);
  });
});
