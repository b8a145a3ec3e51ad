// `for (const row of x)`, `[...x]`, `const [a, b] = x`: a tensor iterates over its first dim,
// each item the view x.at(i), as a torch tensor does in Python. A 0-d tensor has no items.
import { Tensor } from '../tensor.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The views x.at(0), x.at(1), ... along the first dim (iterating a torch tensor).
     * @example for (const row of tpu.tensor([[1, 2], [3, 4]])) console.log(row.sum().item()) // 3, then 7
     */
    [Symbol.iterator](): Iterator<Tensor>;
  }
}

Object.defineProperty(Tensor.prototype, Symbol.iterator, {
  value: function* rows(this: Tensor): Generator<Tensor> {
    if (this.ndim === 0) throw new TypeError('iteration over a 0-d tensor: use x.item() for its value');
    for (let i = 0; i < this.shape[0]!; i++) yield this.at(i);
  },
  writable: true,
  configurable: true,
});
