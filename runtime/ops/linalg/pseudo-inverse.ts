// pinv, lstsq and matrixRank (torch.linalg.pinv, lstsq, matrix_rank) over the SVD (svd.ts):
// singular values above max(atol, rtol·σ_max) count; the others are dropped, as PyTorch's.
import { formatShape, shapesEqual } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { filled } from '../constant.js';
import { where } from '../where.js';
import { floatingArg } from './matrix-args.js';
import { exactMatmul } from './exact-product.js';
import { Lstsq } from './named-results.js';
import { svdFactors, svdvals } from './svd.js';
import { symmetricFromTriangle } from './symmetric-input.js';
import { specialized, specializedOptions } from '../../jit/live-number.js';

const FLOAT32_EPS = 2 ** -23;

export interface RankTolerances {
  /** Absolute tolerance (default 0). */
  atol?: number;
  /** Relative to the largest singular value (default float32's eps·max(m, n) when atol is not given, else 0). */
  rtol?: number;
  /** A is symmetric, its lower triangle read (the result is the same for a symmetric A). */
  hermitian?: boolean;
}

function matrixArg(op: string, a: Tensor): [number, number] {
  floatingArg(op, 'A', a, false);
  if (a.ndim < 2) throw new RangeError(`${op}: A must have at least 2 dimensions (a batch of matrices [..., m, n]); got ${formatShape(a.shape)}`);
  return a.shape.slice(-2) as [number, number];
}

function readTolerances(op: string, options: RankTolerances | undefined, m: number, n: number): { atol: number; rtol: number; hermitian: boolean } {
  const { atol, rtol, hermitian = false } = specializedOptions(readOptions<RankTolerances>(op, options, ['atol', 'rtol', 'hermitian']));
  for (const [name, v] of [['atol', atol], ['rtol', rtol]] as const) {
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0))) throw new RangeError(`${op}: ${name} must be a number ≥ 0; got ${JSON.stringify(v)}`);
  }
  if (typeof hermitian !== 'boolean') throw new TypeError(`${op}: hermitian must be a boolean; got ${JSON.stringify(hermitian)}`);
  return { atol: atol ?? 0, rtol: rtol ?? (atol !== undefined && atol > 0 ? 0 : FLOAT32_EPS * Math.max(m, n)), hermitian };
}

/** Whether each singular value (descending, [..., k]) is above max(atol, rtol·σ_max). */
function kept(s: Tensor, atol: number, rtol: number): Tensor {
  return s.gt(s.narrow(-1, 0, 1).mul(rtol).clamp(atol));
}

/** A⁺ = V·diag(1/σ where kept)·Uᵀ, [..., n, m], from svdFactors's `finish` (inside a composed op). */
function pseudoInverse(finish: () => { u: Tensor; s: Tensor; vh: Tensor }, atol: number, rtol: number): Tensor {
  const { u, s, vh } = finish();
  const inverse = where(kept(s, atol, rtol), s.reciprocal(), 0);
  return exactMatmul(vh.mT.mul(inverse.unsqueeze(-2)), u.mT);
}

/**
 * The Moore–Penrose pseudo-inverse of each matrix [..., m, n]: [..., n, m] (torch.linalg.pinv);
 * singular values at or below max(atol, rtol·σ_max) are treated as zero.
 * @example tpu.linalg.pinv(tpu.tensor([[2, 0], [0, 0]])) // [[0.5, 0], [0, 0]]
 */
export function pinv(a: Tensor, options?: RankTolerances): Tensor {
  const op = 'linalg.pinv';
  const [m, n] = matrixArg(op, a);
  const { atol, rtol, hermitian } = readTolerances(op, options, m, n);
  if (m === 0 || n === 0) return filled(op, [...a.shape.slice(0, -2), n, m], 0, a.dtype, a.chip);
  const finish = svdFactors(op, hermitian ? symmetricFromTriangle(a, false) : a, false);
  return composite(op, () => pseudoInverse(finish, atol, rtol));
}

/**
 * The number of singular values of each matrix [..., m, n] above max(atol, rtol·σ_max), int64
 * (torch.linalg.matrix_rank).
 * @example tpu.linalg.matrixRank(tpu.tensor([[1, 2], [2, 4]])) // 1
 */
export function matrixRank(a: Tensor, options?: RankTolerances): Tensor {
  const op = 'linalg.matrixRank';
  const [m, n] = matrixArg(op, a);
  const { atol, rtol, hermitian } = readTolerances(op, options, m, n);
  if (m === 0 || n === 0) return filled(op, a.shape.slice(0, -2), 0, 'int64', a.chip);
  return kept(svdvals(hermitian ? symmetricFromTriangle(a, false) : a), atol, rtol).sum(-1).to('int64');
}

export interface LstsqOptions {
  /** Singular values at or below rcond·σ_max are treated as zero (default float32's eps·max(m, n), as PyTorch's driver 'gelsy'). */
  rcond?: number;
}

/**
 * The least-squares solution X minimizing ‖A·X - B‖ for A [..., m, n] and B [..., m, k] (or a
 * vector [..., m]), the minimum-norm one when A is rank deficient (torch.linalg.lstsq). The
 * result's fields as PyTorch's CPU driver 'gelsy': solution, rank (int64), and residuals and
 * singularValues empty.
 * @example tpu.linalg.lstsq(tpu.tensor([[1, 0], [0, 1], [1, 1]]), tpu.tensor([1, 2, 3])).solution // [1, 2]
 */
export function lstsq(a: Tensor, b: Tensor, options?: LstsqOptions): Lstsq {
  const op = 'linalg.lstsq';
  const [m, n] = matrixArg(op, a);
  floatingArg(op, 'B', b, false);
  const rcond = specialized(readOptions<LstsqOptions>(op, options, ['rcond']).rcond);
  if (rcond !== undefined && (typeof rcond !== 'number' || Number.isNaN(rcond))) throw new TypeError(`${op}: rcond must be a number; got ${JSON.stringify(rcond)}`);
  const rtol = rcond === undefined || rcond < 0 ? FLOAT32_EPS * Math.max(m, n) : rcond;
  const vector = b.ndim === a.ndim - 1 && shapesEqual(b.shape, a.shape.slice(0, -1));
  const bm = vector ? b.unsqueeze(-1) : b;
  if (bm.ndim < 2 || bm.shape[bm.ndim - 2] !== m) throw new RangeError(`${op}: B must have ${m} rows for A ${formatShape(a.shape)} (B [..., ${m}, k], or [..., ${m}]); got B ${formatShape(b.shape)}`);
  const empty = filled(op, [0], 0, a.dtype, a.chip);
  const batch = a.shape.slice(0, -2);
  if (m === 0 || n === 0) {
    const solution = filled(op, [...batch, n, bm.shape[bm.ndim - 1]!], 0, a.dtype);
    return new Lstsq(vector ? solution.squeeze(-1) : solution, empty, filled(op, batch, 0, 'int64'), empty);
  }
  // one set of sweeps for both (svdvals(a) would run them again)
  const finish = svdFactors(op, a, false);
  const solution = composite(op, () => exactMatmul(pseudoInverse(finish, 0, rtol), bm));
  const rank = kept(composite(op, () => finish(true).s), 0, rtol).sum(-1).to('int64');
  return new Lstsq(vector ? solution.squeeze(-1) : solution, empty, rank, empty);
}
