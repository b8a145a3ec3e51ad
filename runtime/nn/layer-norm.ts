// nn.LayerNorm over the trailing normalizedShape dims: (x - mean) / √(var + eps) · w + b,
// with the biased variance, as PyTorch.
import type { DType } from '../dtype.js';
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { checkPositiveInt } from './checks.js';

export interface LayerNormOptions {
  eps?: number;
  elementwiseAffine?: boolean;
  dtype?: DType;
}

export function layerNorm(x: Tensor, normalizedShape: readonly number[], weight: Tensor | null, bias: Tensor | null, eps = 1e-5): Tensor {
  const n = normalizedShape.length;
  if (!shapesEqual(x.shape.slice(x.ndim - n), normalizedShape)) {
    throw new RangeError(`layerNorm: input ${formatShape(x.shape)} must end with the normalized shape ${formatShape(normalizedShape)}`);
  }
  const dims = Array.from({ length: n }, (_, i) => x.ndim - n + i);
  const centered = x.sub(x.mean(dims, true));
  const variance = centered.mul(centered).mean(dims, true);
  let y = centered.div(variance.add(eps).sqrt());
  if (weight) y = y.mul(weight);
  if (bias) y = y.add(bias);
  return y;
}

export class LayerNorm extends Module {
  readonly normalizedShape: number[];
  readonly eps: number;
  weight: Tensor | null;
  bias: Tensor | null;

  constructor(normalizedShape: number | readonly number[], options: LayerNormOptions = {}) {
    super();
    this.normalizedShape = typeof normalizedShape === 'number' ? [normalizedShape] : [...normalizedShape];
    this.normalizedShape.forEach((d, i) => checkPositiveInt('LayerNorm', `normalizedShape[${i}]`, d));
    this.eps = options.eps ?? 1e-5;
    const dtype = options.dtype ?? 'float32';
    const affine = options.elementwiseAffine ?? true;
    this.weight = affine ? constantParameter(this.normalizedShape, 1, dtype) : null;
    this.bias = affine ? constantParameter(this.normalizedShape, 0, dtype) : null;
  }

  forward(x: Tensor): Tensor {
    return layerNorm(x, this.normalizedShape, this.weight, this.bias, this.eps);
  }

  protected override extraRepr(): string {
    return `${formatShape(this.normalizedShape)}, eps=${this.eps}`;
  }
}
