// diagonal (a view, as PyTorch's), diag (1-D -> matrix, 2-D -> a copy of a diagonal) and
// trace, composed over layout ops, where and sum.
import { formatShape, normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { isOptions, readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { composite } from '../modes/composite.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { pad } from './pad.js';
import { diagonalOffset } from './triangular.js';
import { tensorArg } from './tensor-arg.js';
import { layoutOf, trackStatedViews } from '../views/view-tracking.js';
import type { Layout } from '../views/layout.js';
import { specialized } from '../jit/live-number.js';

export interface DiagonalOptions {
  /** Which diagonal: 0 the main one, > 0 above it, < 0 below. */
  offset?: number;
  dim1?: number;
  dim2?: number;
}

interface DiagonalArgs {
  readonly offset: number;
  readonly d1: number;
  readonly d2: number;
  /** Its length: 0 when the offset is past the matrix. */
  readonly length: number;
}

function diagonalArgs(x: { readonly shape: readonly number[] }, offset?: number | DiagonalOptions, dim1?: number, dim2?: number): DiagonalArgs {
  const o: DiagonalOptions = isOptions(offset) ? readOptions<DiagonalOptions>('diagonal', offset, ['offset', 'dim1', 'dim2']) : { offset: offset as number | undefined, dim1, dim2 };
  const k = specialized(o.offset ?? 0);
  if (!Number.isInteger(k)) throw new TypeError(`diagonal: offset must be an integer; got ${JSON.stringify(k)}`);
  const rank = x.shape.length;
  if (rank < 2) throw new RangeError(`diagonal: the input must have at least 2 dims; got ${formatShape(x.shape)}`);
  const d1 = normalizeDim('diagonal', o.dim1 ?? 0, rank, 'dim1');
  const d2 = normalizeDim('diagonal', o.dim2 ?? 1, rank, 'dim2');
  if (d1 === d2) throw new RangeError(`diagonal: dim1 and dim2 cannot be the same dim; got ${o.dim1 ?? 0} and ${o.dim2 ?? 1} for a tensor of rank ${rank}`);
  const length = Math.max(Math.min(x.shape[d1]! - Math.max(-k, 0), x.shape[d2]! - Math.max(k, 0)), 0);
  return { offset: k, d1, d2, length };
}

/** The values: d1 and d2 moved last and joined, then every (m+1)-th element from the first. */
function diagonalValues(x: Tensor, { offset, d1, d2, length }: DiagonalArgs): Tensor {
  const rest = x.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2);
  const m = x.shape[d2]!;
  const joined = x.permute(...rest, d1, d2).reshape([...rest.map((i) => x.shape[i]!), x.shape[d1]! * m]);
  const first = Math.max(-offset, 0) * m + Math.max(offset, 0);
  return length === 0 ? joined.narrow(-1, 0, 0) : joined.slice(-1, first, first + (length - 1) * (m + 1) + 1, m + 1);
}

/** PyTorch's strides of the view: the other dims', then stride(dim1) + stride(dim2). */
function diagonalLayout(x: Tensor, { offset, d1, d2, length }: DiagonalArgs): Layout {
  const { strides, offset: start } = layoutOf(x);
  const shift = length === 0 ? 0 : offset >= 0 ? offset * strides[d2]! : -offset * strides[d1]!;
  return { strides: [...strides.filter((_, i) => i !== d1 && i !== d2), strides[d1]! + strides[d2]!], offset: start + shift };
}

/**
 * A diagonal of x over dim1 and dim2 as the last dim, a view (torch.diagonal).
 * @example tpu.diagonal(tpu.tensor([[1, 2], [3, 4]])) // [1, 4]
 */
export function diagonal(x: Tensor, offset?: number | DiagonalOptions, dim1?: number, dim2?: number): Tensor {
  return tensorArg('diagonal', 'input', x).diagonal(offset, dim1, dim2);
}

/** Bool [n, m]: true where column − row is k. */
function diagonalMask(n: number, m: number, k: number): Tensor {
  const rows = filled('diag', [n, 1], 1, 'int32').cumsum(0);
  const cols = filled('diag', [1, m], 1, 'int32').cumsum(1);
  return cols.sub(rows).eq(k);
}

/**
 * A 1-D tensor's values on diagonal k of a square matrix, zeros elsewhere; of a matrix, a copy of
 * its diagonal k (torch.diag).
 * @example tpu.diag(tpu.tensor([1, 2])) // [[1, 0], [0, 2]]
 */
export function diag(x: Tensor, diagonal?: number | { diagonal?: number }): Tensor {
  tensorArg('diag', 'input', x);
  const k = diagonalOffset('diag', diagonal);
  if (x.ndim === 2) return x.diagonal(k).clone();
  if (x.ndim !== 1) throw new RangeError(`diag: the input must be 1-D or 2-D; got ${x.ndim}-D ${formatShape(x.shape)}`);
  const n = x.shape[0]! + Math.abs(k);
  return composite('diag', () => {
    // row r of the result holds its diagonal element: x padded to n rows, rows before it for k < 0
    const column = pad(x, k >= 0 ? [0, k] : [-k, 0]).unsqueeze(1);
    return where(diagonalMask(n, n, k), column, x.dtype === 'bool' ? false : 0);
  });
}

/**
 * The sum of a matrix's main diagonal; integers give int64, as torch.trace.
 * @example tpu.trace(tpu.tensor([[1, 2], [3, 4]])) // 5
 */
export function trace(x: Tensor): Tensor {
  tensorArg('trace', 'input', x);
  if (x.ndim !== 2) throw new RangeError(`trace: expected a matrix, but got a ${x.ndim}-D tensor ${formatShape(x.shape)}`);
  if (x.dtype === 'bool') throw new TypeError(`trace: bool input is not supported, as in PyTorch; convert it with x.to('int64')`);
  return x.diagonal().sum();
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Diagonal offset of the dims dim1 and dim2 (0 and 1 by default) as the last dim: a view
     * (torch.diagonal). Positional (offset, dim1, dim2) or { offset, dim1, dim2 }.
     * @example tpu.tensor([[1, 2, 3], [4, 5, 6]]).diagonal(1) // [2, 6]
     */
    diagonal(offset?: number | DiagonalOptions, dim1?: number, dim2?: number): Tensor;
    /**
     * 1-D: a matrix with these values on diagonal k; 2-D: a copy of diagonal k (torch.diag).
     * @example tpu.tensor([1, 2]).diag(1) // [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
     */
    diag(diagonal?: number | { diagonal?: number }): Tensor;
    /**
     * The sum of the main diagonal of a matrix (torch.trace).
     * @example tpu.tensor([[1, 2], [3, 4]]).trace() // 5
     */
    trace(): Tensor;
  }
}
installMethods({
  diagonal(offset, dim1, dim2) { return diagonalValues(this, diagonalArgs(this, offset, dim1, dim2)); },
  diag(diagonal) { return diag(this, diagonal); },
  trace() { return trace(this); },
});
trackStatedViews('diagonal', (x, [offset, dim1, dim2]) => diagonalLayout(x, diagonalArgs(x, offset as number | DiagonalOptions | undefined, dim1 as number | undefined, dim2 as number | undefined)));
