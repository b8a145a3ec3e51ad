// exp2 logit hypot logaddexp copysign signbit: composed over primitives, in float32 for
// bfloat16 (rounded once, as PyTorch's kernels), with PyTorch's answers at 0, ±inf and NaN.
// Where a branch is not taken, its inputs are replaced by safe values, so its gradient (0 by
// the where) never becomes 0·inf = NaN.
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions } from '../options.js';
import type { Operand } from './op.js';
import { pow } from './binary-math.js';
import { where } from './where.js';
import { scalarConstant } from './constant.js';
import { wrapNumber } from './wrapped-number.js';
import { tensorArg } from './tensor-arg.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
import { floatDType, floatOnlyDType, inFloat32Of } from './float-compute.js';
import { specialized } from '../jit/live-number.js';

/**
 * 2 to the power x, elementwise; integers give float32 (torch.exp2).
 * @example tpu.exp2(tpu.tensor([3, -1])) // [8, 0.5]
 */
export function exp2(x: Tensor): Tensor {
  tensorArg('exp2', 'input', x);
  return apply(pow, [2, isFloating(x.dtype) ? x : x.to('float32')], {});
}

export interface LogitOptions {
  /** Inputs are clamped to [eps, 1 − eps] first (torch.logit's eps); none by default. */
  eps?: number | null;
}

/**
 * log(x / (1 − x)): −inf at 0, inf at 1, NaN outside [0, 1] (torch.logit). bfloat16 rounds each
 * step, as PyTorch's kernel; float32 takes log x − log1p(−x), whose gradient is PyTorch's
 * 1 / (x(1 − x)) at 0 and 1 too (inf), and NaN outside [0, 1] as PyTorch's.
 * @example tpu.logit(tpu.tensor([0.5, 0.75])) // [0, 1.098612]
 */
export function logit(x: Tensor, eps?: number | null | LogitOptions): Tensor {
  tensorArg('logit', 'input', x);
  const e = specialized(isOptions(eps) ? readOptions<LogitOptions>('logit', eps, ['eps']).eps : eps);
  if (e !== undefined && e !== null && (typeof e !== 'number' || Number.isNaN(e))) throw new TypeError(`logit: eps must be a number or null; got ${JSON.stringify(e)}`);
  return composite('logit', () => {
    const v = isFloating(x.dtype) ? x : x.to('float32');
    // clamped as PyTorch (its gradient is 0 outside [eps, 1 − eps]); a NaN passes with its gradient
    const z = e === undefined || e === null ? v : where(v.isnan(), v, v.clamp(e, 1 - e));
    if (v.dtype === 'bfloat16') return z.div(z.neg().add(1)).log();
    const value = z.log().sub(z.neg().log1p());
    if (e !== undefined && e !== null) return value;
    // outside [0, 1]: NaN, and a NaN gradient (x·NaN, its x zeroed elsewhere so no NaN leaks)
    const outside = z.lt(0).logicalOr(z.gt(1));
    return where(outside, where(outside, z, 0).mul(NaN), value);
  });
}

/**
 * √(x² + y²) without overflow or underflow: inf when either is infinite, NaN included, as C's
 * hypot (torch.hypot). Floating-point operands only, as PyTorch's; the gradient is x / hypot.
 * @example tpu.hypot(tpu.tensor([3, 3e30]), tpu.tensor([4, 4e30])) // [5, 5e30]
 */
export function hypot(x: Operand, other: Operand): Tensor {
  const dtype = floatOnlyDType('hypot', ['input', 'other'], [x, other]);
  return composite('hypot', () => inFloat32Of(dtype, [x, other], ([a, b]) => {
    const tx = wrapNumber('hypot', a!, b!);
    const ty = wrapNumber('hypot', b!, a!);
    // √((x·s)² + (y·s)²) / s, s a power of 2 that keeps the squares normal and finite (exact:
    // hypot(3, 4) is 5)
    const m = tx.abs().maximum(ty.abs());
    const power = (e: number) => scalarConstant(2 ** e, 'float32');
    const s = where(m.ge(2 ** 60), power(-80), where(m.le(2 ** -60), power(100), power(0)));
    const root = tx.mul(s).square().add(ty.mul(s).square()).sqrt().div(s);
    return where(tx.isinf().logicalOr(ty.isinf()), Infinity, root);
  }));
}

/**
 * log(exp(x) + exp(y)) without overflow: max + log1p(exp(−|x − y|)), and x itself where x and y
 * are the same infinity (torch.logaddexp). Floating-point operands only, as PyTorch's.
 * @example tpu.logaddexp(tpu.tensor([0, 1000]), tpu.tensor([0, 1000])) // [0.693147, 1000.693115]
 */
export function logaddexp(x: Operand, other: Operand): Tensor {
  const dtype = floatOnlyDType('logaddexp', ['input', 'other'], [x, other]);
  return composite('logaddexp', () => inFloat32Of(dtype, [x, other], ([a, b]) => logAddExpOf(wrapNumber('logaddexp', a!, b!), wrapNumber('logaddexp', b!, a!))));
}

/** logaddexp of two float32 tensors (logcumsumexp's step too). */
export function logAddExpOf(x: Tensor, y: Tensor): Tensor {
  const same = x.isinf().logicalAnd(x.eq(y));
  const gap = where(same, 0, x.sub(y)).abs();
  return where(same, x, x.maximum(y).add(gap.neg().exp().log1p()));
}

/** True where v's sign bit is set: v < 0, or v is −0 (1/v is −inf). */
function signBitSet(v: Tensor): Tensor {
  return v.lt(0).logicalOr(v.eq(0).logicalAnd(v.reciprocal().lt(0)));
}

/**
 * |x| with the sign of other, −0 counting as negative; integers give float32 (torch.copysign).
 * @example tpu.copysign(tpu.tensor([1, -2, 3]), tpu.tensor([-1, 1, -0])) // [-1, 2, -3]
 */
export function copysign(x: Operand, other: Operand): Tensor {
  const dtype = floatDType('copysign', ['input', 'other'], [x, other]);
  tensorArg('copysign', 'input', x);
  return composite('copysign', () => inFloat32Of(dtype, [x, other], ([a, b]) => {
    const magnitude = (a as Tensor).abs();
    if (!(b instanceof Tensor)) {
      const sign = specialized(b!); // a tpu.compile number argument: the trace is specialized on it
      return Object.is(+sign, -0) || +sign < 0 ? magnitude.neg() : magnitude;
    }
    return where(signBitSet(b), magnitude.neg(), magnitude);
  }));
}

/**
 * True where x's sign bit is set: negative numbers and −0 (torch.signbit).
 * @example tpu.signbit(tpu.tensor([-1, -0, 0, 2])) // [true, true, false, false]
 */
export function signbit(x: Tensor): BoolTensor {
  tensorArg('signbit', 'input', x);
  return asBoolTensor(isFloating(x.dtype) ? composite('signbit', () => signBitSet(x)) : x.lt(0));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * 2 to the power x, elementwise (torch.exp2).
     * @example tpu.tensor([3, -1]).exp2() // [8, 0.5]
     */
    exp2(): Tensor;
    /**
     * log(x / (1 - x)); eps clamps x to [eps, 1 - eps] first (torch.logit).
     * @example tpu.tensor([0.5, 0]).logit({ eps: 0.25 }) // [0, -1.098612]
     */
    logit(eps?: number | null | LogitOptions): Tensor;
    /**
     * √(x² + other²) without overflow (torch.hypot).
     * @example tpu.tensor([3]).hypot(tpu.tensor([4])) // [5]
     */
    hypot(other: Operand): Tensor;
    /**
     * log(exp(x) + exp(other)) without overflow (torch.logaddexp).
     * @example tpu.tensor([0]).logaddexp(tpu.tensor([0])) // [0.693147]
     */
    logaddexp(other: Operand): Tensor;
    /**
     * |x| with the sign of other (torch.copysign).
     * @example tpu.tensor([2, 3]).copysign(-1) // [-2, -3]
     */
    copysign(other: Operand): Tensor;
    /**
     * True where the sign bit is set: negatives and -0 (torch.signbit).
     * @example tpu.tensor([-0, 0]).signbit() // [true, false]
     */
    signbit(): BoolTensor;
  }
}
installMethods({
  exp2() { return exp2(this); },
  logit(eps) { return logit(this, eps); },
  hypot(other) { return hypot(this, other); },
  logaddexp(other) { return logaddexp(this, other); },
  copysign(other) { return copysign(this, other); },
  signbit() { return signbit(this); },
});
