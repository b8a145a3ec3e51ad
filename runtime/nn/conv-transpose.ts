// nn.ConvTranspose1d and nn.ConvTranspose2d: weight [in, out/groups, ...kernel] and bias [out]
// (conv-parameters.ts), over the transposed conv functions; forward's outputSize picks the
// outputPadding, as PyTorch's _output_padding.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { convTranspose1d, convTranspose2d, transposeAttrs, type ConvTransposeOptions } from '../ops/nn/conv-transpose.js';
import type { ConvTransposeAttrs } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { convParameters, kernelSizes } from './conv-parameters.js';
import { positiveInt } from './checks.js';
import { specialized, specializedOptions } from '../jit/live-number.js';
import { formatShape } from '../shape.js';

export interface ConvTransposeLayerOptions extends Omit<ConvTransposeOptions, 'bias'> {
  bias?: boolean;
  dtype?: DType;
}

const KEYS: readonly (keyof ConvTransposeLayerOptions)[] = ['bias', 'dtype', 'stride', 'padding', 'outputPadding', 'groups', 'dilation'];

abstract class ConvTransposeNd extends Module {
  weight: Tensor;
  bias: Tensor | null;
  readonly inChannels: number;
  readonly outChannels: number;
  readonly kernelSize: number[];
  protected readonly conv: Omit<ConvTransposeOptions, 'bias'>;
  /** The options checked when the layer is made, as the primitive takes them. */
  private readonly attrs: ConvTransposeAttrs;

  constructor(private readonly layer: string, private readonly dims: 1 | 2, inChannels: number, outChannels: number, kernelSize: number | readonly number[], options: ConvTransposeLayerOptions) {
    super();
    readOptions<ConvTransposeLayerOptions>(`nn.${layer}`, options, KEYS);
    options = specializedOptions(options);
    this.inChannels = positiveInt(layer, 'inChannels', inChannels);
    this.outChannels = positiveInt(layer, 'outChannels', outChannels);
    this.kernelSize = kernelSizes(layer, kernelSize, dims);
    ({ weight: this.weight, bias: this.bias } = convParameters(layer, this.inChannels, this.outChannels, this.kernelSize, options, true));
    const { bias: _bias, dtype: _dtype, ...conv } = options;
    this.conv = conv;
    this.attrs = transposeAttrs(`nn.${layer}`, conv, dims);
  }

  /**
   * The outputPadding that makes the output `outputSize` (its last `dims` sizes count), checked
   * against the sizes reachable from x as PyTorch's _output_padding checks them.
   */
  protected outputPadding(x: Tensor, outputSize: readonly number[] | undefined): ConvTransposeOptions['outputPadding'] {
    const size = specialized(outputSize);
    if (size === undefined || size === null) return this.conv.outputPadding;
    const d = this.dims;
    if (!Array.isArray(size) || ![d, d + 1, d + 2].includes(size.length) || !size.every(Number.isInteger)) {
      throw new TypeError(`${this.layer}: outputSize must be ${d} integers (or ${d + 2} with batch and channels); got ${JSON.stringify(size)}`);
    }
    const want = size.slice(-d);
    const spatial = x.shape.slice(-d);
    const [stride, padding, dilation] = [this.attrs.stride, this.attrs.padding, this.attrs.dilation].map((v) => v.slice(-d));
    const min = spatial.map((n, i) => (n - 1) * stride[i]! - 2 * padding[i]! + dilation[i]! * (this.kernelSize[i]! - 1) + 1);
    const max = min.map((m, i) => m + stride[i]! - 1);
    if (want.some((n, i) => n < min[i]! || n > max[i]!)) {
      throw new RangeError(`${this.layer}: requested an outputSize of ${formatShape(want)}, but valid sizes range from ${formatShape(min)} to ${formatShape(max)} (for an input of ${formatShape(spatial)})`);
    }
    return want.map((n, i) => n - min[i]!);
  }

  protected override extraRepr(): string {
    return `${this.inChannels}, ${this.outChannels}, kernelSize=[${this.kernelSize.join(', ')}]`;
  }
}

/**
 * Transposed 1-D convolution layer over [n, c, length] or [c, length] (torch.nn.ConvTranspose1d):
 * a strided one upsamples.
 * @example const up = new tpu.nn.ConvTranspose1d(16, 8, 4, { stride: 2, padding: 1 })
 */
export class ConvTranspose1d extends ConvTransposeNd {
  constructor(inChannels: number, outChannels: number, kernelSize: number | readonly [number], options: ConvTransposeLayerOptions = {}) {
    super('ConvTranspose1d', 1, inChannels, outChannels, kernelSize, options);
  }

  /** outputSize: the length wanted, [l] (or [n, c, l]), where the stride allows several. */
  forward(x: Tensor, outputSize?: readonly number[]): Tensor {
    return convTranspose1d(x, this.weight, this.bias, { ...this.conv, outputPadding: this.outputPadding(x, outputSize) });
  }
}

/**
 * Transposed 2-D convolution layer over [n, c, h, w] or [c, h, w] (torch.nn.ConvTranspose2d):
 * a strided one upsamples.
 * @example const up = new tpu.nn.ConvTranspose2d(16, 8, 4, { stride: 2, padding: 1 })
 */
export class ConvTranspose2d extends ConvTransposeNd {
  constructor(inChannels: number, outChannels: number, kernelSize: number | readonly [number, number], options: ConvTransposeLayerOptions = {}) {
    super('ConvTranspose2d', 2, inChannels, outChannels, kernelSize, options);
  }

  /** outputSize: the [h, w] wanted (or [n, c, h, w]), where the stride allows several. */
  forward(x: Tensor, outputSize?: readonly number[]): Tensor {
    return convTranspose2d(x, this.weight, this.bias, { ...this.conv, outputPadding: this.outputPadding(x, outputSize) });
  }
}
