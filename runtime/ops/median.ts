// median: PyTorch's lower median (the ((n − 1) / 2)-th smallest, NaN if any element is NaN),
// composed over sort. x.median() shares its gradient among the elements equal to it, as
// PyTorch's; x.median(dim) gives (values, indices), the gradient going to each index.
import { isFloating } from '../dtype.js';
import { formatShape } from '../shape.js';
import { composite } from '../modes/composite.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { gradEnabled, noGrad } from '../autograd/grad-mode.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { reduceAttrs, type KeepdimOptions, type OneDimOptions } from './reduce.js';
import type { ValuesIndices } from './values-indices.js';
import { tensorArg } from './tensor-arg.js';
import { dimGiven, pickAlong } from './selection-along-dim.js';

/** bool input is an error, as in PyTorch (median and nanmedian have no bool kernel). */
export function checkDType(x: Tensor, op = 'median'): void {
  if (x.dtype === 'bool') throw new TypeError(`${op}: bool input is not supported, as in PyTorch; convert it with x.to('int32')`);
}

/** The lower median of all elements: NaN if one is NaN (and for no elements). */
function medianOfAll(x: Tensor): Tensor {
  const n = x.numel();
  if (n === 0) {
    if (!isFloating(x.dtype)) throw new RangeError(`median: an empty ${x.dtype} tensor ${formatShape(x.shape)} has no median (PyTorch's value is undefined)`);
    return filled('median', [], NaN, x.dtype, x.chip);
  }
  return composite('median', () => {
    const value = noGrad(() => {
      const flat = x.reshape([-1]);
      const picked = flat.sort().values.narrow(0, Math.floor((n - 1) / 2), 1).reshape([]);
      return isFloating(x.dtype) ? where(flat.isnan().any(), NaN, picked) : picked;
    });
    return withSharedGradient(x, value);
  });
}

/**
 * `value`, one element of x picked without a gradient, with PyTorch's gradient of median() and
 * nanmedian(): shared evenly among the elements equal to it (the NaNs for a NaN one), as max()'s:
 * the max of those elements alone (the others -inf), or, for a value of -inf, the min of all.
 */
export function withSharedGradient(x: Tensor, value: Tensor): Tensor {
  if (!isFloating(x.dtype) || !gradEnabled() || !x.requiresGrad) return value;
  const hit = x.eq(value).logicalOr(x.isnan().logicalAnd(value.isnan()));
  return where(value.eq(-Infinity), x.min(), where(hit, x, -Infinity).max());
}

/** The lower median along d and its index (the first NaN's where the row holds one). */
function medianAlong(x: Tensor, d: number, keepdim: boolean): ValuesIndices {
  const n = x.shape[d]!;
  return pickAlong('median', x, d, keepdim, () => {
    const lower = x.argsort(d).narrow(d, Math.floor((n - 1) / 2), 1);
    if (!isFloating(x.dtype)) return lower;
    const nan = x.isnan();
    return where(nan.any(d, true), nan.to('int32').argmax(d, true), lower);
  });
}

/**
 * The lower median of all elements (a value), or along dim with its indices, as PyTorch's
 * (values, indices) named tuple (torch.median).
 * @example tpu.median(tpu.tensor([3, 1, 4, 2])) // 2
 */
export function median(x: Tensor): Tensor;
export function median(x: Tensor, dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
export function median(x: Tensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): Tensor | ValuesIndices {
  tensorArg('median', 'input', x);
  checkDType(x);
  const withDim = dimGiven(dim);
  const attrs = reduceAttrs('median', x, dim, keepdim, undefined, 'Take the median of the flattened dims: x.flatten(start, end).median(start).');
  return withDim ? medianAlong(x, attrs.dims[0]!, attrs.keepdim) : medianOfAll(x);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The lower median of all elements (x.median()), or along dim with its indices (x.median(1):
     * PyTorch's (values, indices) named tuple); NaN if an element is NaN (torch.median).
     * @example tpu.tensor([3, 1, 4, 2]).median() // 2
     * @example tpu.tensor([[3, 1, 4], [2, 8, 5]]).median(1).indices // [0, 2]
     */
    median(): Tensor;
    median(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
  }
}
installMethods({
  median: function (this: Tensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions) { return median(this, dim as number, keepdim); } as Tensor['median'],
});
