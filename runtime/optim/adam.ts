// Adam (L2 weight decay added to the gradient) and AdamW (decoupled weight decay), as in
// torch.optim. Bias corrections are live numbers of the step count: scalar program inputs,
// re-read on every step and every tpu.compile replay.
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import type { DTensor } from '../distributed/dtensor.js';
import { checkHyper, Optimizer } from './optimizer.js';

export interface AdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
}

/**
 * Adam (torch.optim.Adam).
 * @example const opt = new tpu.optim.Adam(model.parameters(), { lr: 1e-3 })
 */
export class Adam extends Optimizer {
  lr: number;
  betas: readonly [number, number];
  eps: number;
  weightDecay: number;
  protected readonly decoupled: boolean;

  constructor(params: Iterable<Tensor | DTensor>, options: AdamOptions = {}, decoupled = false) {
    readOptions<AdamOptions>(decoupled ? 'AdamW' : 'Adam', options, ['lr', 'betas', 'eps', 'weightDecay']);
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
    const beta1 = () => this.betas[0];
    const beta2 = () => this.betas[1];
    const l2 = this.choice('L2 weight decay', () => this.weightDecay !== 0 && !this.decoupled);
    const g = l2 ? grad.add(p.mul(this.hyper(() => this.weightDecay))) : grad;
    // Moments start at zero, so the first step has the same program as every other one.
    const m = this.setState(p, state, 'expAvg', (m0) => m0.mul(this.hyper(beta1)).add(g.mul(this.hyper(() => 1 - beta1()))));
    const v = this.setState(p, state, 'expAvgSq', (v0) => v0.mul(this.hyper(beta2)).add(g.mul(g).mul(this.hyper(() => 1 - beta2()))));
    const stepSize = this.hyper(() => checkHyper(this.name, 'lr', this.lr, 0) / (1 - beta1() ** this.stepCount));
    const denom = v.div(this.hyper(() => 1 - beta2() ** this.stepCount)).sqrt().add(this.hyper(() => this.eps));
    const decoupled = this.choice('decoupled weight decay', () => this.weightDecay !== 0 && this.decoupled);
    const base = decoupled ? p.mul(this.hyper(() => 1 - this.lr * this.weightDecay)) : p;
    return base.sub(m.div(denom).mul(stepSize));
  }
}

/**
 * Adam with decoupled weight decay (torch.optim.AdamW).
 * @example const opt = new tpu.optim.AdamW(model.parameters(), { lr: 1e-3, weightDecay: 0.01 })
 */
export class AdamW extends Adam {
  constructor(params: Iterable<Tensor | DTensor>, options: AdamOptions = {}) {
    super(params, options, true);
  }
}
