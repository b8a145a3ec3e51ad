// Adagrad (torch.optim.Adagrad), per param group: the gradient divided by the root of the sum
// of its squares so far, the learning rate decayed by lrDecay per step, with L2 weight decay
// and maximize. As in PyTorch, every sum starts at the constructor's initialAccumulatorValue
// (a group's value is kept in the group, not used), made with the optimizer: its stateDict()
// lists every parameter at step 0 before the first step, as PyTorch's.
import type { Tensor } from '../tensor.js';
import { aliasOfOnlyGroup, checkGroupValues, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface AdagradOptions extends Pick<ImplementationOptions, 'foreach' | 'differentiable' | 'fused'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
}

/** Adagrad's hyperparameters, in its options and in each param group. */
export type AdagradHyperparameters = Required<Omit<AdagradOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'lrDecay', 'weightDecay', 'initialAccumulatorValue', 'eps', 'maximize'] as const;
const NUMBERS = ['lr', 'lrDecay', 'weightDecay', 'initialAccumulatorValue', 'eps'] as const;
const checkAdagrad = (who: string, where: string, h: AdagradHyperparameters) => checkGroupValues(who, where, h, NUMBERS, ['maximize']);

/**
 * Adagrad (torch.optim.Adagrad). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.Adagrad(model.parameters(), { lr: 1e-2, lrDecay: 1e-4 })
 */
export class Adagrad extends Optimizer<AdagradHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The learning-rate decay of the only param group. */
  declare lrDecay: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** The initial accumulator value of the only param group. */
  declare initialAccumulatorValue: number;
  /** The eps of the only param group. */
  declare eps: number;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<AdagradHyperparameters>, options: AdagradOptions = {}) {
    const o = readOptimizerOptions<AdagradOptions>('Adagrad', options, KEYS, ['foreach', 'differentiable', 'fused']);
    super(params, 'Adagrad', checkAdagrad('Adagrad', '', {
      // PyTorch's order of a group's keys
      lr: o.lr ?? 1e-2, lrDecay: o.lrDecay ?? 0, eps: o.eps ?? 1e-10, weightDecay: o.weightDecay ?? 0,
      initialAccumulatorValue: o.initialAccumulatorValue ?? 0, maximize: o.maximize ?? false,
    }));
    this.startStates();
  }

  protected readonly stateKeys = ['sum'];

  protected override stateStart(): number {
    return this.defaults.initialAccumulatorValue;
  }

  protected checkGroup(values: AdagradHyperparameters, where: string): void {
    checkAdagrad(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<AdagradHyperparameters>): Tensor {
    const num = (key: (typeof NUMBERS)[number]) => this.groupNumber(group, key, 0);
    const steps = () => this.updatesOf.get(p)!;
    const g = this.followedGradient(group, p, grad);
    const sum = this.setState(p, state, 'sum', (s) => s.add(g.mul(g)));
    const clr = this.hyper(() => num('lr') / (1 + (steps() - 1) * num('lrDecay')));
    return p.sub(g.div(sum.sqrt().add(this.hyper(() => num('eps')))).mul(clr));
  }
}
aliasOfOnlyGroup(Adagrad.prototype, KEYS);
