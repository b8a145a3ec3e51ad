// SGD with momentum, dampening, Nesterov and weight decay (torch.optim.SGD's update).
import type { Tensor } from '../tensor.js';
import { checkHyper, Optimizer } from './optimizer.js';

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
}

export class SGD extends Optimizer {
  lr: number;
  momentum: number;
  dampening: number;
  weightDecay: number;
  nesterov: boolean;

  constructor(params: Iterable<Tensor>, options: SGDOptions = {}) {
    super(params, 'SGD');
    this.lr = checkHyper('SGD', 'lr', options.lr ?? 1e-3, 0);
    this.momentum = checkHyper('SGD', 'momentum', options.momentum ?? 0, 0);
    this.dampening = checkHyper('SGD', 'dampening', options.dampening ?? 0, 0);
    this.weightDecay = checkHyper('SGD', 'weightDecay', options.weightDecay ?? 0, 0);
    this.nesterov = options.nesterov ?? false;
    if (this.nesterov && (this.momentum <= 0 || this.dampening !== 0)) {
      throw new RangeError('SGD: nesterov needs momentum > 0 and dampening 0');
    }
  }

  protected update(p: Tensor, grad: Tensor, state: Record<string, Tensor>): Tensor {
    checkHyper('SGD', 'lr', this.lr, 0);
    let g = this.weightDecay ? grad.add(p.mul(this.weightDecay)) : grad;
    if (this.momentum) {
      const buf = state.momentumBuffer
        ? state.momentumBuffer.mul(this.momentum).add(g.mul(1 - this.dampening))
        : g.mul(1); // a copy: the gradient itself is disposed by zeroGrad()
      this.setState(state, 'momentumBuffer', buf);
      g = this.nesterov ? g.add(buf.mul(this.momentum)) : buf;
    }
    return p.sub(g.mul(this.lr));
  }
}
