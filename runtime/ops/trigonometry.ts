// tan asin acos atan sinh cosh atan2: primitives (each backend has them, or atan2's quadrant
// rules over atan), integer inputs in float32 as PyTorch's. Gradients are PyTorch's formulas.
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary, unary } from './elementwise.js';
import { gradFor } from './grad-helpers.js';
import type { Operand } from './op.js';
import { installMethods } from '../install-methods.js';
import { wrapNumber } from './wrapped-number.js';
import { where } from './where.js';

const t = (v: Operand) => v as Tensor;

export const tan = unary('tan', {
  promotesToFloat: true,
  grad: (grad, _x, out) => [grad.mul(out.mul(out).add(1))],
});

/** 1 / √(1 − x²): the derivative of asin, of acos negated. */
const arcsineSlope = (x: Tensor) => x.mul(x).neg().add(1).rsqrt();

export const asin = unary('asin', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul(arcsineSlope(t(x!)))],
  gradReads: 'operands',
});

export const acos = unary('acos', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul(arcsineSlope(t(x!)).neg())],
  gradReads: 'operands',
});

export const atan = unary('atan', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.div(t(x!).mul(x!).add(1))],
  gradReads: 'operands',
});

export const sinh = unary('sinh', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul(t(x!).cosh())],
  gradReads: 'operands',
});

export const cosh = unary('cosh', {
  promotesToFloat: true,
  grad: (grad, [x]) => [grad.mul(t(x!).sinh())],
  gradReads: 'operands',
});

/** The angle of the point (other, input), in (−π, π], with C's signed zeros and infinities (torch.atan2). */
export const atan2 = binary('atan2', {
  result: (p) => (isFloating(p) ? p : 'float32'),
  grad: (g, [y, x]) => {
    // PyTorch's: g·x·r and −g·y·r, r = 1 / (x² + y²) taken as 0 where x² + y² is 0 (at the
    // origin, or squares that underflow), so no NaN; a JS number as the 0-d tensor PyTorch wraps it in
    const recip = () => {
      const [a, b] = [wrapNumber('atan2', x!, y!), wrapNumber('atan2', y!, x!)];
      const squares = a.mul(a).add(b.mul(b));
      const zero = squares.eq(0);
      return where(zero, 0, where(zero, 1, squares).reciprocal());
    };
    return [gradFor(y!, () => g.mul(x!).mul(recip())), gradFor(x!, () => g.mul(y!).neg().mul(recip()))];
  },
  gradReads: 'operands',
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Tangent, elementwise (radians).
     * @example tpu.tensor([0, 0.5]).tan() // [0, 0.546302]
     */
    tan(): Tensor;
    /**
     * Arcsine, elementwise: NaN outside [-1, 1] (torch.asin).
     * @example tpu.tensor([0, 1]).asin() // [0, 1.570796]
     */
    asin(): Tensor;
    /**
     * Arccosine, elementwise: NaN outside [-1, 1] (torch.acos).
     * @example tpu.tensor([1, 0]).acos() // [0, 1.570796]
     */
    acos(): Tensor;
    /**
     * Arctangent, elementwise (torch.atan).
     * @example tpu.tensor([0, 1]).atan() // [0, 0.785398]
     */
    atan(): Tensor;
    /**
     * Hyperbolic sine, elementwise (torch.sinh).
     * @example tpu.tensor([0, 1]).sinh() // [0, 1.175201]
     */
    sinh(): Tensor;
    /**
     * Hyperbolic cosine, elementwise (torch.cosh).
     * @example tpu.tensor([0, 1]).cosh() // [1, 1.543081]
     */
    cosh(): Tensor;
    /**
     * The angle of (other, x): atan(x / other) in the right quadrant, in (-π, π] (torch.atan2).
     * @example tpu.tensor([1, 1]).atan2(tpu.tensor([1, -1])) // [0.785398, 2.356194]
     */
    atan2(other: Operand): Tensor;
  }
}
installMethods({
  ...Object.fromEntries([tan, asin, acos, atan, sinh, cosh].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])),
  atan2(other) { return apply(atan2, [this, other], {}); },
});
