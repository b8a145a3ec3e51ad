// torch.nn.GLU: the gated linear unit over the dim the layer was given (-1 by default).
import type { Tensor } from '../tensor.js';
import { glu, type GluOptions } from '../ops/nn/glu.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/**
 * a·σ(b), a and b the halves of x along dim, as a layer (torch.nn.GLU; dim -1).
 * @example new tpu.nn.GLU().forward(tpu.randn([2, 6])).shape // [2, 3]
 */
export class GLU extends Module {
  readonly dim: number;

  constructor(...args: [dim?: number] | [options: GluOptions]) {
    super();
    const { dim } = layerArguments<GluOptions>('GLU', args, ['dim']);
    if (dim !== undefined && !Number.isInteger(dim)) throw new TypeError(`nn.GLU: dim must be an integer; got ${JSON.stringify(dim)}`);
    this.dim = dim ?? -1;
  }

  forward(x: Tensor): Tensor {
    return glu(x, this.dim);
  }

  protected override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}
