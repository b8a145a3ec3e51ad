// torch.nn.MaxPool2d and AvgPool2d over the pooling ops; stride defaults to the kernel size.
import type { Tensor } from '../tensor.js';
import { maxPool2d, avgPool2d, checkDivisor, onlyPyTorchDefaults, UNIMPLEMENTED_POOL_OPTIONS, type PoolOptions } from '../ops/nn/pooling.js';
import { pair } from '../ops/nn/conv.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

type Size = number | readonly number[];

export interface MaxPool2dOptions {
  kernelSize?: Size;
  /** Default: the kernel size. */
  stride?: Size | null;
  padding?: Size;
  dilation?: Size;
  /** PyTorch's default only (false). */
  returnIndices?: false;
  /** PyTorch's default only (false). */
  ceilMode?: false;
}

export interface AvgPool2dOptions {
  kernelSize?: Size;
  /** Default: the kernel size. */
  stride?: Size | null;
  padding?: Size;
  /** PyTorch's default only (false). */
  ceilMode?: false;
  /** Count padded zeros in the average (default true). */
  countIncludePad?: boolean;
  /** Divide each window's sum by this nonzero integer (default null: by the window's count). */
  divisorOverride?: number | null;
}

const show = (v: Size) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);

/** The pooling arguments read and checked when the layer is made, not at its first forward. */
function poolArguments<T extends MaxPool2dOptions | AvgPool2dOptions>(layer: string, args: readonly unknown[], names: readonly (keyof T & string)[], keywordOnly: readonly (keyof T & string)[] = []): { kernelSize: Size; stride: Size; padding: Size; rest: Partial<T> } {
  const o = layerArguments<T>(layer, args, names, keywordOnly) as Partial<T> & MaxPool2dOptions;
  const who = `nn.${layer}`;
  if (o.kernelSize === undefined) throw new TypeError(`${who}: kernelSize is required; e.g. new tpu.nn.${layer}(2)`);
  pair(who, 'kernelSize', o.kernelSize, [], 1);
  const stride = o.stride ?? o.kernelSize;
  pair(who, 'stride', stride, [], 1);
  const padding = o.padding ?? 0;
  pair(who, 'padding', padding, [], 0);
  const { kernelSize, stride: _stride, padding: _padding, ...rest } = o;
  return { kernelSize, stride, padding, rest: rest as Partial<T> };
}

/**
 * 2-D max pooling over [N, C, H, W] or [C, H, W] (torch.nn.MaxPool2d).
 * @example new tpu.nn.MaxPool2d(2).forward(images).shape // [2, 3, 4, 4]
 */
export class MaxPool2d extends Module {
  readonly kernelSize: Size;
  readonly stride: Size;
  readonly padding: Size;
  readonly dilation: Size;

  constructor(...args: [kernelSize: Size, stride?: Size | null, padding?: Size, dilation?: Size, returnIndices?: false, ceilMode?: false] | [kernelSize: Size, options: MaxPool2dOptions] | [options: MaxPool2dOptions]) {
    super();
    const { kernelSize, stride, padding, rest } = poolArguments<MaxPool2dOptions>('MaxPool2d', args, ['kernelSize', 'stride', 'padding', 'dilation', 'returnIndices', 'ceilMode']);
    onlyPyTorchDefaults('nn.MaxPool2d', rest, UNIMPLEMENTED_POOL_OPTIONS.max);
    this.dilation = rest.dilation ?? 1;
    pair('nn.MaxPool2d', 'dilation', this.dilation, [], 1);
    this.kernelSize = kernelSize;
    this.stride = stride;
    this.padding = padding;
  }

  forward(x: Tensor): Tensor {
    return maxPool2d(x, this.kernelSize, { stride: this.stride, padding: this.padding, dilation: this.dilation });
  }

  protected override extraRepr(): string {
    return `kernelSize=${show(this.kernelSize)}, stride=${show(this.stride)}, padding=${show(this.padding)}, dilation=${show(this.dilation)}`;
  }
}

/**
 * 2-D average pooling over [N, C, H, W] or [C, H, W] (torch.nn.AvgPool2d).
 * @example new tpu.nn.AvgPool2d(2).forward(tpu.tensor([[[[1, 2], [3, 6]]]])) // [[[[3]]]]
 */
export class AvgPool2d extends Module {
  readonly kernelSize: Size;
  readonly stride: Size;
  readonly padding: Size;
  readonly countIncludePad: boolean;
  readonly divisorOverride: number | null;

  constructor(...args: [kernelSize: Size, stride?: Size | null, padding?: Size, ceilMode?: false, countIncludePad?: boolean, divisorOverride?: number | null] | [kernelSize: Size, options: AvgPool2dOptions] | [options: AvgPool2dOptions]) {
    super();
    const { kernelSize, stride, padding, rest } = poolArguments<AvgPool2dOptions>('AvgPool2d', args, ['kernelSize', 'stride', 'padding', 'ceilMode', 'countIncludePad', 'divisorOverride']);
    onlyPyTorchDefaults('nn.AvgPool2d', rest, UNIMPLEMENTED_POOL_OPTIONS.avg);
    this.divisorOverride = checkDivisor('nn.AvgPool2d', rest.divisorOverride);
    const count = rest.countIncludePad ?? true;
    if (typeof count !== 'boolean') throw new TypeError(`nn.AvgPool2d: countIncludePad must be a boolean; got ${JSON.stringify(count)}`);
    this.kernelSize = kernelSize;
    this.stride = stride;
    this.padding = padding;
    this.countIncludePad = count;
  }

  forward(x: Tensor): Tensor {
    const options: PoolOptions = { stride: this.stride, padding: this.padding, countIncludePad: this.countIncludePad, divisorOverride: this.divisorOverride };
    return avgPool2d(x, this.kernelSize, options);
  }

  protected override extraRepr(): string {
    return `kernelSize=${show(this.kernelSize)}, stride=${show(this.stride)}, padding=${show(this.padding)}`;
  }
}
