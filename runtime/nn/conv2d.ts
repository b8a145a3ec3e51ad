// nn.Conv2d: weight [out, in/groups, kh, kw] and bias [out] (conv-parameters.ts), over the conv2d op.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { conv2d, type ConvOptions } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { LayerPadding, type PaddingMode } from './conv-padding-mode.js';
import { positiveInt } from './checks.js';
import { specializedOptions } from '../jit/live-number.js';
import { convParameters, kernelSizes } from './conv-parameters.js';

export interface Conv2dOptions extends Omit<ConvOptions, 'bias'> {
  bias?: boolean;
  dtype?: DType;
  /** 'zeros' (default), or the input padded by 'reflect', 'replicate' or 'circular' (PyTorch's padding_mode). */
  paddingMode?: PaddingMode;
}

/**
 * 2-D convolution layer over [n, c, h, w] (torch.nn.Conv2d).
 * @example const conv = new tpu.nn.Conv2d(3, 16, 3, { padding: 1 })
 */
export class Conv2d extends Module {
  weight: Tensor;
  bias: Tensor | null;
  readonly kernelSize: [number, number];
  private readonly convPadding: LayerPadding;

  readonly inChannels: number;
  readonly outChannels: number;

  constructor(inChannels: number, outChannels: number, kernelSize: number | readonly [number, number], options: Conv2dOptions = {}) {
    super();
    readOptions<Conv2dOptions>('nn.Conv2d', options, ['bias', 'dtype', 'stride', 'padding', 'dilation', 'groups', 'paddingMode']);
    options = specializedOptions(options);
    this.inChannels = positiveInt('Conv2d', 'inChannels', inChannels);
    this.outChannels = positiveInt('Conv2d', 'outChannels', outChannels);
    this.kernelSize = kernelSizes('Conv2d', kernelSize, 2) as [number, number];
    ({ weight: this.weight, bias: this.bias } = convParameters('Conv2d', this.inChannels, this.outChannels, this.kernelSize, options));
    this.convPadding = new LayerPadding('nn.Conv2d', this.kernelSize, options);
  }

  forward(x: Tensor): Tensor {
    return conv2d(this.convPadding.input(x), this.weight, { ...this.convPadding.conv, bias: this.bias });
  }

  protected override extraRepr(): string {
    return `${this.inChannels}, ${this.outChannels}, kernelSize=[${this.kernelSize.join(', ')}]`;
  }
}
