// The weight and bias of nn.Conv1d/2d and nn.ConvTranspose1d/2d: weight [out, in/groups, ...kernel]
// ([in, out/groups, ...kernel] transposed) and bias [out], both U(-1/√fanIn, 1/√fanIn), fanIn the
// weight's dim 1 times the kernel size (PyTorch's default init).
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { uniformParameter } from './init.js';
import { positiveInt } from './checks.js';
import { specialized } from '../jit/live-number.js';

export interface ConvParameterOptions {
  groups?: number;
  bias?: boolean;
  dtype?: DType;
}

/** The kernel size given as one number or one per spatial dim, checked. */
export function kernelSizes(layer: string, kernelSize: number | readonly number[], dims: number): number[] {
  const size = specialized(kernelSize);
  const k = typeof size === 'number' ? new Array<number>(dims).fill(size) : [...size];
  if (k.length !== dims) throw new RangeError(`${layer}: kernelSize must be one integer or ${dims} of them; got ${JSON.stringify(size)}`);
  return k.map((d, i) => positiveInt(layer, `kernelSize[${i}]`, d));
}

export function convParameters(layer: string, inChannels: number, outChannels: number, kernel: readonly number[], options: ConvParameterOptions, transposed = false): { weight: Tensor; bias: Tensor | null } {
  positiveInt(layer, 'inChannels', inChannels);
  positiveInt(layer, 'outChannels', outChannels);
  const groups = positiveInt(layer, 'groups', options.groups ?? 1);
  if (inChannels % groups || outChannels % groups) {
    throw new RangeError(`${layer}: inChannels ${inChannels} and outChannels ${outChannels} must both be divisible by groups ${groups}`);
  }
  const shape = transposed ? [inChannels, outChannels / groups, ...kernel] : [outChannels, inChannels / groups, ...kernel];
  const fanIn = shape[1]! * kernel.reduce((a, b) => a * b, 1);
  const bound = 1 / Math.sqrt(fanIn);
  const dtype = options.dtype ?? 'float32';
  return {
    weight: uniformParameter(shape, bound, dtype),
    bias: options.bias === false ? null : uniformParameter([outChannels], bound, dtype),
  };
}
