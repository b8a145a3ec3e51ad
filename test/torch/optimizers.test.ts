// Optimizer steps against torch.optim: three steps on the same loss, the weights after each, every option.
import { tpu } from 'tpu-kernel/runtime';
import { torchTier, type TorchCase } from './torch-tier.js';
import { steps } from './optimizer-steps.js';

const { optim } = tpu;
const cases: TorchCase[] = [
  steps('SGD', (p) => new optim.SGD([p], { lr: 0.01 }), 'torch.optim.SGD([p], lr=0.01)'),
  steps('SGD momentum, dampening, weightDecay', (p) => new optim.SGD([p], { lr: 0.01, momentum: 0.9, dampening: 0.1, weightDecay: 0.05 }), 'torch.optim.SGD([p], lr=0.01, momentum=0.9, dampening=0.1, weight_decay=0.05)'),
  steps('SGD nesterov', (p) => new optim.SGD([p], { lr: 0.01, momentum: 0.9, nesterov: true }), 'torch.optim.SGD([p], lr=0.01, momentum=0.9, nesterov=True)'),
  steps('Adam', (p) => new optim.Adam([p], { lr: 0.05 }), 'torch.optim.Adam([p], lr=0.05)'),
  steps('Adam betas, eps, weightDecay', (p) => new optim.Adam([p], { lr: 0.05, betas: [0.8, 0.99], eps: 1e-6, weightDecay: 0.1 }), 'torch.optim.Adam([p], lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)'),
  steps('AdamW', (p) => new optim.AdamW([p], { lr: 0.05 }), 'torch.optim.AdamW([p], lr=0.05)'),
  steps('AdamW weightDecay', (p) => new optim.AdamW([p], { lr: 0.05, weightDecay: 0.3 }), 'torch.optim.AdamW([p], lr=0.05, weight_decay=0.3)'),
  steps('SGD maximize, momentum, weightDecay', (p) => new optim.SGD([p], { lr: 0.01, momentum: 0.9, weightDecay: 0.05, maximize: true }), 'torch.optim.SGD([p], lr=0.01, momentum=0.9, weight_decay=0.05, maximize=True)'),
  // beta2 0.5: the second moment falls between steps, so the AMSGrad maximum differs from it
  steps('Adam amsgrad', (p) => new optim.Adam([p], { lr: 0.05, betas: [0.9, 0.5], amsgrad: true }), 'torch.optim.Adam([p], lr=0.05, betas=(0.9, 0.5), amsgrad=True)'),
  steps('Adam amsgrad, maximize, weightDecay', (p) => new optim.Adam([p], { lr: 0.05, betas: [0.9, 0.5], weightDecay: 0.1, amsgrad: true, maximize: true }), 'torch.optim.Adam([p], lr=0.05, betas=(0.9, 0.5), weight_decay=0.1, amsgrad=True, maximize=True)'),
  steps('AdamW amsgrad, maximize', (p) => new optim.AdamW([p], { lr: 0.05, betas: [0.9, 0.5], weightDecay: 0.3, amsgrad: true, maximize: true }), 'torch.optim.AdamW([p], lr=0.05, betas=(0.9, 0.5), weight_decay=0.3, amsgrad=True, maximize=True)'),
  steps('RMSprop', (p) => new optim.RMSprop([p]), 'torch.optim.RMSprop([p])'),
  steps('RMSprop alpha, eps, weightDecay, momentum', (p) => new optim.RMSprop([p], { lr: 0.02, alpha: 0.9, eps: 1e-6, weightDecay: 0.1, momentum: 0.8 }), 'torch.optim.RMSprop([p], lr=0.02, alpha=0.9, eps=1e-6, weight_decay=0.1, momentum=0.8)'),
  steps('RMSprop centered, momentum, maximize', (p) => new optim.RMSprop([p], { lr: 0.02, alpha: 0.8, momentum: 0.5, centered: true, maximize: true }), 'torch.optim.RMSprop([p], lr=0.02, alpha=0.8, momentum=0.5, centered=True, maximize=True)'),
  steps('Adagrad', (p) => new optim.Adagrad([p]), 'torch.optim.Adagrad([p])'),
  steps('Adagrad lrDecay, weightDecay, initialAccumulatorValue, eps', (p) => new optim.Adagrad([p], { lr: 0.1, lrDecay: 0.5, weightDecay: 0.1, initialAccumulatorValue: 2, eps: 1e-6 }), 'torch.optim.Adagrad([p], lr=0.1, lr_decay=0.5, weight_decay=0.1, initial_accumulator_value=2, eps=1e-6)'),
  steps('Adagrad maximize', (p) => new optim.Adagrad([p], { lr: 0.1, maximize: true }), 'torch.optim.Adagrad([p], lr=0.1, maximize=True)'),
  steps('Adadelta', (p) => new optim.Adadelta([p]), 'torch.optim.Adadelta([p])'),
  steps('Adadelta lr, rho, eps, weightDecay, maximize', (p) => new optim.Adadelta([p], { lr: 0.5, rho: 0.8, eps: 1e-4, weightDecay: 0.1, maximize: true }), 'torch.optim.Adadelta([p], lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True)'),
  steps('Adamax', (p) => new optim.Adamax([p]), 'torch.optim.Adamax([p])'),
  steps('Adamax betas, eps, weightDecay, maximize', (p) => new optim.Adamax([p], { lr: 0.05, betas: [0.8, 0.5], eps: 1e-4, weightDecay: 0.1, maximize: true }), 'torch.optim.Adamax([p], lr=0.05, betas=(0.8, 0.5), eps=1e-4, weight_decay=0.1, maximize=True)'),
  steps('NAdam', (p) => new optim.NAdam([p], { lr: 0.05 }), 'torch.optim.NAdam([p], lr=0.05)'),
  steps('NAdam momentumDecay, weightDecay', (p) => new optim.NAdam([p], { lr: 0.05, betas: [0.8, 0.99], momentumDecay: 0.1, weightDecay: 0.1 }), 'torch.optim.NAdam([p], lr=0.05, betas=(0.8, 0.99), momentum_decay=0.1, weight_decay=0.1)'),
  steps('NAdam decoupled weight decay, maximize', (p) => new optim.NAdam([p], { lr: 0.05, weightDecay: 0.3, decoupledWeightDecay: true, maximize: true }), 'torch.optim.NAdam([p], lr=0.05, weight_decay=0.3, decoupled_weight_decay=True, maximize=True)'),
  steps('RAdam (its first steps unrectified)', (p) => new optim.RAdam([p], { lr: 0.05 }), 'torch.optim.RAdam([p], lr=0.05)'),
  // beta2 0.9: rho_t passes 5 at step 6, so 8 steps run both branches
  steps('RAdam rectified from step 6, weightDecay', (p) => new optim.RAdam([p], { lr: 0.05, betas: [0.8, 0.9], weightDecay: 0.1 }), 'torch.optim.RAdam([p], lr=0.05, betas=(0.8, 0.9), weight_decay=0.1)', 8),
  steps('RAdam decoupled weight decay, maximize', (p) => new optim.RAdam([p], { lr: 0.05, betas: [0.9, 0.9], weightDecay: 0.3, decoupledWeightDecay: true, maximize: true }), 'torch.optim.RAdam([p], lr=0.05, betas=(0.9, 0.9), weight_decay=0.3, decoupled_weight_decay=True, maximize=True)', 8),
];

torchTier('optimizers vs torch.optim', cases);
