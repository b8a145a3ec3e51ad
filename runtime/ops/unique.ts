// torch.unique: the distinct values (or slices along a dim) in sorted order, with each
// element's group (returnInverse) and each group's size (returnCounts): the groups of equal
// values adjacent in sorted order (value-groups.ts).
import { Tensor } from '../tensor.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { groupValues, type GroupOptions, type Value } from './value-groups.js';

export interface UniqueOptions extends GroupOptions {
  /** Accepted for PyTorch's signature: the result is sorted either way, as PyTorch's CPU result. */
  sorted?: boolean;
}

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
  const x = tensorArg('unique', 'input', input);
  const { sorted = true, ...grouping } = readOptions<UniqueOptions>('unique', options, ['sorted', 'returnInverse', 'returnCounts', 'dim']);
  if (typeof sorted !== 'boolean') throw new TypeError(`unique: sorted must be true or false; got ${JSON.stringify(sorted)}`);
  return groupValues('unique', x, grouping, 'distinct values', (values, width, n) =>
    Array.from({ length: n }, (_, i) => i).sort((i, j) => compareRows(values, width, i, j) || i - j));
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
