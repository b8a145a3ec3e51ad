// Views that pick or swap whole dims: t, swapaxes/swapdims (transpose), select, unbind. Each is
// built on a tracked view method (transpose, narrow, squeeze), so it aliases its input as
// PyTorch's does.
import { formatShape, normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { squeeze } from './shape-ops.js';
import { numberValue } from '../jit/live-number.js';

/**
 * x[..., index, ...] along dim: that dim dropped (torch.select); a negative index counts from the end.
 * @example tpu.tensor([[1, 2], [3, 4]]).select(1, -1) // [2, 4]
 */
export function select(x: Tensor, dim: number, index: number): Tensor {
  const d = normalizeDim('select', dim, x.ndim);
  const n = x.shape[d]!;
  const i = numberValue(index) as number; // a tpu.compile number argument: narrow feeds it
  if (!Number.isInteger(i)) throw new TypeError(`select: index must be an integer; got ${i}`);
  if (i < -n || i >= n) {
    throw new RangeError(`select: index ${i} out of range for tensor of size ${formatShape(x.shape)} at dimension ${d} (valid: ${-n} to ${n - 1})`);
  }
  return squeeze(x.narrow(d, index, 1), d);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The transpose of a matrix; a 0-d or 1-D tensor as it is (torch.Tensor.t).
     * @example tpu.tensor([[1, 2], [3, 4]]).t() // [[1, 3], [2, 4]]
     */
    t(): Tensor;
    /**
     * Swaps two dims: transpose's NumPy name (torch.swapaxes).
     * @example tpu.zeros(2, 3, 4).swapaxes(0, 2).shape // [4, 3, 2]
     */
    swapaxes(axis0: number, axis1: number): Tensor;
    /**
     * Swaps two dims: transpose (torch.swapdims).
     * @example tpu.zeros(2, 3).swapdims(0, 1).shape // [3, 2]
     */
    swapdims(dim0: number, dim1: number): Tensor;
    /**
     * The slice at index along dim, that dim removed (torch.select): a view.
     * @example tpu.tensor([[1, 2], [3, 4]]).select(0, 1) // [3, 4]
     */
    select(dim: number, index: number): Tensor;
    /**
     * Every slice along dim (0 by default), each a view with that dim removed (torch.unbind).
     * @example tpu.tensor([[1, 2], [3, 4]]).unbind(1).length // 2
     */
    unbind(dim?: number): Tensor[];
  }
}
installMethods({
  t() {
    if (this.ndim > 2) throw new RangeError(`t: expects a tensor with <= 2 dimensions, but the input is ${this.ndim}-D ${formatShape(this.shape)}; use transpose(dim0, dim1) or mT`);
    return this.ndim < 2 ? this : this.transpose(0, 1);
  },
  swapaxes(axis0, axis1) { return this.transpose(axis0, axis1); },
  swapdims(dim0, dim1) { return this.transpose(dim0, dim1); },
  select(dim, index) { return select(this, dim, index); },
  unbind(dim = 0) {
    const d = normalizeDim('unbind', dim, this.ndim);
    return Array.from({ length: this.shape[d]! }, (_, i) => this.select(d, i));
  },
});
