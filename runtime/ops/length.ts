// A tensor's length is its first dim, as Python's len(x) on a torch tensor: without it `x.length`
// was undefined, so `for (let i = 0; i < x.length; i++)` ran no step at all. Tensors are not
// iterable: generic code (test frameworks' deep equality, Array.from) walks iterables down to
// 0-d tensors, which have no rows (PyTorch's TypeError); `for (const row of x)` is JavaScript's
// "x is not iterable", and x.at(i) gives row i.
import { installGetters } from '../install-methods.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The size of the first dim (Python's len(x)); a 0-d tensor has none, as PyTorch's TypeError.
     * @example for (let i = 0; i < x.length; i++) x.at(i)
     */
    readonly length: number;
  }
}

installGetters({
  length() {
    if (this.ndim === 0) throw new TypeError(`length of a 0-d tensor: it has no first dim (PyTorch: len() of a 0-d tensor); x.item() reads its value`);
    return this.shape[0]!;
  },
});
