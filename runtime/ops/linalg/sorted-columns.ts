// The columns of matrices in the order of their values: the eigen- and singular vectors follow
// their sorted values.
import type { Tensor } from '../../tensor.js';
import { gatherChecked } from '../gather-scatter.js';

/** values sorted along the last dim, and each of `matrices`' columns [..., rows, n] moved with its value. */
export function sortColumns(values: Tensor, descending: boolean, matrices: readonly Tensor[]): { sorted: Tensor; columns: Tensor[] } {
  const { values: sorted, indices } = values.sort(-1, descending);
  // sort's indices are in range by construction: no device-side check
  const order = indices.unsqueeze(-2);
  return { sorted, columns: matrices.map((m) => gatherChecked(m, -1, order.expand(m.shape), true)) };
}
