// NAdam (torch.optim.NAdam), per param group: Adam with Nesterov momentum, whose momentum
// coefficient μ_t = β1·(1 - ½·0.96^(t·momentumDecay)) warms up over the steps; L2 or decoupled
// weight decay, and maximize. The product of the μ's is kept on the host, rounded to float32 at
// each step as PyTorch's float32 mu_product state is; it follows from the step count, so the
// stateDict holds no muProduct.
import type { Tensor } from '../tensor.js';
import { checkBetas } from './adam.js';
import { aliasOfOnlyGroup, checkGroupValues, checkHyper, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface NAdamOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
  momentumDecay?: number;
  decoupledWeightDecay?: boolean;
  maximize?: boolean;
}

/** NAdam's hyperparameters, in its options and in each param group. */
export type NAdamHyperparameters = Required<Omit<NAdamOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'betas', 'eps', 'weightDecay', 'momentumDecay', 'decoupledWeightDecay', 'maximize'] as const;

function checkNAdam(who: string, where: string, h: NAdamHyperparameters): NAdamHyperparameters {
  checkBetas(who, where, h.betas);
  return checkGroupValues(who, where, h, ['lr', 'eps', 'weightDecay', 'momentumDecay'], ['decoupledWeightDecay', 'maximize']);
}

/** μ_t of NAdam's momentum schedule. */
const mu = (beta1: number, decay: number, t: number) => beta1 * (1 - 0.5 * 0.96 ** (t * decay));

/**
 * Π μ_1..μ_t in float32, as PyTorch's mu_product state, for each (β1, momentumDecay) met: each
 * step extends the list by one instead of multiplying from μ_1 again for every parameter.
 */
class MuProducts {
  readonly #lists = new Map<string, number[]>();

  upTo(beta1: number, decay: number, t: number): number {
    const key = `${beta1},${decay}`;
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = [1]));
    while (list.length <= t) list.push(Math.fround(list[list.length - 1]! * Math.fround(mu(beta1, decay, list.length))));
    return list[t]!;
  }
}

/**
 * NAdam (torch.optim.NAdam). `params` may be param groups with their own options.
 * @example const opt = new tpu.optim.NAdam(model.parameters(), { lr: 2e-3 })
 */
export class NAdam extends Optimizer<NAdamHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The betas of the only param group. */
  declare betas: readonly [number, number];
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** The momentum decay of the only param group. */
  declare momentumDecay: number;
  /** Whether the only param group decays weights decoupled (AdamW's way). */
  declare decoupledWeightDecay: boolean;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;

  constructor(params: ParamsOrGroups<NAdamHyperparameters>, options: NAdamOptions = {}) {
    const o = readOptimizerOptions<NAdamOptions>('NAdam', options, KEYS, ['foreach', 'capturable', 'differentiable']);
    super(params, 'NAdam', checkNAdam('NAdam', '', {
      lr: o.lr ?? 2e-3, betas: o.betas ?? [0.9, 0.999], eps: o.eps ?? 1e-8, weightDecay: o.weightDecay ?? 0,
      momentumDecay: o.momentumDecay ?? 4e-3, decoupledWeightDecay: o.decoupledWeightDecay ?? false, maximize: o.maximize ?? false,
    }));
  }

  protected readonly stateKeys = ['expAvg', 'expAvgSq'];
  readonly #products = new MuProducts();

  protected checkGroup(values: NAdamHyperparameters, where: string): void {
    checkNAdam(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<NAdamHyperparameters>): Tensor {
    const where = `paramGroups[${this.paramGroups.indexOf(group)}].`;
    const num = (key: 'lr' | 'eps' | 'weightDecay' | 'momentumDecay') => this.groupNumber(group, key, 0);
    const beta = (i: 0 | 1) => checkHyper(this.name, `${where}betas[${i}]`, group.betas[i], 0, 1, true);
    const steps = () => this.updatesOf.get(p)!;
    const muAt = (t: number) => mu(beta(0), num('momentumDecay'), t);
    const muProduct = (t: number) => this.#products.upTo(beta(0), num('momentumDecay'), t);
    const decoupled = this.groupFlag(group, 'decoupledWeightDecay');
    const g = this.followedGradient(group, p, grad, !decoupled);
    const base = decoupled && this.choice(group, 'weightDecay != 0', () => num('weightDecay') !== 0) ? p.mul(this.hyper(() => 1 - num('lr') * num('weightDecay'))) : p;
    const m = this.setState(p, state, 'expAvg', (m0) => m0.mul(this.hyper(() => beta(0))).add(g.mul(this.hyper(() => 1 - beta(0)))));
    const v = this.setState(p, state, 'expAvgSq', (v0) => v0.mul(this.hyper(() => beta(1))).add(g.mul(g).mul(this.hyper(() => 1 - beta(1)))));
    const denom = v.div(this.hyper(() => 1 - beta(1) ** steps())).sqrt().add(this.hyper(() => num('eps')));
    const gradStep = this.hyper(() => (num('lr') * (1 - muAt(steps()))) / (1 - muProduct(steps())));
    const momentumStep = this.hyper(() => (num('lr') * muAt(steps() + 1)) / (1 - muProduct(steps()) * muAt(steps() + 1)));
    return base.sub(g.div(denom).mul(gradStep)).sub(m.div(denom).mul(momentumStep));
  }
}
aliasOfOnlyGroup(NAdam.prototype, KEYS);
