// SGD with momentum, dampening, Nesterov, weight decay and maximize (torch.optim.SGD's update), per param group.
import { numberValue } from '../jit/live-number.js';
import type { Tensor } from '../tensor.js';
import { aliasOfOnlyGroup, checkGroupValues, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface SGDOptions extends Pick<ImplementationOptions, 'foreach' | 'differentiable' | 'fused'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
}

/** SGD's hyperparameters, in its options and in each param group. */
export type SGDHyperparameters = Required<Omit<SGDOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'momentum', 'dampening', 'weightDecay', 'nesterov', 'maximize'] as const;

function checkSGD(who: string, where: string, h: SGDHyperparameters): SGDHyperparameters {
  checkGroupValues(who, where, h, ['lr', 'momentum', 'dampening', 'weightDecay'], ['nesterov', 'maximize']);
  if (h.nesterov && (!(numberValue(h.momentum) as number > 0) || numberValue(h.dampening) !== 0)) {
    throw new RangeError(`${who}: ${where}nesterov needs momentum > 0 and dampening 0`);
  }
  return h;
}

/**
 * Stochastic gradient descent, with optional momentum (torch.optim.SGD). `params` may be param
 * groups with their own options: `[{ params: backbone, lr: 1e-4 }, { params: head }]`.
 * @example const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 })
 */
export class SGD extends Optimizer<SGDHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The momentum of the only param group. */
  declare momentum: number;
  /** The dampening of the only param group. */
  declare dampening: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** Nesterov momentum in the only param group. */
  declare nesterov: boolean;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<SGDHyperparameters>, options: SGDOptions = {}) {
    const o = readOptimizerOptions<SGDOptions>('SGD', options, KEYS, ['foreach', 'differentiable', 'fused']);
    super(params, 'SGD', checkSGD('SGD', '', { lr: o.lr ?? 1e-3, momentum: o.momentum ?? 0, dampening: o.dampening ?? 0, weightDecay: o.weightDecay ?? 0, nesterov: o.nesterov ?? false, maximize: o.maximize ?? false }));
  }

  protected readonly stateKeys = ['momentumBuffer'];

  protected checkGroup(values: SGDHyperparameters, where: string): void {
    checkSGD(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<SGDHyperparameters>): Tensor {
    const num = (key: 'lr' | 'momentum' | 'dampening' | 'weightDecay') => this.groupNumber(group, key, 0);
    const lr = this.hyper(() => num('lr'));
    let g = this.followedGradient(group, p, grad);
    if (this.choice(group, 'momentum != 0', () => num('momentum') !== 0)) {
      const gradient = g;
      // PyTorch: the first step's buffer is the gradient itself. The buffer starts at zero,
      // so the first step is 0 * 0 + 1 * gradient: the same program as every later step.
      const first = () => this.updatesOf.get(p) === 1;
      const buf = this.setState(p, state, 'momentumBuffer', (b) =>
        b.mul(this.hyper(() => (first() ? 0 : num('momentum')))).add(gradient.mul(this.hyper(() => (first() ? 1 : 1 - num('dampening'))))));
      g = this.groupFlag(group, 'nesterov') ? g.add(buf.mul(this.hyper(() => num('momentum')))) : buf;
    }
    return p.sub(g.mul(lr));
  }
}
aliasOfOnlyGroup(SGD.prototype, KEYS);
