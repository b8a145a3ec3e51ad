// nn.Dropout: the dropout op in training, the identity in eval().
import type { Tensor } from '../tensor.js';
import { dropout } from '../ops/nn/attention.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';
import { inplaceOption, inplaceRepr, maybeInPlace, type InplaceOption } from './inplace-option.js';

/**
 * Zeroes elements with probability p in training mode, scaling the rest by 1/(1-p) (torch.nn.Dropout).
 * @example new tpu.nn.Dropout(0.1); new tpu.nn.Dropout({ p: 0.1 }).p // 0.1
 */
export class Dropout extends Module {
  readonly p: number;
  readonly inplace: boolean;

  /** p and inplace by position or as `{ p, inplace }` (PyTorch's nn.Dropout(p=0.1, inplace=True)). */
  constructor(...args: [p?: number, inplace?: boolean] | [p: number, options: InplaceOption] | [options: { p?: number } & InplaceOption]) {
    super();
    const o = layerArguments<{ p: number } & InplaceOption>('Dropout', args, ['p', 'inplace']);
    const p = o.p ?? 0.5;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`nn.Dropout: p must be a probability in [0, 1]; got ${JSON.stringify(p)}`);
    this.p = p;
    this.inplace = inplaceOption('Dropout', o.inplace);
  }

  forward(x: Tensor): Tensor {
    // the identity in eval() or with p 0: x itself (in place or not)
    if (!this.training || this.p === 0) return x;
    return maybeInPlace(this.inplace, 'Dropout', x, (v) => dropout(v, { p: this.p, training: true }));
  }

  protected override extraRepr(): string {
    return `p=${this.p}${inplaceRepr(this.inplace)}`;
  }
}
