// A tensor as a sequence of its first dim's slices, as Python's len(x) and `for row in x` on a
// torch tensor: `x.length`, `for (const row of x)`, `const [a, b] = x`. Without them `x.length`
// was undefined, so `for (let i = 0; i < x.length; i++)` ran no step at all.
import { Tensor } from '../tensor.js';
import { installGetters } from '../install-methods.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The size of the first dim (Python's len(x)); a 0-d tensor has none, as PyTorch's TypeError.
     * @example for (let i = 0; i < x.length; i++) x.at(i)
     */
    readonly length: number;
    /**
     * The first dim's slices in order, views of x (`for row in x`).
     * @example for (const row of x) row.sum()
     */
    [Symbol.iterator](): Iterator<Tensor>;
  }
}

installGetters({
  length() {
    if (this.ndim === 0) throw new TypeError(`length of a 0-d tensor: it has no first dim (PyTorch: len() of a 0-d tensor); x.item() reads its value`);
    return this.shape[0]!;
  },
});

Object.defineProperty(Tensor.prototype, Symbol.iterator, {
  value: function* rows(this: Tensor): Iterator<Tensor> {
    if (this.ndim === 0) throw new TypeError('iteration over a 0-d tensor: it has no first dim (as in PyTorch); x.item() reads its value');
    for (let i = 0; i < this.shape[0]!; i++) yield this.at(i);
  },
  configurable: true,
  writable: true,
});
