// nn.Conv2d: weight [out, in/groups, kh, kw] and bias [out], both U(-1/√fanIn, 1/√fanIn)
// (PyTorch's default init), over the conv2d op.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { conv2d, type ConvOptions } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { uniformParameter } from './init.js';
import { positiveInt } from './checks.js';
import { specialized, specializedOptions } from '../jit/live-number.js';

export interface Conv2dOptions extends Omit<ConvOptions, 'bias'> {
  bias?: boolean;
  dtype?: DType;
}

/**
 * 2-D convolution layer over [n, c, h, w] (torch.nn.Conv2d).
 * @example const conv = new tpu.nn.Conv2d(3, 16, 3, { padding: 1 })
 */
export class Conv2d extends Module {
  weight: Tensor;
  bias: Tensor | null;
  readonly kernelSize: [number, number];
  private readonly conv: ConvOptions;

  readonly inChannels: number;
  readonly outChannels: number;

  constructor(inChannels: number, outChannels: number, kernelSize: number | readonly [number, number], options: Conv2dOptions = {}) {
    super();
    readOptions<Conv2dOptions>('nn.Conv2d', options, ['bias', 'dtype', 'stride', 'padding', 'dilation', 'groups']);
    options = specializedOptions(options);
    inChannels = this.inChannels = positiveInt('Conv2d', 'inChannels', inChannels);
    outChannels = this.outChannels = positiveInt('Conv2d', 'outChannels', outChannels);
    const size = specialized(kernelSize);
    const k = typeof size === 'number' ? [size, size] : [...size];
    k.forEach((d, i) => positiveInt('Conv2d', `kernelSize[${i}]`, d));
    this.kernelSize = k as [number, number];
    const groups = positiveInt('Conv2d', 'groups', options.groups ?? 1);
    if (inChannels % groups || outChannels % groups) {
      throw new RangeError(`Conv2d: inChannels ${inChannels} and outChannels ${outChannels} must both be divisible by groups ${groups}`);
    }
    const fanIn = (inChannels / groups) * k[0]! * k[1]!;
    const bound = 1 / Math.sqrt(fanIn);
    const dtype = options.dtype ?? 'float32';
    this.weight = uniformParameter([outChannels, inChannels / groups, k[0]!, k[1]!], bound, dtype);
    this.bias = options.bias === false ? null : uniformParameter([outChannels], bound, dtype);
    const { bias: _bias, dtype: _dtype, ...conv } = options;
    this.conv = conv;
  }

  forward(x: Tensor): Tensor {
    return conv2d(x, this.weight, { ...this.conv, bias: this.bias });
  }

  protected override extraRepr(): string {
    return `${this.inChannels}, ${this.outChannels}, kernelSize=[${this.kernelSize.join(', ')}]`;
  }
}
