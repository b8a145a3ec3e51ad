// kthvalue: the k-th smallest element along a dim and its index (torch.kthvalue), NaN counted
// as larger than everything, as PyTorch's. From topk of the k smallest; the gradient goes to
// the index, through gather.
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import type { KeepdimOptions, OneDimOptions } from './reduce.js';
import { tensorArg } from './tensor-arg.js';
import type { ValuesIndices } from './values-indices.js';
import { oneDimArgs, pickAlong } from './selection-along-dim.js';
import { specialized } from '../jit/live-number.js';

/**
 * The k-th smallest (k from 1) along dim (default the last) and its index, as PyTorch's
 * (values, indices) named tuple (torch.kthvalue).
 * @example tpu.kthvalue(tpu.tensor([3, 1, 4, 2]), 2).values // 2
 */
export function kthvalue(x: Tensor, k: number, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices {
  tensorArg('kthvalue', 'input', x);
  k = specialized(k);
  if (x.dtype === 'bool') throw new TypeError("kthvalue: bool input is not supported, as in PyTorch; convert it with x.to('int32')");
  const a = oneDimArgs('kthvalue', x, dim, keepdim);
  const n = x.ndim === 0 ? 1 : x.shape[a.dim]!;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`kthvalue: k must be an integer in [1, ${n}] (the size of dim ${a.dim} of the input ${formatShape(x.shape)}); got ${JSON.stringify(k)}`);
  }
  return pickAlong('kthvalue', x, a.dim, a.keepdim, () => x.topk(k, { dim: a.dim, largest: false }).indices.narrow(a.dim, k - 1, 1));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The k-th smallest (k from 1) along dim, default the last, and its index (torch.kthvalue).
     * @example tpu.tensor([[3, 1, 4], [2, 8, 5]]).kthvalue(2, 1).values // [3, 5]
     */
    kthvalue(k: number, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
  }
}
installMethods({
  kthvalue(k, dim, keepdim) { return kthvalue(this, k, dim, keepdim); },
});
