// nn.Dropout: the dropout op in training, the identity in eval().
import type { Tensor } from '../tensor.js';
import { dropout } from '../ops/nn/attention.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/**
 * Zeroes elements with probability p in training mode, scaling the rest by 1/(1-p) (torch.nn.Dropout).
 * @example new tpu.nn.Dropout(0.1); new tpu.nn.Dropout({ p: 0.1 }).p // 0.1
 */
export class Dropout extends Module {
  readonly p: number;

  /** p by position or as `{ p }` (PyTorch's nn.Dropout(p=0.1)). */
  constructor(...args: [p?: number, options?: { p?: number }] | [options: { p?: number }]) {
    super();
    const p = layerArguments<{ p: number }>('Dropout', args, ['p']).p ?? 0.5;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`nn.Dropout: p must be a probability in [0, 1]; got ${JSON.stringify(p)}`);
    this.p = p;
  }

  forward(x: Tensor): Tensor {
    return dropout(x, { p: this.p, training: this.training });
  }

  protected override extraRepr(): string {
    return `p=${this.p}`;
  }
}
