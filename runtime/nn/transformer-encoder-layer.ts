// nn.TransformerEncoderLayer: self-attention then a feed-forward block, each with a residual
// connection, dropout and LayerNorm (after, or before with normFirst), as PyTorch's.
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { byPosition } from '../options.js';
import { gelu } from '../ops/nn/activations.js';
import { Module } from './module.js';
import { Linear } from './linear.js';
import { LayerNorm } from './layer-norm.js';
import { Dropout } from './dropout.js';
import { MultiheadAttention } from './multihead-attention.js';
import { positiveInt } from './checks.js';
import { layerArguments } from './layer-arguments.js';
import { describeValue } from '../distributed/describe-value.js';

export type Activation = 'relu' | 'gelu' | ((x: Tensor) => Tensor);

export interface TransformerEncoderLayerOptions {
  dModel: number;
  nhead: number;
  /** Width of the feed-forward block (default 2048). */
  dimFeedforward?: number;
  /** After attention, inside and after the feed-forward block (default 0.1). */
  dropout?: number;
  /** Of the feed-forward block: 'relu' (default), 'gelu', or a function or module. */
  activation?: Activation;
  layerNormEps?: number;
  /** Input and output [N, L, E] (true) or [L, N, E] (false, the default). */
  batchFirst?: boolean;
  /** LayerNorm before each block (pre-norm) instead of after the residual sum (default false). */
  normFirst?: boolean;
  /** Biases in the linear layers and LayerNorms (default true). */
  bias?: boolean;
  dtype?: DType;
}

export type TransformerEncoderLayerRest = Omit<TransformerEncoderLayerOptions, 'dModel' | 'nhead'>;

export interface EncoderLayerForwardOptions {
  /** The attention mask (MultiheadAttention's attnMask): [L, S] or [N·nhead, L, S]; bool true = may not attend. */
  srcMask?: Tensor | null;
  /** [N, S] ([S] unbatched): bool true = padding. */
  srcKeyPaddingMask?: Tensor | null;
  /** A hint that srcMask is the causal mask (srcMask still required). */
  isCausal?: boolean;
}

const OP = 'nn.TransformerEncoderLayer';

function activationFunction(activation: unknown): (x: Tensor) => Tensor {
  if (activation === 'relu') return (x) => x.relu();
  if (activation === 'gelu') return (x) => gelu(x);
  if (typeof activation === 'function') return activation as (x: Tensor) => Tensor;
  throw new TypeError(`${OP}: activation must be 'relu', 'gelu' or a function of a tensor; got ${describeValue(activation)}`);
}

/**
 * One Transformer encoder block (torch.nn.TransformerEncoderLayer). Arguments by position as
 * PyTorch's (dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst,
 * normFirst, bias), then options.
 * @example new tpu.nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 32, batchFirst: true }).forward(tpu.randn([2, 5, 8])).shape // [2, 5, 8]
 */
export class TransformerEncoderLayer extends Module {
  selfAttn: MultiheadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  readonly normFirst: boolean;
  norm1: LayerNorm;
  norm2: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  /** A module given as activation is a submodule, as in PyTorch. */
  activation: (x: Tensor) => Tensor;

  constructor(dModel: number, nhead: number, ...rest: (number | boolean | string | ((x: Tensor) => Tensor) | undefined | TransformerEncoderLayerRest)[]) {
    super();
    const o = layerArguments<TransformerEncoderLayerOptions>('TransformerEncoderLayer', [dModel, nhead, ...rest],
      ['dModel', 'nhead', 'dimFeedforward', 'dropout', 'activation', 'layerNormEps', 'batchFirst', 'normFirst', 'bias'], ['dtype']);
    positiveInt(OP, 'dModel', o.dModel);
    positiveInt(OP, 'nhead', o.nhead);
    if (o.dModel! % o.nhead! !== 0) throw new RangeError(`${OP}: dModel must be divisible by nhead; got dModel ${o.dModel}, nhead ${o.nhead}`);
    const ff = o.dimFeedforward ?? 2048;
    positiveInt(OP, 'dimFeedforward', ff);
    if (o.normFirst !== undefined && typeof o.normFirst !== 'boolean') throw new TypeError(`${OP}: normFirst must be a boolean; got ${describeValue(o.normFirst)}`);
    const p = o.dropout ?? 0.1;
    const bias = o.bias ?? true;
    const dtype = o.dtype ?? 'float32';
    const eps = o.layerNormEps ?? 1e-5;
    this.selfAttn = new MultiheadAttention(o.dModel!, o.nhead!, { dropout: p, bias, batchFirst: o.batchFirst ?? false, dtype });
    this.linear1 = new Linear(o.dModel!, ff, { bias, dtype });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(ff, o.dModel!, { bias, dtype });
    this.normFirst = o.normFirst ?? false;
    this.norm1 = new LayerNorm(o.dModel!, { eps, bias, dtype });
    this.norm2 = new LayerNorm(o.dModel!, { eps, bias, dtype });
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
    this.activation = activationFunction(o.activation ?? 'relu');
  }

  /** src as MultiheadAttention's query; options by position too (srcMask, srcKeyPaddingMask, isCausal). */
  forward(src: Tensor, ...args: unknown[]): Tensor {
    const o = byPosition<EncoderLayerForwardOptions>(`${OP}.forward`, args, ['srcMask', 'srcKeyPaddingMask', 'isCausal']);
    const attend = (x: Tensor) => {
      const [out] = this.selfAttn.forward(x, x, x, { attnMask: o.srcMask ?? null, keyPaddingMask: o.srcKeyPaddingMask ?? null, needWeights: false, isCausal: o.isCausal ?? false });
      return this.dropout1.forward(out);
    };
    const feedForward = (x: Tensor) => this.dropout2.forward(this.linear2.forward(this.dropout.forward(this.activation(this.linear1.forward(x)))));
    if (this.normFirst) {
      const x = src.add(attend(this.norm1.forward(src)));
      return x.add(feedForward(this.norm2.forward(x)));
    }
    const x = this.norm1.forward(src.add(attend(src)));
    return this.norm2.forward(x.add(feedForward(x)));
  }
}
