// cholesky (torch.linalg.cholesky) and cholesky_ex: A = L·Lᵀ, column by column (right-looking,
// unrolled over n). Autograd differentiates the steps. A matrix that is not positive-definite
// meets a pivot that is not positive (or NaN), as LAPACK's potrf: cholesky fails on the device
// with PyTorch's message (ops/device-check.ts), choleskyEx returns its order as info.
import type { Tensor } from '../../tensor.js';
import { readOptions } from '../../options.js';
import { composite } from '../../modes/composite.js';
import { concat } from '../concat.js';
import { filled } from '../constant.js';
import { pad } from '../pad.js';
import { checkedOnDevice, firstFailure } from '../device-check.js';
import { readCheckErrors, type CheckErrorsOptions } from './failure-info.js';
import { CholeskyEx } from './named-results.js';
import { squareArg } from './matrix-args.js';
import { symmetricFromTriangle } from './symmetric-input.js';

export interface CholeskyOptions {
  /** Return U = Lᵀ (reading A's upper triangle), as PyTorch's upper=True. */
  upper?: boolean;
}

const NOT_POSITIVE_DEFINITE = 'The factorization could not be completed because the input is not positive-definite (the leading minor of order {k} is not positive-definite).';

/** L of symmetric S [..., n, n], and info: the first pivot that is not positive (1-based), 0 for none. */
function lowerFactor(s: Tensor, n: number): { l: Tensor; info: Tensor } {
  const columns: Tensor[] = [];
  const pivots: Tensor[] = [];
  let rest = s;
  for (let k = 0; k < n; k++) {
    const pivot = rest.narrow(-2, 0, 1).narrow(-1, 0, 1);
    pivots.push(pivot);
    const column = rest.narrow(-1, 0, 1).div(pivot.sqrt());
    columns.push(k === 0 ? column : pad(column, [0, 0, k, 0]));
    if (k === n - 1) break;
    const below = column.narrow(-2, 1, n - k - 1);
    rest = rest.narrow(-2, 1, n - k - 1).narrow(-1, 1, n - k - 1).sub(below.mul(below.mT));
  }
  const info = firstFailure(concat(pivots, -1).reshape([...s.shape.slice(0, -2), n]).gt(0));
  return { l: concat(columns, -1), info };
}

/** The options of cholesky and choleskyEx (`extra`: the other keys accepted). */
function readUpper(op: string, options: unknown, extra: readonly string[]): boolean {
  const { upper = false } = readOptions<CholeskyOptions>(op, options, ['upper', ...extra] as (keyof CholeskyOptions)[]);
  if (typeof upper !== 'boolean') throw new TypeError(`${op}: upper must be a boolean; got ${JSON.stringify(upper)}`);
  return upper;
}

/**
 * L (Lᵀ with upper) of each matrix, with info packed as a last column when `ex` ([..., n, n + 1]),
 * checked on the device where `check` says.
 */
function factor(op: string, a: Tensor, upper: boolean, check: boolean, ex: boolean): Tensor {
  const n = a.shape[a.ndim - 1]!;
  const batch = a.shape.slice(0, -2);
  return composite(op, () => {
    const { l, info } = lowerFactor(symmetricFromTriangle(a, upper), n);
    const factor = upper ? l.mT.contiguous() : l;
    const out = ex ? concat([factor, info.to(a.dtype).reshape([...batch, 1, 1]).expand([...batch, n, 1])], -1) : factor;
    return check ? checkedOnDevice(out, info, { op, text: NOT_POSITIVE_DEFINITE, n, batched: batch.length > 0 }) : out;
  });
}

/**
 * The Cholesky factor L (lower triangular, positive diagonal) of each symmetric positive-definite
 * matrix [..., n, n], A = L·Lᵀ; only A's lower triangle is read (the upper with { upper: true },
 * which returns Lᵀ) (torch.linalg.cholesky). A matrix that is not positive-definite fails on
 * the device with PyTorch's message (DeviceError at the next sync point).
 * @example tpu.linalg.cholesky(tpu.tensor([[4, 2], [2, 5]])) // [[2, 0], [1, 2]]
 */
export function cholesky(a: Tensor, options?: CholeskyOptions): Tensor {
  const op = 'linalg.cholesky';
  squareArg(op, 'A', a);
  const upper = readUpper(op, options, []);
  if (a.shape[a.ndim - 1] === 0) return a.clone();
  return factor(op, a, upper, true, false);
}

/**
 * cholesky's factor and, for each matrix, info (int32): 0, or the order of the first leading
 * minor that is not positive-definite, the factor being NaN from that column on
 * (torch.linalg.cholesky_ex). With { checkErrors: true } such a matrix fails, as cholesky.
 * @example const { L, info } = tpu.linalg.choleskyEx(tpu.tensor([[1, 2], [2, 1]])) // info 2
 */
export function choleskyEx(a: Tensor, options?: CholeskyOptions & CheckErrorsOptions): CholeskyEx {
  const op = 'linalg.choleskyEx';
  squareArg(op, 'A', a);
  const upper = readUpper(op, options, ['checkErrors']);
  const checkErrors = readCheckErrors(op, options, ['upper']);
  const n = a.shape[a.ndim - 1]!;
  if (n === 0) return new CholeskyEx(a.clone(), filled(op, a.shape.slice(0, -2), 0, 'int32', a.chip));
  const both = factor(op, a, upper, checkErrors, true);
  return new CholeskyEx(both.narrow(-1, 0, n), both.select(-1, n).select(-1, 0).to('int32'));
}
