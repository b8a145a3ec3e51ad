// Adadelta (torch.optim.Adadelta), per param group: each step is the gradient scaled by the
// ratio of the running root mean squares of past steps and of gradients (units of the
// parameter), times lr; L2 weight decay and maximize.
import type { Tensor } from '../tensor.js';
import { aliasOfOnlyGroup, checkGroupValues, checkHyper, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface AdadeltaOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  rho?: number;
  eps?: number;
  weightDecay?: number;
  maximize?: boolean;
}

/** Adadelta's hyperparameters, in its options and in each param group. */
export type AdadeltaHyperparameters = Required<Omit<AdadeltaOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'rho', 'eps', 'weightDecay', 'maximize'] as const;

function checkAdadelta(who: string, where: string, h: AdadeltaHyperparameters): AdadeltaHyperparameters {
  checkHyper(who, `${where}rho`, h.rho, 0, 1);
  return checkGroupValues(who, where, h, ['lr', 'eps', 'weightDecay'], ['maximize']);
}

/**
 * Adadelta (torch.optim.Adadelta). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.Adadelta(model.parameters(), { lr: 1 })
 */
export class Adadelta extends Optimizer<AdadeltaHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The running averages' coefficient of the only param group. */
  declare rho: number;
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<AdadeltaHyperparameters>, options: AdadeltaOptions = {}) {
    const o = readOptimizerOptions<AdadeltaOptions>('Adadelta', options, KEYS, ['foreach', 'capturable', 'differentiable']);
    super(params, 'Adadelta', checkAdadelta('Adadelta', '', { lr: o.lr ?? 1, rho: o.rho ?? 0.9, eps: o.eps ?? 1e-6, weightDecay: o.weightDecay ?? 0, maximize: o.maximize ?? false }));
  }

  protected readonly stateKeys = ['squareAvg', 'accDelta'];

  protected checkGroup(values: AdadeltaHyperparameters, where: string): void {
    checkAdadelta(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<AdadeltaHyperparameters>): Tensor {
    const num = (key: 'lr' | 'eps') => this.groupNumber(group, key, 0);
    const rhoNow = () => checkHyper(this.name, `paramGroups[${this.paramGroups.indexOf(group)}].rho`, group.rho, 0, 1);
    const rho = this.hyper(rhoNow);
    const rest = this.hyper(() => 1 - rhoNow());
    const eps = this.hyper(() => num('eps'));
    const g = this.followedGradient(group, p, grad);
    const std = this.setState(p, state, 'squareAvg', (s) => s.mul(rho).add(g.mul(g).mul(rest))).add(eps).sqrt();
    // the step reads the running mean of past steps before this one joins it
    let delta!: Tensor;
    this.setState(p, state, 'accDelta', (acc) => {
      delta = acc.add(eps).sqrt().div(std).mul(g);
      return acc.mul(rho).add(delta.mul(delta).mul(rest));
    });
    return p.sub(delta.mul(this.hyper(() => num('lr'))));
  }
}
aliasOfOnlyGroup(Adadelta.prototype, KEYS);
