// RAdam (torch.optim.RAdam), per param group: Adam whose adaptive step is rectified by the
// variance of its second moment's estimate, and plain momentum SGD while that variance is
// intractable (ρ_t ≤ 5, the first steps); L2 or decoupled weight decay, and maximize.
import type { Tensor } from '../tensor.js';
import { checkBetas } from './adam.js';
import { aliasOfOnlyGroup, checkGroupValues, checkHyper, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface RAdamOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
  decoupledWeightDecay?: boolean;
  maximize?: boolean;
}

/** RAdam's hyperparameters, in its options and in each param group. */
export type RAdamHyperparameters = Required<Omit<RAdamOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'betas', 'eps', 'weightDecay', 'decoupledWeightDecay', 'maximize'] as const;

function checkRAdam(who: string, where: string, h: RAdamHyperparameters): RAdamHyperparameters {
  checkBetas(who, where, h.betas);
  return checkGroupValues(who, where, h, ['lr', 'eps', 'weightDecay'], ['decoupledWeightDecay', 'maximize']);
}

/**
 * RAdam (torch.optim.RAdam). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.RAdam(model.parameters(), { lr: 1e-3 })
 */
export class RAdam extends Optimizer<RAdamHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The betas of the only param group. */
  declare betas: readonly [number, number];
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** Whether the only param group decays weights decoupled (AdamW's way). */
  declare decoupledWeightDecay: boolean;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<RAdamHyperparameters>, options: RAdamOptions = {}) {
    const o = readOptimizerOptions<RAdamOptions>('RAdam', options, KEYS, ['foreach', 'capturable', 'differentiable']);
    super(params, 'RAdam', checkRAdam('RAdam', '', {
      lr: o.lr ?? 1e-3, betas: o.betas ?? [0.9, 0.999], eps: o.eps ?? 1e-8, weightDecay: o.weightDecay ?? 0,
      decoupledWeightDecay: o.decoupledWeightDecay ?? false, maximize: o.maximize ?? false,
    }));
  }

  protected readonly stateKeys = ['expAvg', 'expAvgSq'];

  protected checkGroup(values: RAdamHyperparameters, where: string): void {
    checkRAdam(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<RAdamHyperparameters>): Tensor {
    const where = `paramGroups[${this.paramGroups.indexOf(group)}].`;
    const num = (key: 'lr' | 'eps' | 'weightDecay') => this.groupNumber(group, key, 0);
    const beta = (i: 0 | 1) => checkHyper(this.name, `${where}betas[${i}]`, group.betas[i], 0, 1, true);
    const steps = () => this.updatesOf.get(p)!;
    const decoupled = this.groupFlag(group, 'decoupledWeightDecay');
    const g = this.followedGradient(group, p, grad, !decoupled);
    const base = decoupled && this.choice(group, 'weightDecay != 0', () => num('weightDecay') !== 0) ? p.mul(this.hyper(() => 1 - num('lr') * num('weightDecay'))) : p;
    const m = this.setState(p, state, 'expAvg', (m0) => m0.mul(this.hyper(() => beta(0))).add(g.mul(this.hyper(() => 1 - beta(0)))));
    const v = this.setState(p, state, 'expAvgSq', (v0) => v0.mul(this.hyper(() => beta(1))).add(g.mul(g).mul(this.hyper(() => 1 - beta(1)))));
    const bias2 = () => 1 - beta(1) ** steps();
    const rhoInf = () => 2 / (1 - beta(1)) - 1;
    const rho = () => rhoInf() - (2 * steps() * beta(1) ** steps()) / bias2();
    const corrected = m.div(this.hyper(() => 1 - beta(0) ** steps())).mul(this.hyper(() => num('lr')));
    if (!this.choice(group, 'rho_t > 5 (rectified)', () => rho() > 5)) return base.sub(corrected);
    const rect = this.hyper(() => Math.sqrt(((rho() - 4) * (rho() - 2) * rhoInf()) / ((rhoInf() - 4) * (rhoInf() - 2) * rho())));
    const adaptive = v.sqrt().add(this.hyper(() => num('eps'))).reciprocal().mul(this.hyper(() => Math.sqrt(bias2())));
    return base.sub(corrected.mul(adaptive).mul(rect));
  }
}
aliasOfOnlyGroup(RAdam.prototype, KEYS);
