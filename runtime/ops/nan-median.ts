// nanmedian: the lower median of the elements that are not NaN (torch.nanmedian), NaN where all
// are; integers have no NaN, so theirs is median's. Composed over a stable sort (NaN last): the
// median is at position ⌊(count − 1) / 2⌋ of the row's count of non-NaN elements.
import { isFloating } from '../dtype.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { composite } from '../modes/composite.js';
import { noGrad } from '../autograd/grad-mode.js';
import { filled } from './constant.js';
import { checkDType, median, withSharedGradient } from './median.js';
import type { KeepdimOptions, OneDimOptions } from './reduce.js';
import { tensorArg } from './tensor-arg.js';
import type { ValuesIndices } from './values-indices.js';
import { dimGiven, oneDimArgs, pickAlong } from './selection-along-dim.js';

/** Where the lower median of each row (along d, sorted NaN last) is: ⌊(count − 1) / 2⌋, 0 for a row of NaN. */
function medianPosition(x: Tensor, d: number): Tensor {
  const count = x.isnan().logicalNot().sum(d, true);
  return count.sub(1).floorDivide(2).clamp(0);
}

/**
 * The lower median of the elements that are not NaN, of all (a value) or along dim with its
 * indices, as PyTorch's (values, indices) named tuple (torch.nanmedian).
 * @example tpu.nanmedian(tpu.tensor([3, NaN, 1, 2])) // 2
 */
export function nanmedian(x: Tensor): Tensor;
export function nanmedian(x: Tensor, dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
export function nanmedian(x: Tensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): Tensor | ValuesIndices {
  tensorArg('nanmedian', 'input', x);
  checkDType(x, 'nanmedian');
  const withDim = dimGiven(dim);
  const a = oneDimArgs('nanmedian', x, dim, keepdim);
  if (!isFloating(x.dtype)) return withDim ? median(x, a.dim, a.keepdim) : median(x);
  if (!withDim) {
    if (x.numel() === 0) return filled('nanmedian', [], NaN, x.dtype);
    return composite('nanmedian', () => {
      const flat = x.reshape([-1]);
      const value = noGrad(() => flat.sort().values.gather(0, medianPosition(flat, 0)).reshape([]));
      return withSharedGradient(x, value);
    });
  }
  return pickAlong('nanmedian', x, a.dim, a.keepdim, () => x.argsort(a.dim).gather(a.dim, medianPosition(x, a.dim)));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The lower median of the elements that are not NaN (x.nanmedian()), or along dim with its
     * indices (x.nanmedian(1): PyTorch's (values, indices) named tuple) (torch.nanmedian).
     * @example tpu.tensor([[3, NaN, 1], [NaN, NaN, NaN]]).nanmedian(1).values // [1, NaN]
     */
    nanmedian(): Tensor;
    nanmedian(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
  }
}
installMethods({
  nanmedian: function (this: Tensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions) { return nanmedian(this, dim as number, keepdim); } as Tensor['nanmedian'],
});
