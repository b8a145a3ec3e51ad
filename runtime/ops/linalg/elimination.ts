// Gaussian elimination with partial pivoting (LU), composed of primitives and unrolled over n:
// each step picks its pivot on the device (argmax of the column's magnitudes, the first of
// equals, as LAPACK's), so one program serves every matrix of a shape, both backends run it,
// and autograd differentiates it. Cost: about a dozen ops per column: meant for small matrices.
import type { Tensor } from '../../tensor.js';
import { arange } from '../../creation.js';
import { where } from '../where.js';

export interface Elimination {
  /** U's diagonal, step by step: each [..., 1, 1]. */
  readonly pivots: readonly Tensor[];
  /** (-1)^(rows swapped): [..., 1, 1]. */
  readonly sign: Tensor;
  /** Row k of the reduced [U | C] from column k on: [..., 1, n - k + m]. */
  readonly rows: readonly Tensor[];
}

/**
 * Reduces [A | B] ([..., n, n + m]) to [U | C] with U upper triangular: PA = LU, C = L⁻¹PB.
 * A zero pivot (its column all zero below the diagonal) eliminates nothing, as LAPACK's getrf.
 */
export function eliminate(ab: Tensor, n: number): Elimination {
  const pivots: Tensor[] = [];
  const rows: Tensor[] = [];
  let sign: Tensor | null = null;
  let s = ab;
  // the rows' indices, uploaded once; step k reads the first n - k
  const indices = arange(n, { chip: ab.chip }).reshape([n, 1]);
  for (let k = 0; k < n; k++) {
    const left = n - k;
    const width = s.shape[s.ndim - 1]!;
    // the row of the largest magnitude in the first column, moved to the top
    const p = s.narrow(-1, 0, 1).abs().argmax(-2, true);
    const chosen = indices.narrow(0, 0, left).eq(p);
    // picked by where and a sum (one non-zero term): exact, and no 0·inf from a one-hot product
    const pivotRow = where(chosen, s, 0).sum(-2, true);
    const pivot = pivotRow.narrow(-1, 0, 1);
    pivots.push(pivot);
    rows.push(pivotRow);
    // 1 where the top row stays, -1 where it swaps
    const swap = p.ne(0).to(ab.dtype).mul(-2).add(1);
    sign = sign === null ? swap : sign.mul(swap);
    if (left === 1) break;
    // the top row takes the pivot row's place below
    const rest = where(chosen.narrow(-2, 1, left - 1), s.narrow(-2, 0, 1), s.narrow(-2, 1, left - 1));
    // a zero pivot has zeros below it: multipliers 0 instead of 0/0
    const multipliers = rest.narrow(-1, 0, 1).div(where(pivot.eq(0), 1, pivot));
    s = rest.narrow(-1, 1, width - 1).sub(multipliers.mul(pivotRow.narrow(-1, 1, width - 1)));
  }
  return { pivots, sign: sign!, rows };
}
