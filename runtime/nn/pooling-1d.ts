// nn.MaxPool1d and nn.AvgPool1d over the 1-d pooling ops; arguments by position in PyTorch's
// order or in options, checked when the layer is made.
import type { Tensor } from '../tensor.js';
import { avgPool1d, maxPool1d, type Pool1dOptions } from '../ops/nn/pooling-1d.js';
import { onlyPyTorchDefaults, UNIMPLEMENTED_POOL_OPTIONS } from '../ops/nn/pooling.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

type Size = number | readonly number[];
type MaxPool1dOptions = Omit<Pool1dOptions, 'countIncludePad'> & { kernelSize?: Size };
type AvgPool1dOptions = Omit<Pool1dOptions, 'dilation' | 'returnIndices'> & { kernelSize?: Size };

function pool1dArguments<T extends { kernelSize?: Size }>(layer: string, args: readonly unknown[], names: readonly (keyof T & string)[], defaults: Readonly<Record<string, unknown>>): { kernelSize: Size; options: Omit<T, 'kernelSize'> } {
  const { kernelSize, ...options } = layerArguments<T>(layer, args, names) as T;
  if (kernelSize === undefined) throw new TypeError(`nn.${layer}: kernelSize is required; e.g. new tpu.nn.${layer}(2)`);
  onlyPyTorchDefaults(`nn.${layer}`, options, defaults);
  return { kernelSize, options };
}

/**
 * 1-D max pooling as a layer (torch.nn.MaxPool1d).
 * @example new tpu.nn.MaxPool1d(2).forward(tpu.tensor([[[1, 3, 2, 0]]])) // [[[3, 2]]]
 */
export class MaxPool1d extends Module {
  readonly kernelSize: Size;
  readonly options: Omit<MaxPool1dOptions, 'kernelSize'>;

  constructor(...args: [kernelSize: Size, stride?: Size | null, padding?: Size, dilation?: Size, returnIndices?: false, ceilMode?: false] | [kernelSize: Size, options: MaxPool1dOptions] | [options: MaxPool1dOptions]) {
    super();
    ({ kernelSize: this.kernelSize, options: this.options } = pool1dArguments<MaxPool1dOptions>('MaxPool1d', args, ['kernelSize', 'stride', 'padding', 'dilation', 'returnIndices', 'ceilMode'], UNIMPLEMENTED_POOL_OPTIONS.max));
  }

  forward(x: Tensor): Tensor {
    return maxPool1d(x, this.kernelSize, this.options);
  }
}

/**
 * 1-D average pooling as a layer (torch.nn.AvgPool1d).
 * @example new tpu.nn.AvgPool1d(2).forward(tpu.tensor([[[1, 3, 2, 0]]])) // [[[2, 1]]]
 */
export class AvgPool1d extends Module {
  readonly kernelSize: Size;
  readonly options: Omit<AvgPool1dOptions, 'kernelSize'>;

  constructor(...args: [kernelSize: Size, stride?: Size | null, padding?: Size, ceilMode?: false, countIncludePad?: boolean] | [kernelSize: Size, options: AvgPool1dOptions] | [options: AvgPool1dOptions]) {
    super();
    ({ kernelSize: this.kernelSize, options: this.options } = pool1dArguments<AvgPool1dOptions>('AvgPool1d', args, ['kernelSize', 'stride', 'padding', 'ceilMode', 'countIncludePad'], UNIMPLEMENTED_POOL_OPTIONS.avg));
  }

  forward(x: Tensor): Tensor {
    return avgPool1d(x, this.kernelSize, this.options);
  }
}
