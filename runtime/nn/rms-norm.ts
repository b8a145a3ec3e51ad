// nn.RMSNorm over the trailing normalizedShape dims (weight 1 at init; no bias, as PyTorch's).
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { rmsNorm } from '../ops/nn/normalization.js';
import { numberOption } from '../ops/nn/number-option.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { positiveInt } from './checks.js';
import { layerArguments } from './layer-arguments.js';

export interface RMSNormOptions {
  normalizedShape?: number | readonly number[];
  /** Added to the mean square; by default float32's epsilon, 2⁻²³, as PyTorch's eps=None. */
  eps?: number | null;
  elementwiseAffine?: boolean;
  dtype?: DType;
}

/**
 * Divides the last dims by their root mean square, then scales (torch.nn.RMSNorm).
 * @example const norm = new tpu.nn.RMSNorm(4); norm.forward(x).shape // [3, 4]
 */
export class RMSNorm extends Module {
  readonly normalizedShape: number[];
  /** null: the input's epsilon (PyTorch's eps=None). */
  readonly eps: number | null;
  readonly elementwiseAffine: boolean;
  weight: Tensor | null;

  constructor(...args: [normalizedShape: number | readonly number[], eps?: number | null, elementwiseAffine?: boolean]
    | [normalizedShape: number | readonly number[], options: Omit<RMSNormOptions, 'normalizedShape'>]
    | [normalizedShape: number | readonly number[], eps: number | null, options: Omit<RMSNormOptions, 'normalizedShape' | 'eps'>]
    | [normalizedShape: number | readonly number[], eps: number | null, elementwiseAffine: boolean, options: Pick<RMSNormOptions, 'dtype'>]
    | [options: RMSNormOptions]) {
    super();
    const o = layerArguments<RMSNormOptions>('RMSNorm', args, ['normalizedShape', 'eps', 'elementwiseAffine'], ['dtype']);
    if (o.normalizedShape === undefined) throw new TypeError('nn.RMSNorm: normalizedShape is required');
    this.normalizedShape = typeof o.normalizedShape === 'number' ? [o.normalizedShape] : [...o.normalizedShape];
    this.normalizedShape.forEach((d, i) => positiveInt('nn.RMSNorm', `normalizedShape[${i}]`, d));
    this.eps = o.eps === null || o.eps === undefined ? null : numberOption('nn.RMSNorm', 'eps', o.eps, 0);
    if (o.elementwiseAffine !== undefined && typeof o.elementwiseAffine !== 'boolean') throw new TypeError(`nn.RMSNorm: elementwiseAffine must be a boolean; got ${JSON.stringify(o.elementwiseAffine)}`);
    this.elementwiseAffine = o.elementwiseAffine ?? true;
    this.weight = this.elementwiseAffine ? constantParameter(this.normalizedShape, 1, o.dtype ?? 'float32') : null;
  }

  forward(x: Tensor): Tensor {
    return rmsNorm(x, this.normalizedShape, { weight: this.weight, ...(this.eps === null ? {} : { eps: this.eps }) });
  }

  protected override extraRepr(): string {
    return `${formatShape(this.normalizedShape)}, eps=${this.eps}, elementwiseAffine=${this.elementwiseAffine}`;
  }
}
