// nn.GroupNorm over the groupNorm op (per-channel weight 1, bias 0 at init).
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { groupNorm } from '../ops/nn/group-norm.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { positiveInt } from './checks.js';
import { specializedOptions } from '../jit/live-number.js';

export interface GroupNormOptions {
  eps?: number;
  affine?: boolean;
  dtype?: DType;
}

/**
 * Normalizes each group of numChannels / numGroups channels of a sample (torch.nn.GroupNorm).
 * @example new tpu.nn.GroupNorm(2, 4).forward(tpu.tensor([[1, 3, 5, 9]])) // [[-1.0000, 1.0000, -1.0000, 1.0000]]
 */
export class GroupNorm extends Module {
  readonly eps: number;
  readonly affine: boolean;
  weight: Tensor | null;
  bias: Tensor | null;

  readonly numGroups: number;
  readonly numChannels: number;

  constructor(numGroups: number, numChannels: number, options: GroupNormOptions = {}) {
    super();
    readOptions<GroupNormOptions>('nn.GroupNorm', options, ['eps', 'affine', 'dtype']);
    options = specializedOptions(options);
    numGroups = this.numGroups = positiveInt('GroupNorm', 'numGroups', numGroups);
    numChannels = this.numChannels = positiveInt('GroupNorm', 'numChannels', numChannels);
    if (numChannels % numGroups !== 0) throw new RangeError(`GroupNorm: numChannels ${numChannels} must be divisible by numGroups ${numGroups}`);
    this.eps = options.eps ?? 1e-5;
    this.affine = options.affine ?? true;
    const dtype = options.dtype ?? 'float32';
    this.weight = this.affine ? constantParameter([numChannels], 1, dtype) : null;
    this.bias = this.affine ? constantParameter([numChannels], 0, dtype) : null;
  }

  forward(x: Tensor): Tensor {
    return groupNorm(x, this.numGroups, { weight: this.weight, bias: this.bias, eps: this.eps });
  }

  protected override extraRepr(): string {
    return `${this.numGroups}, ${this.numChannels}, eps=${this.eps}, affine=${this.affine}`;
  }
}
