// Adam (L2 weight decay added to the gradient) and AdamW (decoupled weight decay), as in
// torch.optim, per param group, with AMSGrad (the largest second moment so far) and maximize.
// Bias corrections are live numbers of the parameter's step count (PyTorch's per-parameter
// `step`): scalar program inputs, re-read on every step and every tpu.compile replay.
import { Tensor } from '../tensor.js';
import { aliasOfOnlyGroup, checkGroupValues, checkHyper, Optimizer, type ParamGroup, type ParamsOrGroups } from './optimizer.js';
import { readOptimizerOptions, type ImplementationOption, type ImplementationOptions } from './optimizer-options.js';

export interface AdamOptions extends Pick<ImplementationOptions, 'foreach' | 'capturable' | 'differentiable' | 'fused'> {
  /** A number, or a one-element tensor (its value at construction), as PyTorch accepts. */
  lr?: number | Tensor;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
}

/** Adam's and AdamW's hyperparameters, in their options and in each param group. */
export type AdamHyperparameters = Required<Omit<AdamOptions, 'lr' | ImplementationOption>> & { lr: number };

const KEYS = ['lr', 'betas', 'eps', 'weightDecay', 'amsgrad', 'maximize'] as const;

/** betas of an Adam-like optimizer: [beta1, beta2], each in [0, 1). */
export function checkBetas(who: string, where: string, betas: unknown): void {
  if (!Array.isArray(betas) || betas.length !== 2) throw new TypeError(`${who}: ${where}betas must be [beta1, beta2]; got ${JSON.stringify(betas)}`);
  betas.forEach((b, i) => checkHyper(who, `${where}betas[${i}]`, b, 0, 1, true));
}

function checkAdam(who: string, where: string, h: AdamHyperparameters): AdamHyperparameters {
  checkHyper(who, `${where}lr`, h.lr, 0);
  checkBetas(who, where, h.betas);
  return checkGroupValues(who, where, h, ['eps', 'weightDecay'], ['amsgrad', 'maximize']);
}

/**
 * Adam (torch.optim.Adam). `params` may be param groups with their own options:
 * `[{ params: backbone, lr: 1e-5 }, { params: head }]`.
 * @example const opt = new tpu.optim.Adam(model.parameters(), { lr: 1e-3 })
 */
export class Adam extends Optimizer<AdamHyperparameters> {
  /** The learning rate of the only param group (an error with several: use paramGroups[i].lr). */
  declare lr: number;
  /** The betas of the only param group. */
  declare betas: readonly [number, number];
  /** The eps of the only param group. */
  declare eps: number;
  /** The weight decay of the only param group. */
  declare weightDecay: number;
  /** AMSGrad in the only param group. */
  declare amsgrad: boolean;
  /** Whether the only param group ascends the gradient. */
  declare maximize: boolean;
  protected readonly decoupled: boolean;

  constructor(params: ParamsOrGroups<AdamHyperparameters>, options: AdamOptions = {}, decoupled = false) {
    const name = decoupled ? 'AdamW' : 'Adam';
    // PyTorch's foreach kernels read a tensor lr only when capturable
    if (options.lr instanceof Tensor && options.foreach === true && options.capturable !== true) throw new TypeError(`${name}: lr as a tensor needs capturable: true with foreach: true (PyTorch: "lr as a Tensor is not supported for capturable=False and foreach=True")`);
    const o = readOptimizerOptions<AdamOptions>(name, options, KEYS, ['foreach', 'capturable', 'differentiable', 'fused']);
    super(params, name, checkAdam(name, '', { lr: o.lr ?? 1e-3, betas: o.betas ?? [0.9, 0.999], eps: o.eps ?? 1e-8, weightDecay: o.weightDecay ?? (decoupled ? 0.01 : 0), amsgrad: o.amsgrad ?? false, maximize: o.maximize ?? false }));
    this.decoupled = decoupled;
  }

  protected readonly stateKeys = ['expAvg', 'expAvgSq', 'maxExpAvgSq'];
  protected override readonly lerpedStateKeys = ['expAvg'];

  protected checkGroup(values: AdamHyperparameters, where: string): void {
    checkAdam(this.name, where, values);
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<AdamHyperparameters>): Tensor {
    const num = (key: 'lr' | 'eps' | 'weightDecay') => this.groupNumber(group, key, 0);
    const beta = (i: 0 | 1) => checkHyper(this.name, `paramGroups[${this.paramGroups.indexOf(group)}].betas[${i}]`, group.betas[i], 0, 1, true);
    const beta1 = () => beta(0);
    const beta2 = () => beta(1);
    const steps = () => this.updatesOf.get(p)!;
    const g = this.followedGradient(group, p, grad, !this.decoupled);
    // Moments start at zero, so the first step has the same program as every other one.
    const m = this.setState(p, state, 'expAvg', (m0) => m0.mul(this.hyper(beta1)).add(g.mul(this.hyper(() => 1 - beta1()))));
    const v = this.setState(p, state, 'expAvgSq', (v0) => v0.mul(this.hyper(beta2)).add(g.mul(g).mul(this.hyper(() => 1 - beta2()))));
    const stepSize = this.hyper(() => num('lr') / (1 - beta1() ** steps()));
    // AMSGrad divides by the largest second moment so far (zeros at first: the same program every step)
    const second = this.groupFlag(group, 'amsgrad') ? this.setState(p, state, 'maxExpAvgSq', (vMax) => vMax.maximum(v)) : v;
    const denom = second.div(this.hyper(() => 1 - beta2() ** steps())).sqrt().add(this.hyper(() => num('eps')));
    const decoupled = this.choice(group, 'weightDecay != 0 (decoupled)', () => num('weightDecay') !== 0 && this.decoupled);
    const base = decoupled ? p.mul(this.hyper(() => 1 - num('lr') * num('weightDecay'))) : p;
    return base.sub(m.div(denom).mul(stepSize));
  }
}
aliasOfOnlyGroup(Adam.prototype, KEYS);

/**
 * Adam with decoupled weight decay (torch.optim.AdamW).
 * @example const opt = new tpu.optim.AdamW(model.parameters(), { lr: 1e-3, weightDecay: 0.01 })
 */
export class AdamW extends Adam {
  constructor(params: ParamsOrGroups<AdamHyperparameters>, options: AdamOptions = {}) {
    super(params, options, true);
  }
}
