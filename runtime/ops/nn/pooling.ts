// maxPool2d and avgPool2d, composed: the kernel's kh·kw strided slices of the padded input
// combined with maximum / add, so the gradient needs nothing of its own.
import { INT32_MIN, INT64_LIMIT, isFloating, isInteger, type DType } from '../../dtype.js';
import { where } from '../where.js';
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { pair } from './conv.js';
import { pad } from '../pad.js';
import { onesLike } from '../like.js';
import { fullSlice, applySlice } from '../slice.js';
import { imageLayout } from '../../views/result-layout.js';
import { specialized } from '../../jit/live-number.js';

export interface PoolOptions {
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  /** maxPool2d only. */
  dilation?: number | readonly number[];
  /** avgPool2d only: count padded zeros in the average (PyTorch's default true). */
  countIncludePad?: boolean;
  /** avgPool2d only: divide each window's sum by this nonzero integer instead (PyTorch's default null). */
  divisorOverride?: number | null;
  /** PyTorch's default only (false): an output size rounded up is not supported. */
  ceilMode?: false;
  /** maxPool2d only, PyTorch's default only (false): indices are not returned. */
  returnIndices?: false;
}

/**
 * PyTorch's pooling options not implemented here, by pool, with their defaults: the default is
 * accepted (code written for PyTorch spells it out), another value is an error.
 */
export const UNIMPLEMENTED_POOL_OPTIONS = {
  max: { ceilMode: false, returnIndices: false },
  avg: { ceilMode: false },
} as const;

/** Throws where `options` gives one of `defaults`' keys another value than PyTorch's default. */
export function onlyPyTorchDefaults(op: string, options: object, defaults: Readonly<Record<string, unknown>>): void {
  for (const [key, fallback] of Object.entries(defaults)) {
    const given = (options as Record<string, unknown>)[key];
    if (given !== undefined && given !== fallback) throw new TypeError(`${op}: ${key}: ${JSON.stringify(given)} is not supported, only PyTorch's default ${JSON.stringify(fallback)}`);
  }
}

/** avgPool2d's divisorOverride: null, or a nonzero integer (PyTorch's int). */
export function checkDivisor(op: string, given: unknown): number | null {
  const value = specialized(given);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value === 0) throw new TypeError(`${op}: divisorOverride must be a nonzero integer or null; got ${JSON.stringify(value)}`);
  return value;
}

/** Max-pooling's padding: the lowest value of an integer dtype (floats pad with -inf). */
const LOWEST: Partial<Record<DType, number>> = { int32: INT32_MIN, int64: -INT64_LIMIT };

function pool(op: string, x: Tensor, kernelSize: number | readonly number[], o: PoolOptions, combine: 'max' | 'avg'): Tensor {
  if (!(x instanceof Tensor) || (x.ndim !== 4 && x.ndim !== 3)) {
    throw new RangeError(`${op}: input must be [N, C, H, W] or [C, H, W]; got ${x instanceof Tensor ? formatShape(x.shape) : typeof x}`);
  }
  if (x.dtype === 'bool' || (combine === 'avg' && isInteger(x.dtype))) throw new TypeError(`${op}: input of dtype ${x.dtype} is not supported`);
  const unimplemented = UNIMPLEMENTED_POOL_OPTIONS[combine];
  readOptions<PoolOptions>(op, o, [...(combine === 'max' ? ['stride', 'padding', 'dilation'] as const : ['stride', 'padding', 'countIncludePad', 'divisorOverride'] as const), ...Object.keys(unimplemented) as (keyof PoolOptions)[]]);
  onlyPyTorchDefaults(op, o, unimplemented);
  const divisor = checkDivisor(op, o.divisorOverride);
  const k = pair(op, 'kernelSize', kernelSize, [], 1);
  const s = pair(op, 'stride', o.stride, k, 1);
  const p = pair(op, 'padding', o.padding, [0, 0], 0);
  const d = pair(op, 'dilation', o.dilation, [1, 1], 1);
  if (p[0] > k[0] / 2 || p[1] > k[1] / 2) throw new RangeError(`${op}: padding ${formatShape(p)} must be at most half the kernel ${formatShape(k)}`);
  const h = x.shape[x.ndim - 2]!;
  const w = x.shape[x.ndim - 1]!;
  const out = [0, 1].map((i) => Math.floor(([h, w][i]! + 2 * p[i]! - d[i]! * (k[i]! - 1) - 1) / s[i]!) + 1);
  if (out.some((n) => n <= 0)) throw new RangeError(`${op}: the kernel ${formatShape(k)} is larger than the padded input ${formatShape(x.shape)}`);
  return composite(op, () => {
    const padded = p[0] || p[1] ? pad(x, [p[1], p[1], p[0], p[0]], { value: combine === 'avg' ? 0 : LOWEST[x.dtype] ?? -Infinity }) : x;
    let acc: Tensor | undefined;
    for (let i = 0; i < k[0]; i++) {
      for (let j = 0; j < k[1]; j++) {
        const attrs = fullSlice(padded.shape);
        attrs.begin[x.ndim - 2] = i * d[0];
        attrs.begin[x.ndim - 1] = j * d[1];
        attrs.step[x.ndim - 2] = s[0];
        attrs.step[x.ndim - 1] = s[1];
        attrs.count[x.ndim - 2] = out[0]!;
        attrs.count[x.ndim - 1] = out[1]!;
        const window = applySlice(padded, attrs);
        acc = acc === undefined ? window : combine === 'max' ? firstMaximum(acc, window) : acc.add(window);
      }
    }
    if (combine === 'max') return acc!;
    if (divisor !== null) return acc!.div(divisor);
    if (o.countIncludePad === false && (p[0] || p[1])) {
      const counts = pool(op, onesLike(x), k, { ...o, countIncludePad: true }, 'avg').mul(k[0] * k[1]);
      return acc!.div(counts);
    }
    return acc!.div(k[0] * k[1]);
  });
}

/**
 * The larger of two windows, the earlier one on ties (PyTorch's max pooling sends the gradient
 * to the first maximum of a window, where maximum() would share it); a NaN wins and stays.
 */
function firstMaximum(acc: Tensor, window: Tensor): Tensor {
  const takeNew = isFloating(window.dtype) ? window.gt(acc).logicalOr(window.isnan()) : window.gt(acc);
  return where(takeNew, window, acc);
}

/**
 * 2-D max pooling over [n, c, h, w] (torch.nn.functional.max_pool2d).
 * @example tpu.nn.functional.maxPool2d(images, 2).shape // [2, 3, 4, 4]
 */
export function maxPool2d(x: Tensor, kernelSize: number | readonly number[], opts: PoolOptions = {}): Tensor {
  return imageLayout([x], pool('maxPool2d', x, kernelSize, opts, 'max'));
}

/**
 * 2-D average pooling over [n, c, h, w] (torch.nn.functional.avg_pool2d).
 * @example tpu.nn.functional.avgPool2d(tpu.tensor([[[[1, 2], [3, 6]]]]), 2) // [[[[3]]]]
 */
export function avgPool2d(x: Tensor, kernelSize: number | readonly number[], opts: PoolOptions = {}): Tensor {
  return imageLayout([x], pool('avgPool2d', x, kernelSize, opts, 'avg'));
}
