// nn.Linear: y = x Wᵀ + b, W [out, in] as in PyTorch, initialized U(-1/√in, 1/√in).
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { Module } from './module.js';
import { uniformParameter } from './init.js';
import { positiveInt } from './checks.js';
import { linear } from '../ops/linalg.js';

export interface LinearOptions {
  bias?: boolean;
  dtype?: DType;
}

/**
 * y = x W^T + b, for input [..., inFeatures] (torch.nn.Linear).
 * @example const fc = new tpu.nn.Linear(4, 10); fc.forward(x).shape // [3, 10]
 */
export class Linear extends Module {
  weight: Tensor;
  bias: Tensor | null;

  readonly inFeatures: number;
  readonly outFeatures: number;

  constructor(inFeatures: number, outFeatures: number, options: LinearOptions = {}) {
    super();
    readOptions<LinearOptions>('nn.Linear', options, ['bias', 'dtype']);
    inFeatures = this.inFeatures = positiveInt('Linear', 'inFeatures', inFeatures);
    outFeatures = this.outFeatures = positiveInt('Linear', 'outFeatures', outFeatures);
    const bound = 1 / Math.sqrt(inFeatures);
    const dtype = options.dtype ?? 'float32';
    this.weight = uniformParameter([outFeatures, inFeatures], bound, dtype);
    this.bias = options.bias === false ? null : uniformParameter([outFeatures], bound, dtype);
  }

  forward(x: Tensor): Tensor {
    return linear(x, this.weight, this.bias);
  }

  protected override extraRepr(): string {
    return `inFeatures=${this.inFeatures}, outFeatures=${this.outFeatures}, bias=${this.bias !== null}`;
  }
}
