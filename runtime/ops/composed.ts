// Composed ops: plain TypeScript over primitives, so gradients and fusion come for free.
import { normalizeDim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { scope } from '../scope.js';

// Composed ops run in a scope: their temporaries are disposed when they return, so a fused
// region never keeps them as outputs (e.g. exp, used twice inside softmax) and strict
// mode frees them at once.
export function softmax(x: Tensor, dim: number): Tensor {
  const d = normalizeDim('softmax', dim, x.ndim);
  return scope(() => {
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
