// nn.Dropout: the dropout op in training, the identity in eval().
import type { Tensor } from '../tensor.js';
import { dropout } from '../ops/nn/attention.js';
import { Module } from './module.js';

/**
 * Zeroes elements with probability p in training mode, scaling the rest by 1/(1-p) (torch.nn.Dropout).
 * @example new tpu.nn.Dropout(0.1)
 */
export class Dropout extends Module {
  constructor(readonly p = 0.5) {
    super();
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`Dropout: p must be a probability in [0, 1]; got ${JSON.stringify(p)}`);
  }

  forward(x: Tensor): Tensor {
    return dropout(x, { p: this.p, training: this.training });
  }

  protected override extraRepr(): string {
    return `p=${this.p}`;
  }
}
