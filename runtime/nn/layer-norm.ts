// nn.LayerNorm over the trailing normalizedShape dims (weight 1, bias 0 at init).
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { layerNorm } from '../ops/nn/normalization.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { positiveInt } from './checks.js';
import { specialized, specializedOptions } from '../jit/live-number.js';

export interface LayerNormOptions {
  eps?: number;
  elementwiseAffine?: boolean;
  /** With elementwiseAffine: a learned shift too (default true; false: the scale only, as PyTorch's bias=False). */
  bias?: boolean;
  dtype?: DType;
}

/**
 * Normalizes the last dims to mean 0, variance 1, then scales and shifts (torch.nn.LayerNorm).
 * @example const ln = new tpu.nn.LayerNorm(4); ln.forward(x).shape // [3, 4]
 */
export class LayerNorm extends Module {
  readonly normalizedShape: number[];
  readonly eps: number;
  weight: Tensor | null;
  bias: Tensor | null;

  constructor(normalizedShape: number | readonly number[], options: LayerNormOptions = {}) {
    super();
    readOptions<LayerNormOptions>('nn.LayerNorm', options, ['eps', 'elementwiseAffine', 'bias', 'dtype']);
    options = specializedOptions(options);
    const shape = specialized(normalizedShape);
    this.normalizedShape = (typeof shape === 'number' ? [shape] : [...shape]).map((d, i) => positiveInt('LayerNorm', `normalizedShape[${i}]`, d));
    this.eps = options.eps ?? 1e-5;
    const dtype = options.dtype ?? 'float32';
    const affine = options.elementwiseAffine ?? true;
    this.weight = affine ? constantParameter(this.normalizedShape, 1, dtype) : null;
    this.bias = affine && options.bias !== false ? constantParameter(this.normalizedShape, 0, dtype) : null;
  }

  forward(x: Tensor): Tensor {
    return layerNorm(x, this.normalizedShape, { weight: this.weight, bias: this.bias, eps: this.eps });
  }

  protected override extraRepr(): string {
    return `${formatShape(this.normalizedShape)}, eps=${this.eps}`;
  }
}
