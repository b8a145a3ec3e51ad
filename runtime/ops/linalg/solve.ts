// solve and inv (torch.linalg.solve, torch.linalg.inv): elimination of [A | B] (elimination.ts),
// then back substitution. A singular matrix divides by its zero pivot (inf and NaN): PyTorch
// raises instead, which needs the pivots read on the host (docs/runtime.md, linalg).
import { broadcastShapes, formatShape, shapesEqual } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { eye } from '../../creation-computed.js';
import { concat } from '../concat.js';
import { filled } from '../constant.js';
import { eliminate } from './elimination.js';
import { floatingArg, squareArg } from './matrix-args.js';

/** X from the reduced rows [u_kk, u_k(k+1..), c_k] of elimination, bottom up: [..., n, m]. */
function backSubstitute(rows: readonly Tensor[], n: number, m: number): Tensor {
  let x: Tensor | null = null;
  for (let k = n - 1; k >= 0; k--) {
    const row = rows[k]!;
    const c = row.narrow(-1, n - k, m);
    // Σ_j u_kj·x_j as products and a sum: full float32 whatever tpu.setMatmulPrecision says
    const known: Tensor = x === null ? c : c.sub(row.narrow(-1, 1, n - k - 1).transpose(-1, -2).mul(x).sum(-2, true));
    const xk: Tensor = known.div(row.narrow(-1, 0, 1));
    x = x === null ? xk : concat([xk, x], -2);
  }
  return x!;
}

/** X with AX = B, B a batch of matrices [..., n, m] whose batch broadcasts with A's. */
function solveMatrices(op: string, a: Tensor, b: Tensor): Tensor {
  const n = a.shape[a.ndim - 1]!;
  const m = b.shape[b.ndim - 1]!;
  const batch = broadcastShapes(op, a.shape.slice(0, -2), b.shape.slice(0, -2), ['A', 'B']);
  if (n === 0 || m === 0) return filled(op, [...batch, n, m], 0, a.dtype);
  return composite(op, () => {
    const ab = concat([a.expand([...batch, n, n]), b.expand([...batch, n, m])], -1);
    return backSubstitute(eliminate(ab, n).rows, n, m);
  });
}

/**
 * X with AX = B for square A [..., n, n] (torch.linalg.solve). B is a batch of vectors when it
 * is 1-D or has A's shape without the last dim, as PyTorch decides; else of matrices [..., n, m].
 * Batch dims broadcast.
 * @example tpu.linalg.solve(tpu.tensor([[2, 0], [0, 4]]), tpu.tensor([2, 2])) // [1, 0.5]
 */
export function solve(a: Tensor, b: Tensor): Tensor {
  squareArg('linalg.solve', 'A', a);
  floatingArg('linalg.solve', 'B', b, false);
  const n = a.shape[a.ndim - 1]!;
  const vector = b.ndim === 1 || (b.ndim === a.ndim - 1 && shapesEqual(b.shape, a.shape.slice(0, -1)));
  const rows = vector ? b.shape[b.ndim - 1] : b.ndim >= 2 ? b.shape[b.ndim - 2] : undefined;
  if (rows !== n) {
    const as = vector ? `a vector of ${b.shape[b.ndim - 1]}` : b.ndim < 2 ? `a ${b.ndim}-D tensor` : `${b.shape[b.ndim - 2]} by ${b.shape[b.ndim - 1]} matrices`;
    throw new RangeError(`linalg.solve: B must have ${n} rows for A of ${n} by ${n} matrices (shape ${formatShape(a.shape)}); got B ${formatShape(b.shape)}: ${as}`);
  }
  if (!vector) return solveMatrices('linalg.solve', a, b);
  return solveMatrices('linalg.solve', a, b.unsqueeze(-1)).squeeze(-1);
}

/**
 * The inverse of each square matrix [..., n, n] (torch.linalg.inv, torch.inverse).
 * @example tpu.linalg.inv(tpu.tensor([[2, 0], [0, 4]])) // [[0.5, 0], [0, 0.25]]
 */
export function inv(a: Tensor): Tensor {
  squareArg('linalg.inv', 'A', a);
  const n = a.shape[a.ndim - 1]!;
  return solveMatrices('linalg.inv', a, eye(n));
}
