// Elementwise math of one operand.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { unary } from './elementwise.js';
import { where } from './where.js';
import { zerosLike } from './like.js';
import { installMethods } from '../install-methods.js';

export const neg = unary('neg', {
  rejects: ['bool'],
  grad: (grad) => [grad.neg()],
  gradReads: 'none',
});

export const exp = unary('exp', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out)],
  gradReads: 'output',
});

export const log = unary('log', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.div(x!)],
  gradReads: 'operands',
});

export const tanh = unary('tanh', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.mul(out).neg().add(1))],
});

export const sqrt = unary('sqrt', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.div(out.mul(2))],
});

export const relu = unary('relu', {
  rejects: ['bool'],
  // a select, as PyTorch's threshold_backward (out <= 0 ? 0 : g): a NaN or inf gradient where
  // x <= 0 gives 0, and a NaN x passes the gradient on
  grad: (grad, _x, out) => [where(out.le(0), 0, grad)],
});

export const abs = unary('abs', {
  rejects: ['bool'],
  grad: (grad, [x]) => [grad.mul((x as Tensor).sign())],
});

export const sign = unary('sign', {
  rejects: ['bool'],
  // zeros, not grad·0: a NaN or inf gradient gives 0, as PyTorch's
  grad: (grad) => [zerosLike(grad)],
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * -x (JavaScript has no operator overloading; cells rewrite unary minus to this).
     * @example x.neg()
     */
    neg(): Tensor;
    /**
     * e to the power of each element.
     * @example x.exp()
     */
    exp(): Tensor;
    /**
     * Natural logarithm, elementwise.
     * @example x.log()
     */
    log(): Tensor;
    /**
     * Hyperbolic tangent, elementwise.
     * @example x.tanh()
     */
    tanh(): Tensor;
    /**
     * Square root, elementwise.
     * @example x.sqrt()
     */
    sqrt(): Tensor;
    /**
     * max(x, 0), elementwise (torch.relu).
     * @example x.relu()
     */
    relu(): Tensor;
    /**
     * Absolute value, elementwise.
     * @example x.abs()
     */
    abs(): Tensor;
    /**
     * -1, 0 or 1 by the sign of each element.
     * @example x.sign()
     */
    sign(): Tensor;
    /**
     * abs under NumPy's name (torch.absolute).
     * @example tpu.tensor([-2, 3]).absolute() // [2, 3]
     */
    absolute(): Tensor;
    /**
     * sign, as torch.sgn gives it for real tensors.
     * @example tpu.tensor([-2, 0, 3]).sgn() // [-1, 0, 1]
     */
    sgn(): Tensor;
  }
}
installMethods(Object.fromEntries([neg, exp, log, tanh, sqrt, relu, abs].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])));
installMethods({
  // the sign of a bool is itself (a new tensor), as in PyTorch
  sign() { return this.dtype === 'bool' ? this.clone() : apply(sign, [this], {}); },
  absolute() { return this.abs(); },
  sgn() { return this.sign(); },
});
