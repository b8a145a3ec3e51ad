// torch.unique_consecutive: each run of equal consecutive values (or slices along a dim) kept
// once, with each element's run (returnInverse) and each run's length (returnCounts): the
// groups of equal values adjacent in the input's order (value-groups.ts), so -0 and 0 make one
// run, kept with the first one's sign, and NaN equals nothing.
import type { Tensor } from '../tensor.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { groupValues, type GroupOptions } from './value-groups.js';

export type UniqueConsecutiveOptions = GroupOptions;

/**
 * x with each run of equal consecutive values kept once (torch.unique_consecutive), or each run
 * of equal slices along `{ dim }`; `{ returnInverse: true }` adds each element's (or slice's)
 * run, `{ returnCounts: true }` each run's length (both int64): then the result is
 * [values, inverse?, counts?]. A sync: the input is read to find the runs.
 * @example tpu.tensor([1, 1, 2, 2, 3, 1]).uniqueConsecutive() // [1, 2, 3, 1]
 */
export function uniqueConsecutive(input: Tensor, options?: UniqueConsecutiveOptions & { returnInverse?: false; returnCounts?: false }): Tensor;
export function uniqueConsecutive(input: Tensor, options: UniqueConsecutiveOptions): Tensor[];
export function uniqueConsecutive(input: Tensor, options?: UniqueConsecutiveOptions): Tensor | Tensor[];
export function uniqueConsecutive(input: Tensor, options?: UniqueConsecutiveOptions): Tensor | Tensor[] {
  const x = tensorArg('uniqueConsecutive', 'input', input);
  const grouping = readOptions<UniqueConsecutiveOptions>('uniqueConsecutive', options, ['returnInverse', 'returnCounts', 'dim']);
  return groupValues('uniqueConsecutive', x, grouping, 'runs of equal values', (_values, _width, n) => Array.from({ length: n }, (_, i) => i));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Each run of equal consecutive values kept once (torch.unique_consecutive); `{ returnInverse, returnCounts, dim }`. A sync.
     * @example tpu.tensor([1, 1, 2, 1]).uniqueConsecutive({ returnCounts: true })[1] // [2, 1, 1]
     */
    uniqueConsecutive(options?: UniqueConsecutiveOptions & { returnInverse?: false; returnCounts?: false }): Tensor;
    uniqueConsecutive(options: UniqueConsecutiveOptions): Tensor[];
    uniqueConsecutive(options?: UniqueConsecutiveOptions): Tensor | Tensor[];
  }
}
installMethods({
  uniqueConsecutive: function (this: Tensor, options?: UniqueConsecutiveOptions) { return uniqueConsecutive(this, options); } as Tensor['uniqueConsecutive'],
});
