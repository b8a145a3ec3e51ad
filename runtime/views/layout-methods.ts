// The layout a cell can ask about (x.stride(), x.isContiguous()) and the copies that PyTorch
// code makes to get a fresh tensor (x.contiguous() row-major, x.clone() in x's layout).
import { Tensor } from '../tensor.js';
import { apply } from '../modes/dispatch.js';
import { identity } from '../ops/identity.js';
import { normalizeDim } from '../shape.js';
import { installMethods } from '../install-methods.js';
import { isContiguous } from './layout.js';
import { layoutOf } from './view-tracking.js';
import { rowMajor } from './result-layout.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * PyTorch's strides of this tensor (a view's, in its base's storage), or of one dim.
     * @example tpu.zeros([2, 3]).T.stride() // [1, 3]
     */
    stride(): number[];
    stride(dim: number): number;
    /**
     * Whether the elements lie row-major in memory, as torch.Tensor.is_contiguous.
     * @example tpu.zeros([2, 3]).T.isContiguous() // false
     */
    isContiguous(): boolean;
    /**
     * This tensor when it is contiguous, else a row-major copy (torch.Tensor.contiguous).
     * @example x.T.contiguous().view([-1])
     */
    contiguous(): Tensor;
    /**
     * A copy that no view or in-place write shares, with this tensor's strides when they are
     * dense (PyTorch's preserve_format); gradients flow through it (torch.clone).
     * @example const y = x.clone(); y.add_(1) // x unchanged
     */
    clone(): Tensor;
  }
}

installMethods({
  stride(dim?: number): any {
    const { strides } = layoutOf(this);
    return dim === undefined ? [...strides] : strides[normalizeDim('stride', dim, this.ndim)]!;
  },
  isContiguous() {
    return isContiguous(this.shape, layoutOf(this).strides);
  },
  contiguous() {
    return this.isContiguous() ? this : rowMajor(apply(identity, [this], {}));
  },
  clone() {
    return apply(identity, [this], {});
  },
});
