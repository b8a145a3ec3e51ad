// nansum nanmean: sum and mean that skip NaN (torch.nansum, torch.nanmean), composed over where
// and sum, so a NaN element gets a zero gradient, as PyTorch's.
import { isFloating } from '../dtype.js';
import { composite } from '../modes/composite.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { inAskedDType, sumArgs, type SumOptions } from './reduce.js';
import { where } from './where.js';

type DimArg = number | readonly number[] | SumOptions;

/**
 * The sum treating NaN as 0, over all dims or the given ones; `{ dtype }` as sum's (torch.nansum).
 * @example tpu.nansum(tpu.tensor([1, NaN, 2])) // 3
 */
export function nansum(x: Tensor, dim?: DimArg, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor {
  const { attrs, dtype } = sumArgs('nansum', x, dim, keepdim);
  const v = dtype === undefined ? x : x.to(dtype);
  if (!isFloating(v.dtype)) return inAskedDType(v.sum(attrs.dims, attrs.keepdim), dtype);
  return composite('nansum', () => where(v.isnan(), 0, v).sum(attrs.dims, attrs.keepdim));
}

/**
 * The mean of the elements that are not NaN (NaN where all are), as PyTorch's nansum / count
 * (torch.nanmean); floating-point tensors only, as PyTorch's; `{ dtype }` as mean's.
 * @example tpu.nanmean(tpu.tensor([1, NaN, 2])) // 1.5
 */
export function nanmean(x: Tensor, dim?: DimArg, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor {
  const { attrs, dtype } = sumArgs('nanmean', x, dim, keepdim);
  if (!isFloating(x.dtype)) throw new TypeError(`nanmean: input must be floating point (float32 or bfloat16), as in PyTorch (also with a dtype); got ${x.dtype}. Cast it first: x.to('float32')`);
  const v = dtype === undefined ? x : x.to(dtype);
  return composite('nanmean', () => {
    const nan = v.isnan();
    return where(nan, 0, v).sum(attrs.dims, attrs.keepdim).div(nan.logicalNot().sum(attrs.dims, attrs.keepdim));
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The sum treating NaN as 0 (torch.nansum).
     * @example tpu.tensor([[1, NaN], [2, 3]]).nansum(1) // [1, 5]
     */
    nansum(dim?: DimArg, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor;
    /**
     * The mean of the elements that are not NaN (torch.nanmean).
     * @example tpu.tensor([[1, NaN], [2, 3]]).nanmean(1) // [1, 2.5]
     */
    nanmean(dim?: DimArg, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor;
  }
}
installMethods({
  nansum(dim, keepdim) { return nansum(this, dim, keepdim); },
  nanmean(dim, keepdim) { return nanmean(this, dim, keepdim); },
});
