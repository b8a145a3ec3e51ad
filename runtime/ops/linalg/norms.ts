// torch.linalg's norms: vector_norm (over the vector norm of statistics.ts), matrix_norm
// ('fro' and the induced 1 and ∞ norms: sums of magnitudes, then their extremum; 2, -2 and
// 'nuc' over the singular values of svd.ts), and norm, which picks one of them as PyTorch does.
import { formatShape, normalizeDim } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { norm as vectorPNorm } from '../statistics.js';
import { floatingArg } from './matrix-args.js';
import { readNormArgs } from './norm-args.js';
import { svdvals } from './svd.js';
import { specialized } from '../../jit/live-number.js';

export type MatrixOrd = 'fro' | 'nuc' | number;

function vectorOrd(op: string, given: unknown): number {
  const ord = specialized(given);
  if (typeof ord !== 'number' || Number.isNaN(ord)) throw new TypeError(`${op}: ord must be a number or ±Infinity; got ${JSON.stringify(ord)}`);
  return ord;
}

function vectorNormOf(x: Tensor, ord: number, dim: number | readonly number[] | undefined, keepdim: boolean | undefined): Tensor {
  return vectorPNorm(x, { p: ord, dim, keepdim });
}

/**
 * Vector ord-norm (2 by default) over dim (all dims by default) (torch.linalg.vector_norm):
 * vectorNorm(x, ord, dim, keepdim), or any of these in a trailing options object.
 * @example tpu.linalg.vectorNorm(tpu.tensor([[3, 4], [6, 8]]), { dim: 1 }) // [5, 10]
 */
export function vectorNorm(x: Tensor, ...args: [ord?: number | VectorNormOptions, dim?: number | readonly number[] | Omit<VectorNormOptions, 'ord'>, keepdim?: boolean | Pick<VectorNormOptions, 'keepdim'>]): Tensor {
  const op = 'linalg.vectorNorm';
  floatingArg(op, 'x', x, true);
  const { ord = 2, dim, keepdim } = readNormArgs<number>(op, args);
  return vectorNormOf(x, vectorOrd(op, ord), dim, keepdim);
}

export interface VectorNormOptions {
  ord?: number;
  dim?: number | readonly number[];
  keepdim?: boolean;
}

export interface MatrixNormOptions {
  /** 'fro' (default), 'nuc', 1, -1, 2, -2, Infinity, -Infinity. */
  ord?: MatrixOrd;
  /** The two dims holding the matrices (default [-2, -1]). */
  dim?: readonly number[];
  keepdim?: boolean;
}

function matrixNormOf(op: string, a: Tensor, ord: unknown, dim: number | readonly number[], keepdim: boolean): Tensor {
  if (!Array.isArray(dim) || dim.length !== 2) throw new RangeError(`${op}: dim must be two dims (the rows and columns of the matrices); got ${JSON.stringify(dim)}`);
  if (a.ndim < 2) throw new RangeError(`${op}: A must have at least 2 dimensions; got ${formatShape(a.shape)}`);
  const [rows, cols] = (dim as number[]).map((d) => normalizeDim(op, d, a.ndim)) as [number, number];
  if (rows === cols) throw new RangeError(`${op}: dim must be two different dims; got ${JSON.stringify(dim)}`);
  if (ord === 'fro') return vectorNormOf(a, 2, [rows, cols], keepdim);
  if (ord === 'nuc' || ord === 2 || ord === -2) return spectralNorm(op, a, ord, rows, cols, keepdim);
  if (ord !== 1 && ord !== -1 && ord !== Infinity && ord !== -Infinity) {
    throw new RangeError(`${op}: ord must be 'fro', 'nuc', 1, -1, 2, -2, Infinity or -Infinity, as in PyTorch; got ${typeof ord === 'number' ? ord : JSON.stringify(ord)}`);
  }
  // 1: the largest column sum of magnitudes; ∞: the largest row sum (negative ords: the smallest)
  const [summed, over] = ord === 1 || ord === -1 ? [rows, cols] : [cols, rows];
  const sums = a.abs().sum(summed, true);
  const picked = ord > 0 ? sums.amax(over, true) : sums.amin(over, true);
  return keepdim ? picked : picked.squeeze([rows, cols]);
}

/** 'nuc' (the sum of the singular values), 2 (the largest), -2 (the smallest), as PyTorch's over svdvals. */
function spectralNorm(op: string, a: Tensor, ord: 'nuc' | 2 | -2, rows: number, cols: number, keepdim: boolean): Tensor {
  floatingArg(op, 'A', a, false);
  const rest = a.shape.map((_, d) => d).filter((d) => d !== rows && d !== cols);
  const s = svdvals(a.permute(...rest, rows, cols));
  const picked = ord === 'nuc' ? s.sum(-1) : ord === 2 ? s.amax(-1) : s.amin(-1);
  return keepdim ? picked.unsqueeze(Math.min(rows, cols)).unsqueeze(Math.max(rows, cols)) : picked;
}

/**
 * Matrix norm over two dims (torch.linalg.matrix_norm): 'fro' (default), 'nuc', 1, -1, 2, -2,
 * Infinity, -Infinity. matrixNorm(A, ord, dim, keepdim), or any of these in a trailing options object.
 * @example tpu.linalg.matrixNorm(tpu.tensor([[1, -2], [3, 4]]), 1) // 6
 */
export function matrixNorm(a: Tensor, ...args: [ord?: MatrixOrd | MatrixNormOptions, dim?: readonly number[] | Omit<MatrixNormOptions, 'ord'>, keepdim?: boolean | Pick<MatrixNormOptions, 'keepdim'>]): Tensor {
  const op = 'linalg.matrixNorm';
  floatingArg(op, 'A', a, true);
  const { ord = 'fro', dim = [-2, -1], keepdim = false } = readNormArgs<MatrixOrd>(op, args);
  return matrixNormOf(op, a, ord, dim, keepdim);
}

export interface NormOptions {
  /** A number for a vector norm; 'fro' or 'nuc' (or a number with two dims) for a matrix norm. Default: the 2-norm of the vector, 'fro' of the matrix. */
  ord?: MatrixOrd;
  dim?: number | readonly number[];
  keepdim?: boolean;
}

/**
 * A vector or matrix norm, as torch.linalg.norm picks: one dim (or a vector) a vector norm,
 * two dims (or a matrix) a matrix norm; no ord and no dim the 2-norm of all elements.
 * @example tpu.linalg.norm(tpu.tensor([[1, -2], [3, 4]]), Infinity) // 7
 */
export function norm(a: Tensor, ...args: [ord?: MatrixOrd | NormOptions, dim?: number | readonly number[] | Omit<NormOptions, 'ord'>, keepdim?: boolean | Pick<NormOptions, 'keepdim'>]): Tensor {
  const op = 'linalg.norm';
  floatingArg(op, 'A', a, true);
  const { ord, dim, keepdim = false } = readNormArgs<MatrixOrd>(op, args);
  const dims = typeof dim === 'number' ? [dim] : dim;
  if (dims !== undefined && dims.length !== 1 && dims.length !== 2) throw new RangeError(`${op}: dim must be one dim (a vector norm) or two (a matrix norm); got ${JSON.stringify(dim)}`);
  if (ord === undefined) return dims?.length === 2 ? matrixNormOf(op, a, 'fro', dims, keepdim) : vectorNormOf(a, 2, dims, keepdim);
  if (dims === undefined && a.ndim !== 1 && a.ndim !== 2) throw new RangeError(`${op}: with an ord and no dim, A must be 1-D or 2-D; got ${formatShape(a.shape)}`);
  if (dims?.length === 2 || (dims === undefined && a.ndim === 2)) return matrixNormOf(op, a, ord, dims ?? [-2, -1], keepdim);
  if (typeof ord === 'string') throw new RangeError(`${op}: ord '${ord}' is a matrix norm: it needs two dims (or a 2-D A); got ${dims === undefined ? `a ${formatShape(a.shape)} vector` : `dim ${JSON.stringify(dim)}`}`);
  return vectorNormOf(a, vectorOrd(op, ord), dims, keepdim);
}
