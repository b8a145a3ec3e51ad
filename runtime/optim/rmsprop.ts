// RMSprop (torch.optim.RMSprop), per param group: the gradient divided by the root of a running
// mean of its square (centered: minus the square of its running mean), with optional momentum,
// L2 weight decay and maximize.
import type { Tensor } from '../tensor.js';
import { aliasOfOnlyGroup, checkGroupValues, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface RMSpropOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  alpha?: number;
  eps?: number;
  weightDecay?: number;
  momentum?: number;
  centered?: boolean;
  maximize?: boolean;
}

/** RMSprop's hyperparameters, in its options and in each param group. */
export type RMSpropHyperparameters = Required<Omit<RMSpropOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'momentum', 'alpha', 'eps', 'centered', 'weightDecay', 'maximize'] as const;
const NUMBERS = ['lr', 'alpha', 'eps', 'weightDecay', 'momentum'] as const;
const checkRMSprop = (who: string, where: string, h: RMSpropHyperparameters) => checkGroupValues(who, where, h, NUMBERS, ['centered', 'maximize']);

/**
 * RMSprop (torch.optim.RMSprop). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.RMSprop(model.parameters(), { lr: 1e-2, momentum: 0.9 })
 */
export class RMSprop extends Optimizer<RMSpropHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The smoothing constant of the only param group. */
  declare alpha: number;
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** The momentum of the only param group. */
  declare momentum: number;
  /** Whether the only param group is centered. */
  declare centered: boolean;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<RMSpropHyperparameters>, options: RMSpropOptions = {}) {
    const o = readOptimizerOptions<RMSpropOptions>('RMSprop', options, KEYS, ['foreach', 'capturable', 'differentiable']);
    super(params, 'RMSprop', checkRMSprop('RMSprop', '', {
      // PyTorch's order of a group's keys
      lr: o.lr ?? 1e-2, momentum: o.momentum ?? 0, alpha: o.alpha ?? 0.99, eps: o.eps ?? 1e-8,
      centered: o.centered ?? false, weightDecay: o.weightDecay ?? 0, maximize: o.maximize ?? false,
    }));
  }

  protected readonly stateKeys = ['squareAvg', 'momentumBuffer', 'gradAvg'];
  protected override readonly lerpedStateKeys = ['gradAvg'];

  protected checkGroup(values: RMSpropHyperparameters, where: string): void {
    checkRMSprop(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<RMSpropHyperparameters>): Tensor {
    const num = (key: (typeof NUMBERS)[number]) => this.groupNumber(group, key, 0);
    const alpha = this.hyper(() => num('alpha'));
    const rest = this.hyper(() => 1 - num('alpha'));
    const g = this.followedGradient(group, p, grad);
    const sq = this.setState(p, state, 'squareAvg', (s) => s.mul(alpha).add(g.mul(g).mul(rest)));
    let variance = sq;
    if (this.groupFlag(group, 'centered')) {
      const mean = this.setState(p, state, 'gradAvg', (a) => a.mul(alpha).add(g.mul(rest)));
      variance = sq.sub(mean.mul(mean));
    }
    const avg = variance.sqrt().add(this.hyper(() => num('eps')));
    const lr = this.hyper(() => num('lr'));
    if (this.choice(group, 'momentum > 0', () => num('momentum') > 0)) {
      const buf = this.setState(p, state, 'momentumBuffer', (b) => b.mul(this.hyper(() => num('momentum'))).add(g.div(avg)));
      return p.sub(buf.mul(lr));
    }
    return p.sub(g.div(avg).mul(lr));
  }
}
aliasOfOnlyGroup(RMSprop.prototype, KEYS);
