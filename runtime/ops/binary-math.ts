// pow maximum minimum (primitives, broadcasting, weak JS scalars) and clamp lerp (composed).
import { isInteger } from '../dtype.js';
import { isOptions, readOptions } from '../options.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary } from './elementwise.js';
import { gradFor } from './grad-helpers.js';
import { zerosLike } from './like.js';
import type { Operand } from './op.js';
import { where } from './where.js';
import { composite } from '../modes/composite.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { wrapNumber } from './wrapped-number.js';
import { specialized } from '../jit/live-number.js';

const t = (v: Operand) => v as Tensor;

// The gradients below select past values that may be infinite where they are not taken
// (0^-1, log 0): each is a composed op, so debug mode checks the gradient, not those.
export const pow = binary('pow', {
  rejects: (a, b) => (a === 'bool' && b === 'bool' ? 'both operands are bool' : undefined),
  grad: (g, [a, b], out) => [
    gradFor(a!, () => {
      if (typeof b === 'number') return b === 0 ? zerosLike(g) : g.mul(t(a!).pow(b - 1).mul(b));
      // 0 where the exponent is 0 (PyTorch's convention: not 0·a^-1, NaN at a = 0); a live
      // number (a tpu.compile argument) as the 0-d tensor it fills, read at each call
      return composite('pow backward', () => {
        const e = wrapNumber('pow', b!, a!);
        return where(e.eq(0), 0, g.mul(e.mul(t(a!).pow(e.sub(1)))));
      });
    }),
    // d/db a^b = a^b log a, taken as 0 where a == 0 and b >= 0 (PyTorch's convention); a JS
    // number a (tpu.pow(2, x)) as the 0-d tensor PyTorch wraps it in
    gradFor(b!, () => composite('pow backward', () => {
      const base = wrapNumber('pow', a!, b!);
      return where(base.eq(0).logicalAnd(t(b!).ge(0)), 0, g.mul(out).mul(base.log()));
    })),
  ],
});

/**
 * PyTorch's maximum/minimum backward: half the gradient to each side of a tie, none to the side
 * that lost (a select, so a NaN gradient there gives 0), all of it to both sides where a NaN
 * made the result (it neither won nor lost).
 */
function extremeGrad(g: Tensor, self: Tensor, other: Operand, lost: Tensor): Tensor {
  return where(lost, 0, where(self.eq(other), g.div(2), g));
}

export const maximum = binary('maximum', {
  grad: (g, [a, b]) => [
    gradFor(a!, () => extremeGrad(g, lhs(a!), b!, lhs(a!).lt(b!))),
    gradFor(b!, () => extremeGrad(g, lhs(b!), a!, lhs(b!).lt(a!))),
  ],
});

export const minimum = binary('minimum', {
  grad: (g, [a, b]) => [
    gradFor(a!, () => extremeGrad(g, lhs(a!), b!, lhs(a!).gt(b!))),
    gradFor(b!, () => extremeGrad(g, lhs(b!), a!, lhs(b!).gt(a!))),
  ],
});

/**
 * x where x >= other or other is NaN, else other: a NaN loses unless both are NaN, and a tie
 * (-0 and 0 too) gives x and x all the gradient, as PyTorch's (torch.fmax).
 * @example tpu.fmax(tpu.tensor([1, NaN, NaN]), tpu.tensor([2, 3, NaN])) // [2, 3, NaN]
 */
export function fmax(x: Tensor, other: Operand): Tensor {
  tensorArg('fmax', 'input', x);
  return composite('fmax', () => where(x.ge(other).logicalOr(isNan(other)), x, other));
}

/**
 * The NaN-ignoring minimum, as fmax (torch.fmin).
 * @example tpu.fmin(tpu.tensor([1, NaN, NaN]), tpu.tensor([2, 3, NaN])) // [1, 3, NaN]
 */
export function fmin(x: Tensor, other: Operand): Tensor {
  tensorArg('fmin', 'input', x);
  return composite('fmin', () => where(x.le(other).logicalOr(isNan(other)), x, other));
}

/** NaN test of a tensor or a JS scalar, as a bool tensor or a boolean. */
function isNan(v: Operand): Tensor | boolean {
  return v instanceof Tensor ? v.isnan() : Number.isNaN(+specialized(v));
}

/** gradFor only asks for the gradient of a tensor operand, so this cast is safe there. */
const lhs = t;

export interface ClampOptions {
  min?: Operand | null;
  max?: Operand | null;
}

/**
 * clamp(min, max) or clamp({ min, max }); either bound may be a number or a tensor.
 * @example tpu.clamp(tpu.tensor([-2, 0.5, 3]), 0, 1) // [0, 0.5, 1]
 */
export function clamp(x: Tensor, min?: Operand | null | ClampOptions, max?: Operand | null): Tensor {
  tensorArg('clamp', 'input', x);
  let lo = min as Operand | null | undefined;
  let hi = max;
  if (isOptions(min)) ({ min: lo, max: hi } = readOptions<ClampOptions>('clamp', min, ['min', 'max']));
  if ((lo === undefined || lo === null) && (hi === undefined || hi === null)) {
    throw new TypeError('clamp: at least one of min or max must be given');
  }
  const hasLo = lo !== undefined && lo !== null;
  const hasHi = hi !== undefined && hi !== null;
  // maximum and minimum keep their first operand on a tie (clamp(-0, 0) is -0) and pass NaN
  const bounded = (v: Tensor) => {
    const y = hasLo ? v.maximum(lo!) : v;
    return hasHi ? y.minimum(hi!) : y;
  };
  return composite('clamp', () => {
    if (!gradEnabled() || ![x, lo, hi].some((v) => v instanceof Tensor && v.requiresGrad)) return bounded(x);
    // x's gradient is PyTorch's where(lo <= x <= hi, g, 0): a where routes it, picking values the
    // bounded x already has there; x reaches the bounds' side detached, so no maximum-tie or NaN
    // rule of theirs sends it anything
    const inside = hasLo && hasHi ? x.ge(lo!).logicalAnd(x.le(hi!)) : hasLo ? x.ge(lo!) : x.le(hi!);
    return where(inside, x, bounded(x.detach()));
  });
}

/**
 * start + weight·(end − start), or end − (1 − weight)·(end − start) for weight ≥ 0.5 (PyTorch's
 * form: exact at both ends). bfloat16 is computed in float32 and rounded once, as PyTorch does;
 * there a weight tensor (a 0-d float32 one too) is rounded to bfloat16 first and a JS number is not.
  * @example tpu.lerp(tpu.tensor([0, 10]), 20, 0.5) // [10, 15]
 */
export function lerp(start: Tensor, end: Operand, weight: Operand): Tensor {
  if (start.dtype !== 'bfloat16') return lerpIn(start, end, weight);
  const up = (v: Operand) => (v instanceof Tensor ? v.to('bfloat16').to('float32') : v);
  return composite('lerp', () => lerpIn(start.to('float32'), up(end), up(weight)).to('bfloat16'));
}

function lerpIn(start: Tensor, end: Operand, weight: Operand): Tensor {
  const diff = tensorOrScalarSub(end, start);
  if (!(weight instanceof Tensor)) {
    const w = specialized(weight as number); // a tpu.compile number argument: its value picks the form
    return Math.abs(w) < 0.5 ? start.add(diff.mul(w)) : diff.mul(1 - w).neg().add(end);
  }
  const low = weight.abs().lt(0.5);
  return where(low, start.add(diff.mul(weight)), diff.mul(weight.neg().add(1)).neg().add(end));
}

function tensorOrScalarSub(a: Operand, b: Tensor): Tensor {
  return a instanceof Tensor ? a.sub(b) : b.neg().add(a);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x ** exponent, elementwise (cells rewrite `**` to this).
     * @example x.pow(2)
     */
    pow(exponent: Operand): Tensor;
    /**
     * Elementwise maximum with other (torch.maximum).
     * @example x.maximum(0)
     */
    maximum(other: Operand): Tensor;
    /**
     * Elementwise minimum with other (torch.minimum).
     * @example x.minimum(y)
     */
    minimum(other: Operand): Tensor;
    /**
     * Limits values to [min, max] (torch.clamp).
     * @example x.clamp({ min: 0, max: 1 })
     */
    clamp(min?: Operand | null | ClampOptions, max?: Operand | null): Tensor;
    /**
     * clamp under NumPy's name (torch.clip).
     * @example tpu.tensor([-2, 0.5, 3]).clip(0, 1) // [0, 0.5, 1]
     */
    clip(min?: Operand | null | ClampOptions, max?: Operand | null): Tensor;
    /**
     * Values below min raised to it (torch.clamp_min).
     * @example tpu.tensor([-1, 2]).clampMin(0) // [0, 2]
     */
    clampMin(min: Operand): Tensor;
    /**
     * Values above max lowered to it (torch.clamp_max).
     * @example tpu.tensor([-1, 2]).clampMax(0) // [-1, 0]
     */
    clampMax(max: Operand): Tensor;
    /**
     * Elementwise maximum ignoring NaN (torch.fmax).
     * @example tpu.tensor([1, NaN]).fmax(tpu.tensor([2, 3])) // [2, 3]
     */
    fmax(other: Operand): Tensor;
    /**
     * Elementwise minimum ignoring NaN (torch.fmin).
     * @example tpu.tensor([1, NaN]).fmin(tpu.tensor([2, 3])) // [1, 3]
     */
    fmin(other: Operand): Tensor;
    /**
     * x + weight * (end - x) (torch.lerp).
     * @example x.lerp(y, 0.5)
     */
    lerp(end: Operand, weight: Operand): Tensor;
  }
}
installMethods({
  pow(exponent) {
    if ((isInteger(this.dtype) || this.dtype === 'bool') && typeof exponent === 'number' && Number.isInteger(exponent) && exponent < 0) {
      throw new RangeError(`pow: integers to negative integer powers are not allowed (input ${this.dtype}, exponent ${exponent}); use x.to('float32')`);
    }
    // PyTorch takes a number exponent of ±0.5 as sqrt/rsqrt: pow(-0, 0.5) is -0, pow(-inf, 0.5) NaN
    if (exponent === 0.5) return this.sqrt();
    if (exponent === -0.5) return this.rsqrt();
    return apply(pow, [this, exponent], {});
  },
  maximum(other) { return apply(maximum, [this, other], {}); },
  minimum(other) { return apply(minimum, [this, other], {}); },
  clamp(min, max) { return clamp(this, min, max); },
  clip(min, max) { return clamp(this, min, max); },
  clampMin(min) { return clamp(this, min, null); },
  clampMax(max) { return clamp(this, null, max); },
  fmax(other) { return fmax(this, other); },
  fmin(other) { return fmin(this, other); },
  lerp(end, weight) { return lerp(this, end, weight); },
});
