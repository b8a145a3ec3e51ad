// cholesky (torch.linalg.cholesky): A = L·Lᵀ, column by column (right-looking, unrolled over n).
// Autograd differentiates the steps. A matrix that is not positive definite takes the square
// root of a non-positive pivot: NaN from there on (PyTorch raises; that needs the pivots read
// on the host, a sync per call; debug mode's NaN check raises).
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { concat } from '../concat.js';
import { pad } from '../pad.js';
import { squareArg } from './matrix-args.js';
import { symmetricFromTriangle } from './symmetric-input.js';

export interface CholeskyOptions {
  /** Return U = Lᵀ (reading A's upper triangle), as PyTorch's upper=True. */
  upper?: boolean;
}

/** L of symmetric S [..., n, n]. */
function lowerFactor(s: Tensor, n: number): Tensor {
  const columns: Tensor[] = [];
  let rest = s;
  for (let k = 0; k < n; k++) {
    const column = rest.narrow(-1, 0, 1).div(rest.narrow(-2, 0, 1).narrow(-1, 0, 1).sqrt());
    columns.push(k === 0 ? column : pad(column, [0, 0, k, 0]));
    if (k === n - 1) break;
    const below = column.narrow(-2, 1, n - k - 1);
    rest = rest.narrow(-2, 1, n - k - 1).narrow(-1, 1, n - k - 1).sub(below.mul(below.mT));
  }
  return concat(columns, -1);
}

/**
 * The Cholesky factor L (lower triangular, positive diagonal) of each symmetric positive-definite
 * matrix [..., n, n], A = L·Lᵀ; only A's lower triangle is read (the upper with { upper: true },
 * which returns Lᵀ) (torch.linalg.cholesky).
 * @example tpu.linalg.cholesky(tpu.tensor([[4, 2], [2, 5]])) // [[2, 0], [1, 2]]
 */
export function cholesky(a: Tensor, options?: CholeskyOptions): Tensor {
  const op = 'linalg.cholesky';
  squareArg(op, 'A', a);
  const { upper = false } = readOptions<CholeskyOptions>(op, options, ['upper']);
  if (typeof upper !== 'boolean') throw new TypeError(`${op}: upper must be a boolean; got ${JSON.stringify(upper)}`);
  const n = a.shape[a.ndim - 1]!;
  if (n === 0) return a.clone();
  return composite(op, () => {
    const l = lowerFactor(symmetricFromTriangle(a, upper), n);
    return upper ? l.mT.contiguous() : l;
  });
}
