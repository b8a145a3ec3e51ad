// SGD with momentum, dampening, Nesterov and weight decay (torch.optim.SGD's update).
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import type { DTensor } from '../distributed/dtensor.js';
import { checkHyper, Optimizer } from './optimizer.js';

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
}

/**
 * Stochastic gradient descent, with optional momentum (torch.optim.SGD).
 * @example const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 })
 */
export class SGD extends Optimizer {
  lr: number;
  momentum: number;
  dampening: number;
  weightDecay: number;
  nesterov: boolean;

  constructor(params: Iterable<Tensor | DTensor>, options: SGDOptions = {}) {
    super(params, 'SGD');
    readOptions<SGDOptions>('SGD', options, ['lr', 'momentum', 'dampening', 'weightDecay', 'nesterov']);
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
    const lr = this.hyper(() => checkHyper('SGD', 'lr', this.lr, 0));
    let g = this.choice('weightDecay != 0', () => this.weightDecay !== 0) ? grad.add(p.mul(this.hyper(() => this.weightDecay))) : grad;
    if (this.choice('momentum != 0', () => this.momentum !== 0)) {
      const gradient = g;
      // PyTorch: the first step's buffer is the gradient itself. The buffer starts at zero,
      // so the first step is 0 * 0 + 1 * gradient: the same program as every later step.
      const first = () => this.updatesOf.get(p) === 1;
      const buf = this.setState(p, state, 'momentumBuffer', (b) =>
        b.mul(this.hyper(() => (first() ? 0 : this.momentum))).add(gradient.mul(this.hyper(() => (first() ? 1 : 1 - this.dampening)))));
      g = this.choice('nesterov', () => this.nesterov) ? g.add(buf.mul(this.hyper(() => this.momentum))) : buf;
    }
    return p.sub(g.mul(lr));
  }
}
