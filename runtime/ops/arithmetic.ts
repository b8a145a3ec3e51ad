// add sub mul div: broadcasting, JS scalars as weak operands, PyTorch promotion.
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary } from './elementwise.js';
import { gradFor, needsGrad } from './grad-helpers.js';
import type { Operand } from './op.js';
import { divide, type DivOptions } from './division.js';
import { installMethods } from '../install-methods.js';
import { addScaled, type AlphaOptions } from './scaled-add.js';
import { BOOL_SUBTRACTION, rejectBoolSubtrahend } from './bool-subtraction.js';

const t = (v: Operand) => v as Tensor;
const BOTH = [0, 1], FIRST = [0], SECOND = [1], NEITHER: number[] = [];

export const add = binary('add', {
  grad: (g, [a, b]) => [gradFor(a!, () => g), gradFor(b!, () => g)],
  gradReads: 'none',
});

export const sub = binary('sub', {
  // as PyTorch: a bool operand is an error, whatever the other one is
  rejects: (a, b) => (a === 'bool' || b === 'bool' ? BOOL_SUBTRACTION : undefined),
  grad: (g, [a, b]) => [gradFor(a!, () => g), gradFor(b!, () => g.neg())],
  gradReads: 'none',
});

export const mul = binary('mul', {
  readsSecondWhole: true,
  grad: (g, [a, b]) => [gradFor(a!, () => g.mul(b!)), gradFor(b!, () => g.mul(a!))],
  // each operand is read for the other's gradient only
  gradReads: ([a, b]) => (needsGrad(a!) ? (needsGrad(b!) ? BOTH : SECOND) : needsGrad(b!) ? FIRST : NEITHER),
});

/** True division: integer operands give float32, as in PyTorch. */
export const div = binary('div', {
  result: (p) => (isFloating(p) ? p : 'float32'),
  readsSecondWhole: true,
  grad: (g, [a, b]) => [
    gradFor(a!, () => g.div(b!)),
    gradFor(b!, () => g.neg().mul(a!).div(t(b!).mul(b!))),
  ],
  gradReads: ([, b]) => (needsGrad(b!) ? BOTH : SECOND),
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x + other with broadcasting; other may be a JS number (cells rewrite `+` to this);
     * `{ alpha }` scales other (torch.add's alpha).
     * @example x.add(1)
     */
    add(other: Operand, options?: AlphaOptions): Tensor;
    /**
     * x - other with broadcasting (cells rewrite `-` to this); `{ alpha }` scales other.
     * @example x.sub(y, { alpha: 0.5 })
     */
    sub(other: Operand, options?: AlphaOptions): Tensor;
    /**
     * x * other with broadcasting (cells rewrite `*` to this).
     * @example x.mul(2)
     */
    mul(other: Operand): Tensor;
    /**
     * True division, or rounded with { roundingMode: 'trunc' | 'floor' } (torch.div).
     * @example tpu.tensor([7, -7]).div(2, { roundingMode: 'floor' }) // [3, -4]
     */
    div(other: Operand, options?: DivOptions): Tensor;
  }
}
installMethods({
  add(other, options) { return options === undefined ? apply(add, [this, other], {}) : addScaled('add', this, other, options); },
  sub(other, options) {
    if (options !== undefined) return addScaled('sub', this, other, options);
    rejectBoolSubtrahend('sub', other);
    return apply(sub, [this, other], {});
  },
  mul(other) { return apply(mul, [this, other], {}); },
  div(other, options) {
    return options === undefined ? apply(div, [this, other], {}) : divide(this, other, options);
  },
});
