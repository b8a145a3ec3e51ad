// Adam (L2 weight decay added to the gradient) and AdamW (decoupled weight decay), as in
// torch.optim. Bias corrections are JS numbers of the step count: scalar program inputs.
import type { Tensor } from '../tensor.js';
import { checkHyper, Optimizer } from './optimizer.js';

export interface AdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
}

export class Adam extends Optimizer {
  lr: number;
  betas: readonly [number, number];
  eps: number;
  weightDecay: number;
  protected readonly decoupled: boolean;

  constructor(params: Iterable<Tensor>, options: AdamOptions = {}, decoupled = false) {
    const name = decoupled ? 'AdamW' : 'Adam';
    super(params, name);
    this.lr = checkHyper(name, 'lr', options.lr ?? 1e-3, 0);
    const betas = options.betas ?? [0.9, 0.999];
    if (!Array.isArray(betas) || betas.length !== 2) throw new TypeError(`${name}: betas must be [beta1, beta2]; got ${JSON.stringify(betas)}`);
    this.betas = [checkHyper(name, 'betas[0]', betas[0], 0, 1, true), checkHyper(name, 'betas[1]', betas[1], 0, 1, true)];
    this.eps = checkHyper(name, 'eps', options.eps ?? 1e-8, 0);
    this.weightDecay = checkHyper(name, 'weightDecay', options.weightDecay ?? (decoupled ? 0.01 : 0), 0);
    this.decoupled = decoupled;
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>): Tensor {
    const [b1, b2] = this.betas;
    const t = this.stepCount;
    const g = this.weightDecay && !this.decoupled ? grad.add(p.mul(this.weightDecay)) : grad;
    const m0 = state.expAvg;
    const v0 = state.expAvgSq;
    const m = this.setState(state, 'expAvg', m0 ? m0.mul(b1).add(g.mul(1 - b1)) : g.mul(1 - b1));
    const v = this.setState(state, 'expAvgSq', v0 ? v0.mul(b2).add(g.mul(g).mul(1 - b2)) : g.mul(g).mul(1 - b2));
    const stepSize = this.lr / (1 - b1 ** t);
    const denom = v.div(1 - b2 ** t).sqrt().add(this.eps);
    const base = this.weightDecay && this.decoupled ? p.mul(1 - this.lr * this.weightDecay) : p;
    return base.sub(m.div(denom).mul(stepSize));
  }
}

export class AdamW extends Adam {
  constructor(params: Iterable<Tensor>, options: AdamOptions = {}) {
    super(params, options, true);
  }
}
