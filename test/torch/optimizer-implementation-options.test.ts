// The options PyTorch users pass to pick an optimizer's implementation (foreach, fused,
// capturable) and differentiable, and lr as a tensor, on every optimizer that takes them:
// the weights after three steps equal torch.optim's with foreach=True / fused=True / a tensor
// lr (a scheduler changing it too); what PyTorch refuses is refused; differentiable: true is
// a clear error here.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { STEP_INPUTS, steps } from './optimizer-steps.js';
import { torchTier, type TorchCase } from './torch-tier.js';

const { optim } = tpu;
const lr = (v: number) => tpu.tensor(v);

const cases: TorchCase[] = [
  steps('SGD foreach', (p) => new optim.SGD([p], { lr: 0.01, momentum: 0.9, weightDecay: 0.05, foreach: true }), 'torch.optim.SGD([p], lr=0.01, momentum=0.9, weight_decay=0.05, foreach=True)'),
  steps('SGD fused with a tensor lr', (p) => new optim.SGD([p], { lr: lr(0.01), momentum: 0.9, nesterov: true, fused: true }), 'torch.optim.SGD([p], lr=torch.tensor(0.01), momentum=0.9, nesterov=True, fused=True)'),
  steps('Adam foreach', (p) => new optim.Adam([p], { lr: 0.05, amsgrad: true, betas: [0.9, 0.5], foreach: true }), 'torch.optim.Adam([p], lr=0.05, amsgrad=True, betas=(0.9, 0.5), foreach=True)'),
  steps('Adam fused, foreach null', (p) => new optim.Adam([p], { lr: 0.05, weightDecay: 0.1, fused: true, foreach: null }), 'torch.optim.Adam([p], lr=0.05, weight_decay=0.1, fused=True, foreach=None)'),
  steps('Adam with a tensor lr, foreach false', (p) => new optim.Adam([p], { lr: lr(0.05), foreach: false, capturable: false, differentiable: false }), 'torch.optim.Adam([p], lr=torch.tensor(0.05), foreach=False, capturable=False, differentiable=False)'),
  steps('AdamW fused with a tensor lr', (p) => new optim.AdamW([p], { lr: lr(0.05), weightDecay: 0.3, fused: true }), 'torch.optim.AdamW([p], lr=torch.tensor(0.05), weight_decay=0.3, fused=True)'),
  steps('AdamW foreach', (p) => new optim.AdamW([p], { lr: 0.05, weightDecay: 0.3, foreach: true }), 'torch.optim.AdamW([p], lr=0.05, weight_decay=0.3, foreach=True)'),
  steps('Adamax foreach, tensor lr', (p) => new optim.Adamax([p], { lr: lr(0.1), weightDecay: 0.1, foreach: true }), 'torch.optim.Adamax([p], lr=torch.tensor(0.1), weight_decay=0.1, foreach=True)'),
  steps('Adadelta foreach, tensor lr', (p) => new optim.Adadelta([p], { lr: lr(0.5), rho: 0.8, foreach: true }), 'torch.optim.Adadelta([p], lr=torch.tensor(0.5), rho=0.8, foreach=True)'),
  steps('Adagrad foreach', (p) => new optim.Adagrad([p], { lr: 0.1, lrDecay: 0.5, foreach: true }), 'torch.optim.Adagrad([p], lr=0.1, lr_decay=0.5, foreach=True)'),
  steps('Adagrad fused, tensor lr', (p) => new optim.Adagrad([p], { lr: lr(0.1), weightDecay: 0.1, fused: true }), 'torch.optim.Adagrad([p], lr=torch.tensor(0.1), weight_decay=0.1, fused=True)'),
  steps('NAdam foreach, tensor lr', (p) => new optim.NAdam([p], { lr: lr(0.05), momentumDecay: 0.01, foreach: true }), 'torch.optim.NAdam([p], lr=torch.tensor(0.05), momentum_decay=0.01, foreach=True)'),
  steps('RAdam foreach, tensor lr', (p) => new optim.RAdam([p], { lr: lr(0.05), weightDecay: 0.1, foreach: true }), 'torch.optim.RAdam([p], lr=torch.tensor(0.05), weight_decay=0.1, foreach=True)', 7),
  steps('RMSprop foreach, tensor lr', (p) => new optim.RMSprop([p], { lr: lr(0.02), momentum: 0.5, centered: true, foreach: true }), 'torch.optim.RMSprop([p], lr=torch.tensor(0.02), momentum=0.5, centered=True, foreach=True)'),
  steps('a param group with a tensor lr', (p) => new optim.SGD([{ params: [p], lr: lr(0.02) }], { lr: 0.5, momentum: 0.9 }), "torch.optim.SGD([{'params': [p], 'lr': torch.tensor(0.02)}], lr=0.5, momentum=0.9)"),
  {
    name: 'a tensor lr that a StepLR halves every step',
    inputs: STEP_INPUTS,
    js: (p0, t) => {
      const p = p0!.detach().requiresGrad_();
      const opt = new optim.Adam([p], { lr: lr(0.1), fused: true });
      const sched = new optim.lrScheduler.StepLR(opt, { stepSize: 1, gamma: 0.5 });
      const snaps: Tensor[] = [];
      for (let i = 0; i < 3; i++) {
        opt.zeroGrad();
        p.sub(t!).square().sum().backward();
        opt.step();
        sched.step();
        snaps.push(p.detach().clone());
      }
      return snaps;
    },
    py: [
      'p = x0.clone().requires_grad_()',
      'opt = torch.optim.Adam([p], lr=torch.tensor(0.1), fused=True)',
      'sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)',
      'result = []',
      'for _ in range(3):',
      '    opt.zero_grad()',
      '    ((p - x1) ** 2).sum().backward()',
      '    opt.step()',
      '    sched.step()',
      '    result.append(p.detach().clone())',
    ].join('\n'),
  },
  // refused by both
  steps('foreach and fused both true', (p) => new optim.SGD([p], { foreach: true, fused: true }), 'torch.optim.SGD([p], foreach=True, fused=True)'),
  steps('a tensor lr of two elements', (p) => new optim.RMSprop([p], { lr: tpu.tensor([0.1, 0.2]) }), 'torch.optim.RMSprop([p], lr=torch.tensor([0.1, 0.2]))'),
  steps("Adam's tensor lr with foreach and not capturable", (p) => new optim.Adam([p], { lr: lr(0.1), foreach: true }), 'torch.optim.Adam([p], lr=torch.tensor(0.1), foreach=True)'),
];

torchTier('optimizer implementation options and tensor lr vs torch.optim', cases);

describe('optimizer implementation options: errors', () => {
  const p = () => tpu.zeros([2], { requiresGrad: true });
  it('differentiable: true is a clear error on every optimizer that takes it', () => {
    for (const make of [optim.SGD, optim.Adam, optim.AdamW, optim.Adamax, optim.Adadelta, optim.Adagrad, optim.NAdam, optim.RAdam, optim.RMSprop]) {
      expect(() => new make([p()], { differentiable: true })).toThrow(`${make.name}: differentiable: true is not supported (steps do not record gradients); leave it false`);
    }
  });

  it("options an optimizer does not take are unknown, as PyTorch's TypeError; bad values are named", () => {
    expect(() => new optim.RMSprop([p()], { fused: true } as never)).toThrow(/RMSprop: unknown option 'fused'/);
    expect(() => new optim.SGD([p()], { capturable: true } as never)).toThrow(/SGD: unknown option 'capturable'/);
    expect(() => new optim.Adam([p()], { foreach: 1 as never })).toThrow('Adam: foreach must be true or false (or null); got 1');
    expect(() => new optim.NAdam([p()], { capturable: null as never })).toThrow('NAdam: capturable must be true or false; got null');
  });

  it('capturable: true is accepted (PyTorch needs an accelerator for it): the steps are those without it', async () => {
    const run = async (capturable: boolean) => {
      const w = tpu.tensor([1, -2]).requiresGrad_();
      const opt = new optim.Adam([w], { lr: 0.1, capturable });
      for (let i = 0; i < 2; i++) {
        opt.zeroGrad();
        w.square().sum().backward();
        opt.step();
      }
      return Array.from(await w.data());
    };
    expect(await run(true)).toEqual(await run(false));
  });
});
