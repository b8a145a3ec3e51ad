// nn.Conv1d: weight [out, in/groups, k] and bias [out] (conv-parameters.ts), over the conv1d op.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { conv1d, type ConvOptions } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { LayerPadding, type PaddingMode } from './conv-padding-mode.js';
import { convParameters, kernelSizes } from './conv-parameters.js';
import { positiveInt } from './checks.js';
import { specializedOptions } from '../jit/live-number.js';

export interface Conv1dOptions extends Omit<ConvOptions, 'bias'> {
  bias?: boolean;
  dtype?: DType;
  /** 'zeros' (default), or the input padded by 'reflect', 'replicate' or 'circular' (PyTorch's padding_mode). */
  paddingMode?: PaddingMode;
}

/**
 * 1-D convolution layer over [n, c, length] or [c, length] (torch.nn.Conv1d).
 * @example const conv = new tpu.nn.Conv1d(16, 32, 3, { padding: 1 })
 */
export class Conv1d extends Module {
  weight: Tensor;
  bias: Tensor | null;
  readonly kernelSize: [number];
  private readonly convPadding: LayerPadding;

  readonly inChannels: number;
  readonly outChannels: number;

  constructor(inChannels: number, outChannels: number, kernelSize: number | readonly [number], options: Conv1dOptions = {}) {
    super();
    readOptions<Conv1dOptions>('nn.Conv1d', options, ['bias', 'dtype', 'stride', 'padding', 'dilation', 'groups', 'paddingMode']);
    options = specializedOptions(options);
    this.inChannels = positiveInt('Conv1d', 'inChannels', inChannels);
    this.outChannels = positiveInt('Conv1d', 'outChannels', outChannels);
    this.kernelSize = kernelSizes('Conv1d', kernelSize, 1) as [number];
    ({ weight: this.weight, bias: this.bias } = convParameters('Conv1d', this.inChannels, this.outChannels, this.kernelSize, options));
    this.convPadding = new LayerPadding('nn.Conv1d', this.kernelSize, options);
  }

  forward(x: Tensor): Tensor {
    return conv1d(this.convPadding.input(x), this.weight, { ...this.convPadding.conv, bias: this.bias });
  }

  protected override extraRepr(): string {
    return `${this.inChannels}, ${this.outChannels}, kernelSize=[${this.kernelSize[0]}]`;
  }
}
