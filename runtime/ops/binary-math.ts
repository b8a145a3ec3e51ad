// pow maximum minimum (primitives, broadcasting, weak JS scalars) and clamp lerp (composed).
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary } from './elementwise.js';
import { gradFor } from './grad-helpers.js';
import { zerosLike } from './like.js';
import type { Operand } from './op.js';
import { where } from './where.js';

const t = (v: Operand) => v as Tensor;

export const pow = binary('pow', {
  rejects: (a, b) => (a === 'bool' && b === 'bool' ? 'both operands are bool' : undefined),
  grad: (g, [a, b], out) => [
    gradFor(a!, () => {
      if (typeof b === 'number') return b === 0 ? zerosLike(g) : g.mul(t(a!).pow(b - 1).mul(b));
      return g.mul(t(b!).mul(t(a!).pow(t(b!).sub(1))));
    }),
    // d/db a^b = a^b log a, taken as 0 where a == 0 (PyTorch's convention).
    gradFor(b!, () => where(t(a!).eq(0), 0, g.mul(out).mul(t(a!).log()))),
  ],
});

/** Tied elements share the gradient equally (as PyTorch's maximum/minimum do). */
function tieShare(g: Tensor, wins: Tensor, ties: Tensor): Tensor {
  return g.mul(wins.to(g.dtype).add(ties.to(g.dtype).mul(0.5)));
}

export const maximum = binary('maximum', {
  grad: (g, [a, b]) => [
    gradFor(a!, () => tieShare(g, lhs(a!).gt(b!), lhs(a!).eq(b!))),
    gradFor(b!, () => tieShare(g, lhs(b!).gt(a!), lhs(b!).eq(a!))),
  ],
});

export const minimum = binary('minimum', {
  grad: (g, [a, b]) => [
    gradFor(a!, () => tieShare(g, lhs(a!).lt(b!), lhs(a!).eq(b!))),
    gradFor(b!, () => tieShare(g, lhs(b!).lt(a!), lhs(b!).eq(a!))),
  ],
});

/** gradFor only asks for the gradient of a tensor operand, so this cast is safe there. */
const lhs = t;

export interface ClampOptions {
  min?: Operand | null;
  max?: Operand | null;
}

/** clamp(min, max) or clamp({ min, max }); either bound may be a number or a tensor. */
export function clamp(x: Tensor, min?: Operand | null | ClampOptions, max?: Operand | null): Tensor {
  let lo = min as Operand | null | undefined;
  let hi = max;
  if (typeof min === 'object' && min !== null && !(min instanceof Tensor)) ({ min: lo, max: hi } = min as ClampOptions);
  if ((lo === undefined || lo === null) && (hi === undefined || hi === null)) {
    throw new TypeError('clamp: at least one of min or max must be given');
  }
  let y = x;
  if (lo !== undefined && lo !== null) y = y.maximum(lo);
  if (hi !== undefined && hi !== null) y = y.minimum(hi);
  return y;
}

/** start + weight · (end − start). */
export function lerp(start: Tensor, end: Operand, weight: Operand): Tensor {
  return start.add(tensorOrScalarSub(end, start).mul(weight));
}

function tensorOrScalarSub(a: Operand, b: Tensor): Tensor {
  return a instanceof Tensor ? a.sub(b) : b.neg().add(a);
}

declare module '../tensor.js' {
  interface Tensor {
    pow(exponent: Operand): Tensor;
    maximum(other: Operand): Tensor;
    minimum(other: Operand): Tensor;
    clamp(min?: Operand | null | ClampOptions, max?: Operand | null): Tensor;
    lerp(end: Operand, weight: Operand): Tensor;
  }
}
Tensor.prototype.pow = function (exponent) {
  if ((this.dtype === 'int32' || this.dtype === 'bool') && typeof exponent === 'number' && Number.isInteger(exponent) && exponent < 0) {
    throw new RangeError(`pow: integers to negative integer powers are not allowed (input ${this.dtype}, exponent ${exponent}); use x.to('float32')`);
  }
  return apply(pow, [this, exponent], {});
};
Tensor.prototype.maximum = function (other) { return apply(maximum, [this, other], {}); };
Tensor.prototype.minimum = function (other) { return apply(minimum, [this, other], {}); };
Tensor.prototype.clamp = function (min, max) { return clamp(this, min, max); };
Tensor.prototype.lerp = function (end, weight) { return lerp(this, end, weight); };
