// torch.nn.Flatten, Unflatten and Identity: layers that only reshape (or pass) their input.
import type { Tensor } from '../tensor.js';
import { flatten, unflatten } from '../ops/shape-ops.js';
import { intArray } from '../shape-args.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

export interface FlattenOptions {
  /** The first dim joined (default 1: the batch dim stays). */
  startDim?: number;
  /** The last dim joined (default -1). */
  endDim?: number;
}

function integer(layer: string, name: string, v: unknown): number {
  if (!Number.isInteger(v)) throw new TypeError(`nn.${layer}: ${name} must be an integer; got ${JSON.stringify(v)}`);
  return v as number;
}

/**
 * Joins dims startDim..endDim into one, the batch dim kept by default (torch.nn.Flatten).
 * @example new tpu.nn.Flatten().forward(tpu.zeros([2, 3, 4])).shape // [2, 12]
 */
export class Flatten extends Module {
  readonly startDim: number;
  readonly endDim: number;

  constructor(...args: [startDim?: number, endDim?: number] | [startDim: number, options: Omit<FlattenOptions, 'startDim'>] | [options: FlattenOptions]) {
    super();
    const o = layerArguments<FlattenOptions>('Flatten', args, ['startDim', 'endDim']);
    this.startDim = integer('Flatten', 'startDim', o.startDim ?? 1);
    this.endDim = integer('Flatten', 'endDim', o.endDim ?? -1);
  }

  forward(x: Tensor): Tensor {
    return flatten(x, this.startDim, this.endDim);
  }

  protected override extraRepr(): string {
    return `startDim=${this.startDim}, endDim=${this.endDim}`;
  }
}

export interface UnflattenOptions {
  dim: number;
  /** The sizes dim is split into; one may be -1. */
  unflattenedSize: readonly number[];
}

/**
 * Splits dim into the given sizes (torch.nn.Unflatten).
 * @example new tpu.nn.Unflatten(1, [3, 4]).forward(tpu.zeros([2, 12])).shape // [2, 3, 4]
 */
export class Unflatten extends Module {
  readonly dim: number;
  readonly unflattenedSize: readonly number[];

  constructor(...args: [dim: number, unflattenedSize: readonly number[]] | [options: UnflattenOptions]) {
    super();
    const o = layerArguments<UnflattenOptions>('Unflatten', args, ['dim', 'unflattenedSize']);
    this.dim = integer('Unflatten', 'dim', o.dim);
    this.unflattenedSize = [...intArray('nn.Unflatten', o.unflattenedSize, 'unflattenedSize', -1)];
  }

  forward(x: Tensor): Tensor {
    return unflatten(x, this.dim, this.unflattenedSize);
  }

  protected override extraRepr(): string {
    return `dim=${this.dim}, unflattenedSize=[${this.unflattenedSize.join(', ')}]`;
  }
}

/**
 * Returns its input (torch.nn.Identity); like PyTorch's, it takes and ignores any arguments,
 * so it can stand in for another layer.
 * @example const head = new tpu.nn.Identity(); head.forward(x).shape // [3, 4]
 */
export class Identity extends Module {
  constructor(..._args: unknown[]) {
    super();
  }

  forward(x: Tensor): Tensor {
    return x;
  }
}
