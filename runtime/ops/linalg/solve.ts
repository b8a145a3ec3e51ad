// solve and inv (torch.linalg.solve, torch.linalg.inv) and their _ex forms: elimination of
// [A | B] (elimination.ts), then back substitution. A singular matrix (a zero pivot) fails on
// the device with PyTorch's message (ops/device-check.ts): no host read per call.
import { broadcastShapes, formatShape, shapesEqual } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { eye } from '../../creation-computed.js';
import { concat } from '../concat.js';
import { filled } from '../constant.js';
import { checkedOnDevice, firstFailure } from '../device-check.js';
import { eliminate } from './elimination.js';
import { ofOwnBatch, readCheckErrors, type CheckErrorsOptions } from './failure-info.js';
import { floatingArg, squareArg } from './matrix-args.js';
import { InvEx, SolveEx } from './named-results.js';
import { readOptions } from '../../options.js';
import { describeValue } from '../../distributed/describe-value.js';

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

/** What inv and solve say of a singular matrix, PyTorch's words after the op's name. */
const SINGULAR = {
  inv: 'The diagonal element {k} is zero, the inversion could not be completed because the input matrix is singular.',
  solve: 'The solver failed because the input matrix is singular.',
} as const;

/**
 * X with AX = B, B a batch of matrices [..., n, m] whose batch broadcasts with A's, all one
 * composed op. A singular A fails on the device with `singular` (SINGULAR's text), unless it
 * is null; `ex` appends a column holding info (LAPACK getrf's: the first zero pivot, 1-based,
 * of each batch element, 0 for none): [..., n, m + 1]. A is checked also when B has no
 * columns, as PyTorch's.
 */
function solveMatrices(op: string, a: Tensor, b: Tensor, singular: string | null, ex: boolean): Tensor {
  const n = a.shape[a.ndim - 1]!;
  const m = b.shape[b.ndim - 1]!;
  const own = a.shape.slice(0, -2);
  const batch = broadcastShapes(op, own, b.shape.slice(0, -2), ['A', 'B']);
  // nothing to eliminate (ONNX Runtime's sums over an empty batch fail)
  if (n === 0 || batch.includes(0)) return filled(op, [...batch, n, m + (ex ? 1 : 0)], 0, a.dtype, a.chip);
  return composite(op, () => {
    const ab = concat([a.expand([...batch, n, n]), b.expand([...batch, n, m])], -1);
    const { rows, pivots } = eliminate(ab, n);
    const x = m === 0 ? ab.narrow(-1, n, 0) : backSubstitute(rows, n, m);
    const info = firstFailure(concat(pivots, -1).reshape([...batch, n]).ne(0));
    const out = ex ? concat([x, info.to(x.dtype).reshape([...batch, 1, 1]).expand([...batch, n, 1])], -1) : x;
    return singular === null ? out : checkedOnDevice(out, ofOwnBatch(info, own), { op, text: singular, n, batched: own.length > 0 });
  });
}

export interface SolveOptions {
  /** false: solve XA = B instead of AX = B (B then matrices [..., k, n]), as PyTorch's left=. */
  left?: boolean;
}

/** The left option of solve and solveEx (`extra`: the op's other keys). */
function readLeft(op: string, options: unknown, extra: readonly string[]): boolean {
  const { left = true } = readOptions<SolveOptions>(op, options, ['left', ...extra] as (keyof SolveOptions)[]);
  if (typeof left !== 'boolean') throw new TypeError(`${op}: left must be a boolean; got ${describeValue(left)}`);
  return left;
}

/**
 * The vector or matrix form of B, as PyTorch decides: B is a batch of vectors when 1-D or A's
 * shape without its last dim. XA = B (left false) takes matrices only, as PyTorch's.
 */
function solveArgs(op: string, a: Tensor, b: Tensor, left: boolean): boolean {
  squareArg(op, 'A', a);
  floatingArg(op, 'B', b, false);
  const n = a.shape[a.ndim - 1]!;
  const vector = b.ndim === 1 || (b.ndim === a.ndim - 1 && shapesEqual(b.shape, a.shape.slice(0, -1)));
  if (!left) {
    if (vector || b.ndim < 2 || b.shape[b.ndim - 1] !== n) {
      throw new RangeError(`${op}: with left false (XA = B) B must be matrices with ${n} columns for A of ${n} by ${n} matrices (shape ${formatShape(a.shape)}); got B ${formatShape(b.shape)}${vector ? ', a vector' : ''}`);
    }
    return false;
  }
  const rows = vector ? b.shape[b.ndim - 1] : b.ndim >= 2 ? b.shape[b.ndim - 2] : undefined;
  if (rows !== n) {
    const as = vector ? `a vector of ${b.shape[b.ndim - 1]}` : b.ndim < 2 ? `a ${b.ndim}-D tensor` : `${b.shape[b.ndim - 2]} by ${b.shape[b.ndim - 1]} matrices`;
    throw new RangeError(`${op}: B must have ${n} rows for A of ${n} by ${n} matrices (shape ${formatShape(a.shape)}); got B ${formatShape(b.shape)}: ${as}`);
  }
  return vector;
}

/** The AX = B form of the system: XA = B is AᵀXᵀ = Bᵀ (X then transposed back). */
const leftForm = (a: Tensor, b: Tensor, left: boolean): [Tensor, Tensor] => (left ? [a, b] : [a.mT, b.mT]);

/**
 * X with AX = B for square A [..., n, n] (torch.linalg.solve). B is a batch of vectors when it
 * is 1-D or has A's shape without the last dim, as PyTorch decides; else of matrices [..., n, m].
 * `{ left: false }` solves XA = B. Batch dims broadcast. A singular A fails on the device
 * (DeviceError at the next sync point).
 * @example tpu.linalg.solve(tpu.tensor([[2, 0], [0, 4]]), tpu.tensor([2, 2])) // [1, 0.5]
 * @example tpu.linalg.solve(tpu.tensor([[2, 0], [0, 4]]), tpu.tensor([[2, 2]]), { left: false }) // [[1, 0.5]]
 */
export function solve(a: Tensor, b: Tensor, options?: SolveOptions): Tensor {
  const op = 'linalg.solve';
  const left = readLeft(op, options, []);
  const vector = solveArgs(op, a, b, left);
  if (vector) return solveMatrices(op, a, b.unsqueeze(-1), SINGULAR.solve, false).squeeze(-1);
  const [aa, bb] = leftForm(a, b, left);
  const x = solveMatrices(op, aa, bb, SINGULAR.solve, false);
  return left ? x : x.mT;
}

/**
 * solve's X and, for each of A's batch elements, info (int32): 0, or the first zero pivot
 * (1-based) of a singular matrix, whose X is then inf and NaN (torch.linalg.solve_ex). With
 * { checkErrors: true } a singular A fails, as solve; `{ left: false }` solves XA = B.
 * @example const { result, info } = tpu.linalg.solveEx(tpu.tensor([[1, 2], [2, 4]]), tpu.tensor([1, 1])) // info 2
 */
export function solveEx(a: Tensor, b: Tensor, options?: CheckErrorsOptions & SolveOptions): SolveEx {
  const op = 'linalg.solveEx';
  const left = readLeft(op, options, ['checkErrors']);
  const vector = solveArgs(op, a, b, left);
  const checkErrors = readCheckErrors(op, options, ['left']);
  const [aa, bb] = leftForm(a, vector ? b.unsqueeze(-1) : b, left);
  const both = solveMatrices(op, aa, bb, checkErrors ? SINGULAR.solve : null, true);
  const x = both.narrow(-1, 0, both.shape[both.ndim - 1]! - 1);
  return new SolveEx(vector ? x.squeeze(-1) : left ? x : x.mT, infoColumn(op, both, a));
}

/** info from the column an _ex solve appended, cut to A's own batch (0 for 0×0 matrices). */
function infoColumn(op: string, both: Tensor, a: Tensor): Tensor {
  const own = a.shape.slice(0, -2);
  if (a.shape[a.ndim - 1] === 0) return filled(op, own, 0, 'int32', a.chip);
  return ofOwnBatch(both.select(-1, both.shape[both.ndim - 1]! - 1).select(-1, 0), own).to('int32');
}

/**
 * The inverse of each square matrix [..., n, n] (torch.linalg.inv, torch.inverse). A singular
 * matrix fails on the device with PyTorch's message (DeviceError at the next sync point).
 * @example tpu.linalg.inv(tpu.tensor([[2, 0], [0, 4]])) // [[0.5, 0], [0, 0.25]]
 */
export function inv(a: Tensor): Tensor {
  const op = 'linalg.inv';
  squareArg(op, 'A', a);
  const n = a.shape[a.ndim - 1]!;
  return solveMatrices(op, a, eye(n, { chip: a.chip }), SINGULAR.inv, false);
}

/**
 * The inverse and, for each matrix, info (int32): 0, or the first zero pivot (1-based) of a
 * singular matrix, whose inverse is then inf and NaN (torch.linalg.inv_ex). With
 * { checkErrors: true } a singular matrix fails, as inv.
 * @example const { inverse, info } = tpu.linalg.invEx(tpu.tensor([[1, 2], [2, 4]])) // info 2
 */
export function invEx(a: Tensor, options?: CheckErrorsOptions): InvEx {
  const op = 'linalg.invEx';
  squareArg(op, 'A', a);
  const checkErrors = readCheckErrors(op, options);
  const n = a.shape[a.ndim - 1]!;
  const both = solveMatrices(op, a, eye(n, { chip: a.chip }), checkErrors ? SINGULAR.inv : null, true);
  return new InvEx(both.narrow(-1, 0, n), infoColumn(op, both, a));
}
