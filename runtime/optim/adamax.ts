// Adamax (torch.optim.Adamax), per param group: Adam with the infinity norm, the step divided
// by the largest of the decayed past |gradient|s, with L2 weight decay and maximize.
import type { Tensor } from '../tensor.js';
import { checkBetas } from './adam.js';
import { aliasOfOnlyGroup, checkGroupValues, checkHyper, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface AdamaxOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
  maximize?: boolean;
}

/** Adamax's hyperparameters, in its options and in each param group. */
export type AdamaxHyperparameters = Required<Omit<AdamaxOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'betas', 'eps', 'weightDecay', 'maximize'] as const;

function checkAdamax(who: string, where: string, h: AdamaxHyperparameters): AdamaxHyperparameters {
  checkBetas(who, where, h.betas);
  return checkGroupValues(who, where, h, ['lr', 'eps', 'weightDecay'], ['maximize']);
}

/**
 * Adamax (torch.optim.Adamax). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.Adamax(model.parameters(), { lr: 2e-3 })
 */
export class Adamax extends Optimizer<AdamaxHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The betas of the only param group. */
  declare betas: readonly [number, number];
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<AdamaxHyperparameters>, options: AdamaxOptions = {}) {
    const o = readOptimizerOptions<AdamaxOptions>('Adamax', options, KEYS, ['foreach', 'capturable', 'differentiable']);
    super(params, 'Adamax', checkAdamax('Adamax', '', { lr: o.lr ?? 2e-3, betas: o.betas ?? [0.9, 0.999], eps: o.eps ?? 1e-8, weightDecay: o.weightDecay ?? 0, maximize: o.maximize ?? false }));
  }

  protected readonly stateKeys = ['expAvg', 'expInf'];

  protected checkGroup(values: AdamaxHyperparameters, where: string): void {
    checkAdamax(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<AdamaxHyperparameters>): Tensor {
    const where = `paramGroups[${this.paramGroups.indexOf(group)}].`;
    const beta = (i: 0 | 1) => checkHyper(this.name, `${where}betas[${i}]`, group.betas[i], 0, 1, true);
    const steps = () => this.updatesOf.get(p)!;
    const g = this.followedGradient(group, p, grad);
    const m = this.setState(p, state, 'expAvg', (m0) => m0.mul(this.hyper(() => beta(0))).add(g.mul(this.hyper(() => 1 - beta(0)))));
    const u = this.setState(p, state, 'expInf', (u0) => u0.mul(this.hyper(() => beta(1))).maximum(g.abs().add(this.hyper(() => this.groupNumber(group, 'eps', 0)))));
    const clr = this.hyper(() => this.groupNumber(group, 'lr', 0) / (1 - beta(0) ** steps()));
    return p.sub(m.div(u).mul(clr));
  }
}
aliasOfOnlyGroup(Adamax.prototype, KEYS);
