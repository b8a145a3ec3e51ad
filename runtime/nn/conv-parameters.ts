// The weight and bias of nn.Conv1d and nn.Conv2d: weight [out, in/groups, ...kernel] and bias
// [out], both U(-1/√fanIn, 1/√fanIn) (PyTorch's default init).
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { uniformParameter } from './init.js';
import { checkPositiveInt } from './checks.js';

export interface ConvParameterOptions {
  groups?: number;
  bias?: boolean;
  dtype?: DType;
}

/** The kernel size given as one number or one per spatial dim, checked. */
export function kernelSizes(layer: string, kernelSize: number | readonly number[], dims: number): number[] {
  const k = typeof kernelSize === 'number' ? new Array<number>(dims).fill(kernelSize) : [...kernelSize];
  if (k.length !== dims) throw new RangeError(`${layer}: kernelSize must be one integer or ${dims} of them; got ${JSON.stringify(kernelSize)}`);
  k.forEach((d, i) => checkPositiveInt(layer, `kernelSize[${i}]`, d));
  return k;
}

export function convParameters(layer: string, inChannels: number, outChannels: number, kernel: readonly number[], options: ConvParameterOptions): { weight: Tensor; bias: Tensor | null } {
  checkPositiveInt(layer, 'inChannels', inChannels);
  checkPositiveInt(layer, 'outChannels', outChannels);
  const groups = options.groups ?? 1;
  checkPositiveInt(layer, 'groups', groups);
  if (inChannels % groups || outChannels % groups) {
    throw new RangeError(`${layer}: inChannels ${inChannels} and outChannels ${outChannels} must both be divisible by groups ${groups}`);
  }
  const fanIn = (inChannels / groups) * kernel.reduce((a, b) => a * b, 1);
  const bound = 1 / Math.sqrt(fanIn);
  const dtype = options.dtype ?? 'float32';
  return {
    weight: uniformParameter([outChannels, inChannels / groups, ...kernel], bound, dtype),
    bias: options.bias === false ? null : uniformParameter([outChannels], bound, dtype),
  };
}
