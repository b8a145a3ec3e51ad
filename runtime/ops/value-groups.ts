// What unique and uniqueConsecutive share: the input read once (its values size the result: a
// sync, an error under tpu.compile), elements (or slices along a dim) taken in some order and
// each run of equal ones in that order made one group; the groups' first elements gathered on
// the device (so dtype and bits, -0 included, are the input's), with each element's group
// (returnInverse) and each group's size (returnCounts), int64.
import { INDEX_DTYPE } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { normalizeDim } from '../shape.js';
import { readSizingValues } from './true-positions.js';

export type Value = number | bigint;

export interface GroupOptions {
  returnInverse?: boolean;
  returnCounts?: boolean;
  /** Groups of equal slices along this dim instead of equal elements. */
  dim?: number | null;
}

/** Equal rows: NaN equals nothing, so each NaN is a group of its own (as PyTorch's). */
function sameRows(values: ArrayLike<Value>, width: number, i: number, j: number): boolean {
  for (let k = 0; k < width; k++) if (values[i * width + k] !== values[j * width + k]) return false;
  return true;
}

/**
 * The groups of x's elements (or slices along `dim`) equal and adjacent in `order` (the row
 * indices in the order to group them, from the values read): the kept values alone, or
 * [values, inverse?, counts?].
 */
export function groupValues(op: string, x: Tensor, options: GroupOptions, what: string, order: (values: ArrayLike<Value>, width: number, n: number) => number[]): Tensor | Tensor[] {
  const { returnInverse = false, returnCounts = false, dim = null } = options;
  for (const [name, v] of [['returnInverse', returnInverse], ['returnCounts', returnCounts]] as const) {
    if (typeof v !== 'boolean') throw new TypeError(`${op}: ${name} must be true or false; got ${JSON.stringify(v)}`);
  }
  const d = dim === null ? null : normalizeDim(op, dim, x.ndim);
  const rows = d === null ? x.flatten() : x.movedim(d, 0);
  const n = d === null ? x.numel() : x.shape[d]!;
  const width = n === 0 ? 0 : rows.numel() / n;
  const values = readSizingValues(op, rows, 'input', { count: `the number of ${what}`, instead: `call ${op} outside the compiled function` }) as ArrayLike<Value>;
  const first: number[] = [];
  const counts: number[] = [];
  const inverse = new Int32Array(n);
  let previous = -1;
  for (const i of order(values, width, n)) {
    if (previous < 0 || !sameRows(values, width, previous, i)) {
      first.push(i);
      counts.push(0);
    }
    inverse[i] = first.length - 1;
    counts[counts.length - 1]!++;
    previous = i;
  }
  const index = upload(op, () => first, [first.length], INDEX_DTYPE, x.chip);
  const kept = d === null ? rows.indexSelect(0, index) : x.indexSelect(d, index);
  if (!returnInverse && !returnCounts) return kept;
  const result = [kept];
  if (returnInverse) result.push(upload(op, () => inverse, d === null ? x.shape : [n], INDEX_DTYPE, x.chip));
  if (returnCounts) result.push(upload(op, () => counts, [counts.length], INDEX_DTYPE, x.chip));
  return result;
}
