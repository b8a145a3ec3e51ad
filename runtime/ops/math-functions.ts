// Elementwise functions of one operand besides unary-math.ts's: integer inputs compute in
// float32 (as PyTorch does); each gradient is built from other ops.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { unary } from './elementwise.js';
import { installMethods } from '../install-methods.js';

export const rsqrt = unary('rsqrt', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.mul(out).mul(out).mul(-0.5))],
});

export const square = unary('square', {
  rejects: ['bool'],
  grad: (grad, [x]) => [grad.mul((x as Tensor).mul(2))],
});

export const reciprocal = unary('reciprocal', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.mul(out).neg())],
});

export const sin = unary('sin', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul((x as Tensor).cos())],
});

export const cos = unary('cos', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul((x as Tensor).sin().neg())],
});

export const sigmoid = unary('sigmoid', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.mul(out.neg().add(1)))],
});

export const erf = unary('erf', {
  promotesToFloat: true,
  grad: (grad, [x]) => {
    const t = x as Tensor;
    return [grad.mul(t.mul(t).neg().exp().mul(2 / Math.sqrt(Math.PI)))];
  },
});

/** log(1 + x), accurate for tiny x: log(u)·x/(u−1) with u = 1 + x (Goldberg's trick). */
export const log1p = unary('log1p', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.div((x as Tensor).add(1))],
});

/** exp(x) − 1, accurate for tiny x: (u−1)·x/log(u) with u = exp(x). */
export const expm1 = unary('expm1', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.add(1))],
});

/** log(x) / log(base), rounded once from a wider log: log2(8) is exactly 3, as PyTorch's. */
const logBase = (name: string, base: number) => unary(name, {
  promotesToFloat: true,
  // PyTorch's: g / (x · ln base)
  grad: (grad, [x]) => [grad.div((x as Tensor).mul(Math.log(base)))],
  gradReads: 'operands',
});
export const log2 = logBase('log2', 2);
export const log10 = logBase('log10', 10);

declare module '../tensor.js' {
  interface Tensor {
    /**
     * 1 / sqrt(x), elementwise.
     * @example x.rsqrt()
     */
    rsqrt(): Tensor;
    /**
     * x * x, elementwise.
     * @example x.square()
     */
    square(): Tensor;
    /**
     * 1 / x, elementwise.
     * @example x.reciprocal()
     */
    reciprocal(): Tensor;
    /**
     * Sine, elementwise (radians).
     * @example x.sin()
     */
    sin(): Tensor;
    /**
     * Cosine, elementwise (radians).
     * @example x.cos()
     */
    cos(): Tensor;
    /**
     * Logistic sigmoid 1 / (1 + exp(-x)), elementwise.
     * @example x.sigmoid()
     */
    sigmoid(): Tensor;
    /**
     * Gauss error function, elementwise.
     * @example x.erf()
     */
    erf(): Tensor;
    /**
     * log(1 + x), accurate near 0.
     * @example x.log1p()
     */
    log1p(): Tensor;
    /**
     * exp(x) - 1, accurate near 0.
     * @example x.expm1()
     */
    expm1(): Tensor;
    /**
     * Base-2 logarithm, elementwise (torch.log2).
     * @example tpu.tensor([8, 0.5]).log2() // [3, -1]
     */
    log2(): Tensor;
    /**
     * Base-10 logarithm, elementwise (torch.log10).
     * @example tpu.tensor([1000, 0.01]).log10() // [3, -2]
     */
    log10(): Tensor;
  }
}
installMethods(Object.fromEntries([rsqrt, square, reciprocal, sin, cos, sigmoid, erf, log1p, expm1, log2, log10].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])));
