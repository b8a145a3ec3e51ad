// PyTorch's max_norm of embedding lookups (torch.embedding_renorm_): before the lookup, each
// row the indices pick whose p-norm is above maxNorm is scaled in place by
// maxNorm / (norm + 1e-7), outside autograd. Computed on the device over the picked rows and
// written back with indexCopy_ (a row picked twice is written twice with equal values): no sync.
import { noGrad } from '../../autograd/grad-mode.js';
import type { Tensor } from '../../tensor.js';
import { specialized } from '../../jit/live-number.js';
import { rowsAt } from '../gather-scatter.js';
import { where } from '../where.js';

/** maxNorm and normType read and checked: null when no maxNorm is given. */
export function renormOptions(op: string, maxNorm: unknown, normType: unknown): { maxNorm: number; normType: number } | null {
  const max = specialized(maxNorm);
  if (max === undefined || max === null) {
    if (normType !== undefined) throw new TypeError(`${op}: normType applies with maxNorm only; got normType ${JSON.stringify(normType)} and no maxNorm`);
    return null;
  }
  if (typeof max !== 'number' || !(max > 0)) throw new RangeError(`${op}: maxNorm must be a positive number; got ${JSON.stringify(max)}`);
  const p = specialized(normType ?? 2);
  if (typeof p !== 'number' || !(p > 0)) throw new RangeError(`${op}: normType must be a positive number (Infinity for the max norm); got ${JSON.stringify(p)}`);
  return { maxNorm: max, normType: p };
}

/** Scales, in place, each row of weight [V, D] that `indices` pick whose normType-norm is above maxNorm down to maxNorm. */
export function renormPickedRows(weight: Tensor, indices: Tensor, maxNorm: number, normType: number): void {
  noGrad(() => {
    const picked = indices.reshape([-1]);
    const rows = rowsAt(weight, picked);
    const norms = rows.norm(normType, 1, true);
    const scale = where(norms.gt(maxNorm), norms.add(1e-7).reciprocal().mul(maxNorm), 1);
    weight.indexCopy_(0, picked, rows.mul(scale));
  });
}
