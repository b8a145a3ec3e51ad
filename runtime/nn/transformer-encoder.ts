// nn.TransformerEncoder: numLayers deep copies of one encoder layer run in turn, then an
// optional norm, as PyTorch's (its layers are copies: the layer given is not one of them).
import type { Tensor } from '../tensor.js';
import { byPosition } from '../options.js';
import { Module } from './module.js';
import { ModuleList } from './module-list.js';
import { copyModule } from './module-copy.js';
import { positiveInt } from './checks.js';
import { describeValue } from '../distributed/describe-value.js';
import type { EncoderLayerForwardOptions } from './transformer-encoder-layer.js';

export interface TransformerEncoderOptions {
  /** Applied to the last layer's output (e.g. a LayerNorm; default none). */
  norm?: Module | null;
}

export interface EncoderForwardOptions {
  /** Every layer's srcMask. */
  mask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
  /** A hint that mask is the causal mask (mask still required). */
  isCausal?: boolean;
}

const OP = 'nn.TransformerEncoder';

/**
 * A stack of numLayers copies of encoderLayer (torch.nn.TransformerEncoder); its parameters are
 * named layers.0.selfAttn.inProjWeight, ..., norm.weight as PyTorch's.
 * @example new tpu.nn.TransformerEncoder(new tpu.nn.TransformerEncoderLayer(8, 2, 16), 2).forward(tpu.randn([5, 2, 8])).shape // [5, 2, 8]
 */
export class TransformerEncoder extends Module {
  layers: ModuleList;
  readonly numLayers: number;
  norm: Module | null;

  constructor(encoderLayer: Module, numLayers: number, ...rest: (Module | null | undefined | TransformerEncoderOptions)[]) {
    super();
    if (!(encoderLayer instanceof Module)) throw new TypeError(`${OP}: encoderLayer must be a module (a TransformerEncoderLayer); got ${describeValue(encoderLayer)}`);
    positiveInt(OP, 'numLayers', numLayers);
    const o = byPosition<TransformerEncoderOptions>(OP, rest, ['norm']);
    if (o.norm != null && !(o.norm instanceof Module)) throw new TypeError(`${OP}: norm must be a module or null; got ${describeValue(o.norm)}`);
    this.layers = new ModuleList(Array.from({ length: numLayers }, () => copyModule(encoderLayer)));
    this.numLayers = numLayers;
    this.norm = o.norm ?? null;
  }

  /** src through every layer with the same masks; options by position too (mask, srcKeyPaddingMask, isCausal). */
  forward(src: Tensor, ...args: unknown[]): Tensor {
    const o = byPosition<EncoderForwardOptions>(`${OP}.forward`, args, ['mask', 'srcKeyPaddingMask', 'isCausal']);
    const options: EncoderLayerForwardOptions = { srcMask: o.mask ?? null, srcKeyPaddingMask: o.srcKeyPaddingMask ?? null, isCausal: o.isCausal ?? false };
    let x = src;
    for (const layer of this.layers) x = layer.forward(x, options) as Tensor;
    return this.norm ? this.norm.forward(x) : x;
  }
}
