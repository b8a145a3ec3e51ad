// Composed ops: plain TypeScript over primitives, so gradients and fusion come for free.
import { normalizeDim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { temporaries } from '../scope.js';

// Composed ops run their body in temporaries(): what they make and do not return is never
// kept as a fused region's output (e.g. exp, used twice inside softmax). Nothing is
// disposed: autograd may still need it.
export function softmax(x: Tensor, dim: number): Tensor {
  const d = normalizeDim('softmax', dim, x.ndim);
  return temporaries(() => {
    const e = x.sub(x.amax(d, true)).exp();
    return e.div(e.sum(d, true));
  });
}

declare module '../tensor.js' {
  interface Tensor {
    softmax(dim: number | { dim: number }): Tensor;
  }
}
Tensor.prototype.softmax = function (dim) {
  return softmax(this, typeof dim === 'object' && dim !== null ? dim.dim : dim);
};
