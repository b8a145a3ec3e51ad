// svd and svdvals (torch.linalg.svd, torch.linalg.svdvals): one-sided Jacobi (jacobi.ts) on the
// columns of Rᵀ, R from A's QR (Aᵀ's when A is wide), accurate for ill-conditioned matrices
// where an eigendecomposition of AᵀA would square the condition number. Singular values
// descending; a QR (householder.ts) completes the singular vectors where full matrices or zero
// singular values need more columns. The rotations run outside autograd;
// the gradient is attached after, PyTorch's formula (Townsend's, real case): with
// P = Uᵀ·dA·V, dS = diag(P), dU = U·(F∘(P·S + S·Pᵀ)) + (I - U·Uᵀ)·dA·V·S⁻¹,
// dV = V·(F∘(S·P + Pᵀ·S)), F_ij = 1/(s_j² - s_i²). The extra columns of full matrices get
// no gradient, as PyTorch's (it narrows their gradient away).
import { formatShape } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { concat } from '../concat.js';
import { filled } from '../constant.js';
import { where } from '../where.js';
import { eye } from '../../creation-computed.js';
import { floatingArg } from './matrix-args.js';
import { orthonormalBasis, qrParts } from './householder.js';
import { exactMatmul } from './exact-product.js';
import { oneSidedJacobi } from './jacobi.js';
import { sortColumns } from './sorted-columns.js';
import { FLOAT32_MAX, reciprocalGaps } from './eigh.js';
import { SVD } from './named-results.js';
import { tracked } from './symmetric-input.js';

export interface SvdOptions {
  /** true (default, as PyTorch): U [..., m, m] and Vh [..., n, n]; false: U [..., m, k], Vh [..., k, n], k = min(m, n). */
  fullMatrices?: boolean;
}

interface Factors {
  /** [..., M, uCols]; for S only, S itself (not read) */
  readonly u: Tensor;
  /** [..., N] descending */
  readonly s: Tensor;
  /** [..., N, N] */
  readonly v: Tensor;
}

/** S, and U's and V's gradients, of t [..., M, N] (M ≥ N) from its found factors. */
function withGradient(t: Tensor, { u, s, v }: Factors, n: number): Factors {
  const uk = u.narrow(-1, 0, n);
  const dv = t.sub(t.detach()).matmul(v);
  const p = uk.mT.matmul(dv);
  const f = reciprocalGaps(s.square().unsqueeze(-2).sub(s.square().unsqueeze(-1)), n);
  const row = s.unsqueeze(-2);
  const column = s.unsqueeze(-1);
  const inverse = where(s.eq(0), FLOAT32_MAX, s.reciprocal()).unsqueeze(-2);
  const du = uk.matmul(f.mul(p.mul(row).add(p.mT.mul(column)))).add(dv.sub(uk.matmul(p)).mul(inverse));
  const gradedU = uk.add(du);
  return {
    u: u.shape[u.ndim - 1] === n ? gradedU : concat([gradedU, u.narrow(-1, n, u.shape[u.ndim - 1]! - n)], -1),
    s: s.add(p.diagonal(0, -2, -1)),
    v: v.add(v.matmul(f.mul(p.mul(column).add(p.mT.mul(row))))),
  };
}

/**
 * U [..., m, uCols] (uCols: m with full, k without), S [..., k] and Vh [..., k or n, n] of
 * A [..., m, n], k = min(m, n) > 0. The sweeps run at once, as programs of their own; the
 * returned function forms the factors (U and Vh not with `valuesOnly`, unless A is tracked for
 * its gradient), inside the caller's composed op, as often as the caller needs them.
 */
export function svdFactors(op: string, a: Tensor, full: boolean): (valuesOnly?: boolean) => { u: Tensor; s: Tensor; vh: Tensor } {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const wide = m < n;
  // Aᵀ's factors for a wide A: A = U·S·Vᵀ, Aᵀ = V·S·Uᵀ
  const t = wide ? a.mT : a;
  const k = Math.min(m, n);
  // t = Q·R, and Rᵀ's columns rotated: Rᵀ·V' = W. Then t = (Q·V')·diag(σ)·(W/σ)ᵀ. Rᵀ's columns are
  // nearly orthogonal already, so its sweeps converge for the small singular values too,
  // where A's own took twice as many (Drmač and Veselić's preconditioning, without pivoting).
  const { q, r } = qrParts(t.detach(), 'reduced');
  const found = oneSidedJacobi(op, r.mT);
  return (valuesOnly = false) => {
    const norms = found.columns.square().sum(-2).sqrt();
    const { sorted: s, columns: [rotations, w] } = sortColumns(norms, true, [found.vectors, found.columns]);
    const graded = tracked(t);
    if (valuesOnly && !graded) return { u: s, s, vh: s };
    // W/σ's zero columns (σ = 0) completed to an orthonormal set
    const v = orthonormalBasis(w!.div(where(s.eq(0), 1, s).unsqueeze(-2)), k);
    const left = exactMatmul(q!, rotations!);
    const u = full && m !== n ? orthonormalBasis(left, Math.max(m, n)) : left;
    const f = graded ? withGradient(t, { u, s, v }, k) : { u, s, v };
    return wide ? { u: f.v, s: f.s, vh: f.u.mT } : { u: f.u, s: f.s, vh: f.v.mT };
  };
}

/** U, S and Vh of A [..., m, n] in one composed op, flattened side by side, then taken apart; S only without `vectors`. */
function decompose(op: string, a: Tensor, full: boolean, vectors: boolean): SVD | Tensor {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const batch = a.shape.slice(0, -2);
  const k = Math.min(m, n);
  const [uCols, vhRows] = full ? [m, n] : [k, k];
  if (k === 0) {
    const s = filled(op, [...batch, 0], 0, a.dtype, a.chip);
    if (!vectors) return s;
    const identity = (size: number, cols: number) => eye(size, cols, { chip: a.chip }).expand([...batch, size, cols]).contiguous();
    return new SVD(identity(m, uCols), s, identity(vhRows, n));
  }
  const finish = svdFactors(op, a, full);
  if (!vectors) return composite(op, () => finish(true).s);
  const flat = composite(op, () => {
    const { u, s, vh } = finish();
    return concat([u.reshape([...batch, m * uCols]), s, vh.reshape([...batch, vhRows * n])], -1);
  });
  return new SVD(
    flat.narrow(-1, 0, m * uCols).reshape([...batch, m, uCols]),
    flat.narrow(-1, m * uCols, k),
    flat.narrow(-1, m * uCols + k, vhRows * n).reshape([...batch, vhRows, n]),
  );
}

function matrixArg(op: string, a: Tensor): void {
  floatingArg(op, 'A', a, false);
  if (a.ndim < 2) throw new RangeError(`${op}: A must have at least 2 dimensions (a batch of matrices [..., m, n]); got ${formatShape(a.shape)}`);
}

/**
 * The singular value decomposition A = U·diag(S)·Vh of each matrix [..., m, n], S descending
 * (torch.linalg.svd); { fullMatrices: false } gives the reduced one. Singular vectors are
 * unique only up to sign (and within equal singular values).
 * @example const { U, S, Vh } = tpu.linalg.svd(tpu.tensor([[3, 0], [0, -4]])) // S [4, 3]
 */
export function svd(a: Tensor, options?: SvdOptions | boolean): SVD {
  const op = 'linalg.svd';
  matrixArg(op, a);
  const { fullMatrices = true } = typeof options === 'boolean' ? { fullMatrices: options } : readOptions<SvdOptions>(op, options, ['fullMatrices']);
  if (typeof fullMatrices !== 'boolean') throw new TypeError(`${op}: fullMatrices must be a boolean; got ${JSON.stringify(fullMatrices)}`);
  return decompose(op, a, fullMatrices, true) as SVD;
}

/**
 * The singular values of each matrix [..., m, n], descending: [..., min(m, n)] (torch.linalg.svdvals).
 * @example tpu.linalg.svdvals(tpu.tensor([[3, 0], [0, -4]])) // [4, 3]
 */
export function svdvals(a: Tensor): Tensor {
  matrixArg('linalg.svdvals', a);
  return decompose('linalg.svdvals', a, false, false) as Tensor;
}
