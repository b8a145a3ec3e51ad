// cross kron tensordot cdist: composed over slices, reshapes, products and the vector norm.
import { broadcastShapes, formatShape, normalizeDim } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { byPosition, isOptions, readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { concat } from '../concat.js';
import { norm as vectorPNorm } from '../statistics.js';
import { tensorArg } from '../tensor-arg.js';
import { floatingArg } from './matrix-args.js';
import { specialized } from '../../jit/live-number.js';

export interface CrossOptions {
  /** The dim of length 3 holding the vectors (default -1). */
  dim?: number;
}

/** cross's dim: given, or -1; where torch.cross's default (the first dim of length 3) would pick another dim, an error asking for it. */
function crossDim(op: string, a: Tensor, b: Tensor, args: readonly unknown[], legacyDefault: boolean): number {
  const { dim } = byPosition<CrossOptions>(op, specialized(args), ['dim']);
  if (dim !== undefined) return normalizeDim(op, dim, a.ndim);
  const shape = broadcastShapes(op, a.shape, b.shape);
  const first = shape.indexOf(3);
  if (legacyDefault && first >= 0 && first !== shape.length - 1) {
    throw new RangeError(`${op}: without a dim, torch.cross takes the first dim of length 3 (${first} here) and torch.linalg.cross the last: pass the dim, e.g. { dim: ${first} } or { dim: -1 }`);
  }
  return a.ndim - 1;
}

function crossProduct(op: string, a: Tensor, b: Tensor, args: readonly unknown[], legacyDefault: boolean): Tensor {
  tensorArg(op, 'input', a);
  tensorArg(op, 'other', b);
  if (a.ndim !== b.ndim) throw new RangeError(`${op}: input and other must have the same number of dims, as in PyTorch; got ${formatShape(a.shape)} and ${formatShape(b.shape)}`);
  if (a.dtype !== b.dtype) throw new TypeError(`${op}: input and other must have the same dtype, as in PyTorch; got ${a.dtype} and ${b.dtype}`);
  const d = crossDim(op, a, b, args, legacyDefault);
  if (a.shape[d] !== 3 || b.shape[d] !== 3) throw new RangeError(`${op}: input and other must have length 3 along dim ${d}; got ${formatShape(a.shape)} and ${formatShape(b.shape)}`);
  return composite(op, () => {
    const [a1, a2, a3] = [0, 1, 2].map((i) => a.narrow(d, i, 1)) as [Tensor, Tensor, Tensor];
    const [b1, b2, b3] = [0, 1, 2].map((i) => b.narrow(d, i, 1)) as [Tensor, Tensor, Tensor];
    return concat([a2.mul(b3).sub(a3.mul(b2)), a3.mul(b1).sub(a1.mul(b3)), a1.mul(b2).sub(a2.mul(b1))], d);
  });
}

/**
 * Cross product of 3-vectors along dim (-1 by default), batch dims broadcast (torch.linalg.cross).
 * @example tpu.linalg.cross(tpu.tensor([1, 0, 0]), tpu.tensor([0, 1, 0])) // [0, 0, 1]
 */
export function linalgCross(a: Tensor, b: Tensor, ...args: [dim?: number] | [CrossOptions]): Tensor {
  return crossProduct('linalg.cross', a, b, args, false);
}

/**
 * Cross product along dim (torch.cross). Without a dim it is the last, as torch.linalg.cross;
 * where torch.cross's own default (the first dim of length 3) differs, it asks for the dim.
 * @example tpu.cross(tpu.tensor([[1, 0, 0]]), tpu.tensor([[0, 1, 0]]), { dim: 1 }) // [[0, 0, 1]]
 * @example tpu.cross(tpu.tensor([[1, 0, 0]]), tpu.tensor([[0, 1, 0]]), 1) // [[0, 0, 1]]
 */
export function cross(a: Tensor, b: Tensor, ...args: [dim?: number] | [CrossOptions]): Tensor {
  return crossProduct('cross', a, b, args, true);
}

/**
 * Kronecker product: every element of a times all of b, in blocks (torch.kron); the shorter
 * shape is padded with leading 1s.
 * @example tpu.kron(tpu.tensor([1, 2]), tpu.tensor([1, 10])) // [1, 10, 2, 20]
 */
export function kron(a: Tensor, b: Tensor): Tensor {
  tensorArg('kron', 'input', a);
  tensorArg('kron', 'other', b);
  const nd = Math.max(a.ndim, b.ndim);
  const pad = (s: readonly number[]) => [...Array<number>(nd - s.length).fill(1), ...s];
  const [sa, sb] = [pad(a.shape), pad(b.shape)];
  // a as [a0, 1, a1, 1, ...], b as [1, b0, 1, b1, ...]: the product's dims pair up as [a0·b0, a1·b1, ...]
  return composite('kron', () => a.reshape(sa.flatMap((n) => [n, 1])).mul(b.reshape(sb.flatMap((n) => [1, n]))).reshape(sa.map((n, i) => n * sb[i]!)));
}

export type TensordotDims = number | readonly [number | readonly number[], number | readonly number[]];

function contractedDims(a: Tensor, b: Tensor, given: unknown): [number[], number[]] {
  const op = 'tensordot';
  const dims = specialized(given);
  if (typeof dims === 'number') {
    if (!Number.isInteger(dims) || dims < 0) throw new RangeError(`${op}: dims must be a non-negative integer or [dimsA, dimsB]; got ${dims}`);
    if (dims > a.ndim || dims > b.ndim) throw new RangeError(`${op}: dims ${dims} is more than input ${formatShape(a.shape)} or other ${formatShape(b.shape)} has`);
    return [Array.from({ length: dims }, (_, i) => a.ndim - dims + i), Array.from({ length: dims }, (_, i) => i)];
  }
  if (!Array.isArray(dims) || dims.length !== 2) throw new TypeError(`${op}: dims must be a number or a pair [dimsA, dimsB]; got ${JSON.stringify(dims)}`);
  const list = (v: unknown, t: Tensor, name: string) => {
    const ds = typeof v === 'number' ? [v] : v;
    if (!Array.isArray(ds) || ds.some((d) => typeof d !== 'number')) throw new TypeError(`${op}: ${name} must be a dim or an array of dims; got ${JSON.stringify(v)}`);
    const out = ds.map((d: number) => normalizeDim(op, d, t.ndim, name));
    if (new Set(out).size !== out.length) throw new RangeError(`${op}: ${name} names a dim twice: ${JSON.stringify(v)}`);
    return out;
  };
  const [da, db] = [list(dims[0], a, 'dimsA'), list(dims[1], b, 'dimsB')];
  if (da.length !== db.length) throw new RangeError(`${op}: dimsA and dimsB must be as many; got ${JSON.stringify(dims[0])} and ${JSON.stringify(dims[1])}`);
  return [da, db];
}

/**
 * Sums the products of a and b over pairs of dims (torch.tensordot): dims n contracts a's last
 * n with b's first n; [dimsA, dimsB] names them. The result: a's other dims, then b's.
 * @example tpu.tensordot(tpu.ones([2, 3]), tpu.ones([3, 4]), 1).shape // [2, 4]
 */
export function tensordot(a: Tensor, b: Tensor, dims: TensordotDims | { dims?: TensordotDims } = 2): Tensor {
  tensorArg('tensordot', 'a', a);
  tensorArg('tensordot', 'b', b);
  const given = isOptions(dims) ? readOptions<{ dims: TensordotDims }>('tensordot', dims, ['dims']).dims ?? 2 : dims;
  if (a.dtype !== b.dtype) throw new TypeError(`tensordot: a and b must have the same dtype, as in PyTorch; got ${a.dtype} and ${b.dtype}`);
  const [da, db] = contractedDims(a, b, given);
  da.forEach((d, i) => {
    if (a.shape[d] !== b.shape[db[i]!]) throw new RangeError(`tensordot: contracted dims must match: a ${formatShape(a.shape)} has ${a.shape[d]} in dim ${d}, b ${formatShape(b.shape)} has ${b.shape[db[i]!]} in dim ${db[i]}`);
  });
  const freeA = a.shape.map((_, d) => d).filter((d) => !da.includes(d));
  const freeB = b.shape.map((_, d) => d).filter((d) => !db.includes(d));
  const size = (t: Tensor, ds: number[]) => ds.reduce((p, d) => p * t.shape[d]!, 1);
  return composite('tensordot', () => {
    const x = a.permute(...freeA, ...da).reshape([size(a, freeA), size(a, da)]);
    const y = b.permute(...db, ...freeB).reshape([size(b, db), size(b, freeB)]);
    // no dims contracted: the outer product as a product, whose zeros keep their signs (a matmul adds them to +0)
    const product = da.length === 0 ? x.mul(y) : x.matmul(y);
    return product.reshape([...freeA.map((d) => a.shape[d]!), ...freeB.map((d) => b.shape[d]!)]);
  });
}

export interface CdistOptions {
  /** The p of the p-norm distance, p ≥ 0 (default 2). */
  p?: number;
}

/**
 * The p-norm distance between every row of x1 [..., P, M] and every row of x2 [..., R, M]:
 * [..., P, R], batch dims broadcast (torch.cdist).
 * @example tpu.cdist(tpu.tensor([[0, 0]]), tpu.tensor([[3, 4], [1, 0]])) // [[5, 1]]
 */
export function cdist(x1: Tensor, x2: Tensor, options?: CdistOptions): Tensor {
  const op = 'cdist';
  const p = specialized(readOptions<CdistOptions>(op, options, ['p']).p ?? 2);
  floatingArg(op, 'x1', x1, false);
  floatingArg(op, 'x2', x2, false);
  if (typeof p !== 'number' || !(p >= 0)) throw new RangeError(`${op}: p must be a number ≥ 0 (or Infinity); got ${typeof p === 'number' ? p : JSON.stringify(p)}`);
  if (x1.ndim < 2 || x2.ndim < 2) throw new RangeError(`${op}: x1 and x2 must be at least 2-D [..., rows, features]; got ${formatShape(x1.shape)} and ${formatShape(x2.shape)}`);
  const m = x1.shape[x1.ndim - 1];
  if (m !== x2.shape[x2.ndim - 1]) throw new RangeError(`${op}: x1 and x2 must have as many features (last dim); got ${formatShape(x1.shape)} and ${formatShape(x2.shape)}`);
  broadcastShapes(op, x1.shape.slice(0, -2), x2.shape.slice(0, -2), ['x1', 'x2']);
  // every pair's difference [..., P, R, M], then its norm: exact where PyTorch's matmul form for p = 2 rounds
  return composite(op, () => vectorPNorm(x1.unsqueeze(-2).sub(x2.unsqueeze(-3)), { p, dim: -1 }));
}
