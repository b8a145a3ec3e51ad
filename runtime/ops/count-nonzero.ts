// countNonzero: how many values are not zero (NaN counts), over all dims or the given ones
// (torch.count_nonzero, which has no keepdim), int64 as PyTorch's; a sum of the mask on the
// device, so no sync, unlike nonzero.
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { reduceAttrs } from './reduce.js';
import { tensorArg } from './tensor-arg.js';

type CountDims = number | readonly number[] | { dim?: number | readonly number[] };

/**
 * The number of nonzero values, int64, over all dims or `dim` (a number or a list).
 * @example tpu.countNonzero(tpu.tensor([[0, 1], [2, 0]]), 0) // [1, 1]
 */
export function countNonzero(x: Tensor, dim?: CountDims): Tensor {
  tensorArg('countNonzero', 'input', x);
  const { dims } = reduceAttrs('countNonzero', x, dim, undefined, ['dim']);
  return (x.dtype === 'bool' ? x : x.ne(0)).sum([...dims]);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The number of nonzero values, int64, over all dims or `dim` (torch.count_nonzero).
     * @example tpu.tensor([0, 3, 5]).countNonzero() // 2
     */
    countNonzero(dim?: CountDims): Tensor;
  }
}
installMethods({
  countNonzero(dim) { return countNonzero(this, dim); },
});
