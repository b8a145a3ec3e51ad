// eigh and eigvalsh (torch.linalg.eigh, torch.linalg.eigvalsh): two-sided Jacobi (jacobi.ts)
// on the symmetric matrix of one triangle, eigenvalues sorted ascending. The rotations run
// outside autograd; the gradient is attached after, PyTorch's formula: with M = Vᵀ·dA·V,
// dλ = diag(M) and dV = V·(F∘M), F_ij = 1/(λ_j - λ_i). Where two eigenvalues are exactly equal
// PyTorch's eigenvector gradient is infinite or NaN; here F is float32's largest number there.
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { eye } from '../../creation-computed.js';
import { concat } from '../concat.js';
import { where } from '../where.js';
import { squareArg } from './matrix-args.js';
import { Eigh } from './named-results.js';
import { symmetricJacobi } from './jacobi.js';
import { sortColumns } from './sorted-columns.js';
import { symmetricFromTriangle, tracked } from './symmetric-input.js';

/** float32's largest finite number: 1/gap for a gap of 0, whose product with an exact 0 stays 0. */
export const FLOAT32_MAX = 3.4028234663852886e38;

export interface EighOptions {
  /** The triangle read: 'L' (default) or 'U', as PyTorch's UPLO. */
  UPLO?: 'L' | 'U';
}

/** 1/g elementwise, 0 on the diagonal, the largest float32 where g is 0 off it. */
export function reciprocalGaps(gap: Tensor, n: number): Tensor {
  return where(eye(n, { chip: gap.chip }).eq(1), 0, where(gap.eq(0), FLOAT32_MAX, gap.reciprocal()));
}

/** λ and V carrying the gradient of x (their values unchanged: x - x.detach() is 0). */
function withGradient(x: Tensor, values: Tensor, vectors: Tensor, n: number): { values: Tensor; vectors: Tensor } {
  const m = vectors.mT.matmul(x.sub(x.detach())).matmul(vectors);
  const f = reciprocalGaps(values.unsqueeze(-2).sub(values.unsqueeze(-1)), n);
  return { values: values.add(m.diagonal(0, -2, -1)), vectors: vectors.add(vectors.matmul(m.mul(f))) };
}

/** [λ (ascending) as a first row | V] of A's chosen triangle: [..., n + 1, n]. */
function eigenParts(op: string, a: Tensor, options: EighOptions | 'L' | 'U' | undefined): Tensor {
  const { UPLO = 'L' } = typeof options === 'string' ? { UPLO: options } : readOptions<EighOptions>(op, options, ['UPLO']);
  if (UPLO !== 'L' && UPLO !== 'U') throw new RangeError(`${op}: UPLO must be 'L' or 'U'; got ${JSON.stringify(UPLO)}`);
  const n = a.shape[a.ndim - 1]!;
  const x = symmetricFromTriangle(a, UPLO === 'U');
  const found = symmetricJacobi(op, x.detach());
  return composite(op, () => {
    const { sorted: values, columns: [vectors] } = sortColumns(found.values, false, [found.vectors]);
    const result = tracked(x) ? withGradient(x, values, vectors!, n) : { values, vectors: vectors! };
    return concat([result.values.unsqueeze(-2), result.vectors], -2);
  });
}

/**
 * Eigenvalues (ascending) and orthonormal eigenvectors (columns) of each symmetric matrix
 * [..., n, n]; only the lower triangle is read ({ UPLO: 'U' }: the upper) (torch.linalg.eigh).
 * @example const { eigenvalues, eigenvectors } = tpu.linalg.eigh(tpu.tensor([[2, 1], [1, 2]])) // eigenvalues [1, 3]
 */
export function eigh(a: Tensor, options?: EighOptions | 'L' | 'U'): Eigh {
  squareArg('linalg.eigh', 'A', a);
  const n = a.shape[a.ndim - 1]!;
  if (n === 0) return new Eigh(a.sum(-1), a.clone());
  const both = eigenParts('linalg.eigh', a, options);
  return new Eigh(both.select(-2, 0), both.narrow(-2, 1, n));
}

/**
 * Eigenvalues (ascending) of each symmetric matrix [..., n, n], lower triangle read
 * (torch.linalg.eigvalsh).
 * @example tpu.linalg.eigvalsh(tpu.tensor([[2, 1], [1, 2]])) // [1, 3]
 */
export function eigvalsh(a: Tensor, options?: EighOptions | 'L' | 'U'): Tensor {
  squareArg('linalg.eigvalsh', 'A', a);
  if (a.shape[a.ndim - 1] === 0) return a.sum(-1);
  return eigenParts('linalg.eigvalsh', a, options).select(-2, 0);
}
