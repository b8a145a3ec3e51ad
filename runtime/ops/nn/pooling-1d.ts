// maxPool1d and avgPool1d: the 2-d pools over [N, C, 1, L] (PyTorch's avg_pool1d is the same,
// layout included), with 1-d arguments checked here so errors speak of the call the user wrote.
import { isInteger } from '../../dtype.js';
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { maxPool2d, avgPool2d, onlyPyTorchDefaults, UNIMPLEMENTED_POOL_OPTIONS, type PoolOptions } from './pooling.js';
import { specialized } from '../../jit/live-number.js';

export interface Pool1dOptions {
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  /** maxPool1d only. */
  dilation?: number | readonly number[];
  /** avgPool1d only: count padded zeros in the average (PyTorch's default true). */
  countIncludePad?: boolean;
  /** PyTorch's default only (false): an output size rounded up is not supported. */
  ceilMode?: false;
  /** maxPool1d only, PyTorch's default only (false): indices are not returned. */
  returnIndices?: false;
}

/** An integer ≥ min, given as a number or a list of one (PyTorch's int or 1-tuple). */
function single(op: string, name: string, v: number | readonly number[] | null | undefined, fallback: number, min: number): number {
  v = specialized(v);
  const n = v === undefined || v === null ? fallback : typeof v === 'number' ? v : Array.isArray(v) && v.length === 1 ? v[0] : NaN;
  if (!Number.isInteger(n) || n! < min) throw new RangeError(`${op}: ${name} must be an integer ≥ ${min} or a list of one; got ${JSON.stringify(v)}`);
  return n!;
}

function pool1d(op: string, x: Tensor, kernelSize: number | readonly number[], opts: Pool1dOptions, pool2d: typeof maxPool2d): Tensor {
  const unimplemented = UNIMPLEMENTED_POOL_OPTIONS[pool2d === maxPool2d ? 'max' : 'avg'];
  const o = readOptions<Pool1dOptions>(op, opts, [...(pool2d === maxPool2d ? ['stride', 'padding', 'dilation'] as const : ['stride', 'padding', 'countIncludePad'] as const), ...Object.keys(unimplemented) as (keyof Pool1dOptions)[]]);
  onlyPyTorchDefaults(op, o, unimplemented);
  if (!(x instanceof Tensor) || (x.ndim !== 3 && x.ndim !== 2)) {
    throw new RangeError(`${op}: input must be [N, C, L] or [C, L]; got ${x instanceof Tensor ? formatShape(x.shape) : typeof x}`);
  }
  if (x.dtype === 'bool' || (pool2d === avgPool2d && isInteger(x.dtype))) throw new TypeError(`${op}: input of dtype ${x.dtype} is not supported`);
  const k = single(op, 'kernelSize', kernelSize, NaN, 1);
  const s = single(op, 'stride', o.stride, k, 1);
  const p = single(op, 'padding', o.padding, 0, 0);
  const d = single(op, 'dilation', o.dilation, 1, 1);
  if (p > k / 2) throw new RangeError(`${op}: padding ${p} must be at most half the kernel ${k}`);
  const length = x.shape[x.ndim - 1]!;
  if (length + 2 * p - d * (k - 1) - 1 < 0) throw new RangeError(`${op}: the kernel ${k} (dilation ${d}) is longer than the padded input ${formatShape(x.shape)}`);
  const options: PoolOptions = { stride: [1, s], padding: [0, p] };
  if (o.dilation !== undefined) options.dilation = [1, d];
  if (o.countIncludePad !== undefined) options.countIncludePad = o.countIncludePad;
  return pool2d(x.unsqueeze(-2), [1, k], options).squeeze(-2);
}

/**
 * 1-D max pooling over [N, C, L] or [C, L] (torch.nn.functional.max_pool1d).
 * @example tpu.nn.functional.maxPool1d(tpu.tensor([[[1, 3, 2, 0]]]), 2) // [[[3, 2]]]
 */
export function maxPool1d(x: Tensor, kernelSize: number | readonly number[], opts: Pool1dOptions = {}): Tensor {
  // row-major, as PyTorch's own 1-d kernel writes it (the 2-d pool keeps a transposed input's channels-last layout)
  return pool1d('maxPool1d', x, kernelSize, opts, maxPool2d).contiguous();
}

/**
 * 1-D average pooling over [N, C, L] or [C, L] (torch.nn.functional.avg_pool1d).
 * @example tpu.nn.functional.avgPool1d(tpu.tensor([[[1, 3, 2, 0]]]), 2) // [[[2, 1]]]
 */
export function avgPool1d(x: Tensor, kernelSize: number | readonly number[], opts: Pool1dOptions = {}): Tensor {
  return pool1d('avgPool1d', x, kernelSize, opts, avgPool2d);
}
