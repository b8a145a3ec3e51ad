// torch.unique: the distinct values (or slices along a dim) in sorted order, with each
// element's group (returnInverse) and each group's size (returnCounts). How many there are
// only the device knows: the input is read once (a sync; an error under tpu.compile), the
// groups are found on the host, and the values are gathered from the input on the device (so
// their dtype and bits, -0 included, are the input's).
import { INDEX_DTYPE } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { normalizeDim } from '../shape.js';
import { tensorArg } from './tensor-arg.js';
import { readSizingValues } from './true-positions.js';

export interface UniqueOptions {
  /** Accepted for PyTorch's signature: the result is sorted either way, as PyTorch's CPU result. */
  sorted?: boolean;
  returnInverse?: boolean;
  returnCounts?: boolean;
  /** Distinct slices along this dim instead of distinct elements. */
  dim?: number | null;
}

type Value = number | bigint;

/** Ascending, NaN last (as PyTorch's sort). */
const order = (a: Value, b: Value): number => (a < b ? -1 : a > b ? 1 : a === b ? 0 : a !== a ? (b !== b ? 0 : 1) : -1);
/** Rows compared element by element, the first difference deciding. */
function compareRows(values: ArrayLike<Value>, width: number, i: number, j: number): number {
  for (let k = 0; k < width; k++) {
    const c = order(values[i * width + k]!, values[j * width + k]!);
    if (c !== 0) return c;
  }
  return 0;
}
/** Equal rows: NaN equals nothing, so each NaN is a group of its own (as PyTorch's). */
function sameRows(values: ArrayLike<Value>, width: number, i: number, j: number): boolean {
  for (let k = 0; k < width; k++) if (values[i * width + k] !== values[j * width + k]) return false;
  return true;
}

/**
 * The sorted distinct values of x (torch.unique), or its distinct slices along `{ dim }`;
 * `{ returnInverse: true }` adds each element's (or slice's) index into them, `{ returnCounts:
 * true }` each one's count (both int64): then the result is [values, inverse?, counts?]. A
 * sync: the input is read to find them.
 * @example tpu.tensor([3, 1, 3, 2]).unique() // [1, 2, 3]
 */
export function unique(input: Tensor, options?: UniqueOptions & { returnInverse?: false; returnCounts?: false }): Tensor;
export function unique(input: Tensor, options: UniqueOptions): Tensor[];
export function unique(input: Tensor, options?: UniqueOptions): Tensor | Tensor[];
export function unique(input: Tensor, options?: UniqueOptions): Tensor | Tensor[] {
  const op = 'unique';
  const x = tensorArg(op, 'input', input);
  const { sorted = true, returnInverse = false, returnCounts = false, dim = null } = readOptions<UniqueOptions>(op, options, ['sorted', 'returnInverse', 'returnCounts', 'dim']);
  for (const [name, v] of [['sorted', sorted], ['returnInverse', returnInverse], ['returnCounts', returnCounts]] as const) {
    if (typeof v !== 'boolean') throw new TypeError(`${op}: ${name} must be true or false; got ${JSON.stringify(v)}`);
  }
  const d = dim === null ? null : normalizeDim(op, dim, x.ndim);
  const rows = d === null ? x.flatten() : x.movedim(d, 0);
  const n = d === null ? x.numel() : x.shape[d]!;
  const width = n === 0 ? 0 : rows.numel() / n;
  const values = readSizingValues(op, rows, 'input', {
    count: 'the number of distinct values',
    instead: 'call unique outside the compiled function',
  }) as ArrayLike<Value>;
  const byValue = Array.from({ length: n }, (_, i) => i).sort((i, j) => compareRows(values, width, i, j) || i - j);
  const first: number[] = [];
  const counts: number[] = [];
  const inverse = new Int32Array(n);
  byValue.forEach((i, k) => {
    if (k === 0 || !sameRows(values, width, byValue[k - 1]!, i)) {
      first.push(i);
      counts.push(0);
    }
    inverse[i] = first.length - 1;
    counts[counts.length - 1]!++;
  });
  const index = upload(op, () => first, [first.length], INDEX_DTYPE, x.chip);
  const distinct = d === null ? rows.indexSelect(0, index) : x.indexSelect(d, index);
  if (!returnInverse && !returnCounts) return distinct;
  const result = [distinct];
  if (returnInverse) result.push(upload(op, () => inverse, d === null ? x.shape : [n], INDEX_DTYPE, x.chip));
  if (returnCounts) result.push(upload(op, () => counts, [counts.length], INDEX_DTYPE, x.chip));
  return result;
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The sorted distinct values (torch.unique); `{ returnInverse, returnCounts, dim }`. A sync.
     * @example tpu.tensor([3, 1, 3, 2]).unique({ returnCounts: true })[1] // [1, 1, 2]
     */
    unique(options?: UniqueOptions & { returnInverse?: false; returnCounts?: false }): Tensor;
    unique(options: UniqueOptions): Tensor[];
    unique(options?: UniqueOptions): Tensor | Tensor[];
  }
}
installMethods({
  unique: function (this: Tensor, options?: UniqueOptions) { return unique(this, options); } as Tensor['unique'],
});
