// Activations with kinks (torch.nn.functional's leaky_relu, elu, selu, celu, hardtanh, relu6,
// hardsigmoid, hardswish), composed. Each follows PyTorch's kernel: its forward formula and the
// comparisons its backward kernel makes, so the gradient at a kink (leakyRelu at 0, hardtanh
// at its bounds, hardswish at ±3) and at NaN is PyTorch's. bfloat16 is computed in float32
// and rounded once, as PyTorch's kernels do.
import { byPosition } from '../../options.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { where } from '../where.js';
import { inFloat32 } from './activations.js';
import { numberOption } from './number-option.js';

/**
 * x where `cond` holds, 0 elsewhere: the input of a branch that `where` may not select, so
 * its unselected values (±inf, NaN) give no 0·inf = NaN in the gradient.
 */
export function within(cond: Tensor, x: Tensor): Tensor {
  return where(cond, x, 0);
}

export interface LeakyReluOptions {
  /** The slope below 0 (default 0.01). */
  negativeSlope?: number;
}

/**
 * x for x > 0, negativeSlope·x otherwise (torch.nn.functional.leaky_relu; the slope by position
 * or by name); its gradient at 0 is negativeSlope.
 * @example tpu.nn.functional.leakyRelu(x, { negativeSlope: 0.2 })
 * @example tpu.nn.functional.leakyRelu(tpu.tensor([-1, 2]), 0.3) // [-0.3, 2]
 */
export function leakyRelu(x: Tensor, ...args: [negativeSlope?: number] | [LeakyReluOptions]): Tensor {
  const slope = numberOption('leakyRelu', 'negativeSlope', byPosition<LeakyReluOptions>('leakyRelu', args, ['negativeSlope']).negativeSlope, 0.01);
  return composite('leakyRelu', () => inFloat32('leakyRelu', x, (v) => where(v.gt(0), v, v.mul(slope))));
}

/** PyTorch's one kernel of elu, selu and celu: x ≤ 0 ? negcoef·expm1(x·negiptcoef) : poscoef·x. */
function eluKernel(op: string, x: Tensor, negcoef: number, poscoef: number, negiptcoef: number): Tensor {
  return composite(op, () => inFloat32(op, x, (v) => {
    const below = v.le(0);
    const n = within(below, v);
    const scaled = negiptcoef === 1 ? n : n.mul(negiptcoef);
    return where(below, scaled.expm1().mul(negcoef), poscoef === 1 ? v : v.mul(poscoef));
  }));
}

export interface AlphaOption {
  /** The scale of the negative part (default 1). */
  alpha?: number;
}

/**
 * x for x > 0, alpha·(eˣ - 1) otherwise (torch.nn.functional.elu).
 * @example tpu.nn.functional.elu(x, { alpha: 0.5 })
 */
export function elu(x: Tensor, ...args: [alpha?: number] | [AlphaOption]): Tensor {
  const alpha = numberOption('elu', 'alpha', byPosition<AlphaOption>('elu', args, ['alpha']).alpha, 1);
  return eluKernel('elu', x, alpha, 1, 1);
}

// PyTorch's constants of selu (Klambauer et al.)
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

/**
 * scale·elu(x, alpha) with the self-normalizing constants (torch.nn.functional.selu).
 * @example tpu.nn.functional.selu(x)
 */
export function selu(x: Tensor): Tensor {
  return eluKernel('selu', x, SELU_ALPHA * SELU_SCALE, SELU_SCALE, 1);
}

/**
 * max(0, x) + min(0, alpha·(e^(x/alpha) - 1)) (torch.nn.functional.celu); alpha 0 is an error.
 * @example tpu.nn.functional.celu(x, { alpha: 2 })
 */
export function celu(x: Tensor, ...args: [alpha?: number] | [AlphaOption]): Tensor {
  const alpha = numberOption('celu', 'alpha', byPosition<AlphaOption>('celu', args, ['alpha']).alpha, 1);
  if (alpha === 0) throw new RangeError('celu: alpha must not be 0 (it divides x); got 0');
  return eluKernel('celu', x, alpha, 1, 1 / alpha);
}

export interface HardtanhOptions {
  /** The lower bound (default -1). */
  minVal?: number;
  /** The upper bound (default 1). */
  maxVal?: number;
}

/** x clamped to [lo, hi]; its gradient 0 at and beyond the bounds, 1 inside and at NaN, as PyTorch's. */
function clampedAtBounds(op: string, x: Tensor, lo: number, hi: number): Tensor {
  return composite(op, () => inFloat32(op, x, (v) => {
    const held = v.le(lo).logicalOr(v.ge(hi));
    // at a bound exactly, x itself (a -0 stays -0, as PyTorch's clamp keeps it), no gradient
    const bound = where(v.lt(lo), lo, where(v.gt(hi), hi, v.detach()));
    return where(held, bound, v);
  }));
}

/**
 * x clamped to [minVal, maxVal] (torch.nn.functional.hardtanh); the gradient is 0 at the bounds.
 * @example tpu.nn.functional.hardtanh(x, { minVal: -2, maxVal: 2 })
 */
export function hardtanh(x: Tensor, ...args: [minVal?: number, maxVal?: number, options?: HardtanhOptions] | [HardtanhOptions]): Tensor {
  const o = byPosition<HardtanhOptions>('hardtanh', args, ['minVal', 'maxVal']);
  const lo = numberOption('hardtanh', 'minVal', o.minVal, -1);
  const hi = numberOption('hardtanh', 'maxVal', o.maxVal, 1);
  if (lo > hi) throw new RangeError(`hardtanh: minVal must not exceed maxVal; got minVal ${lo}, maxVal ${hi}`);
  return clampedAtBounds('hardtanh', x, lo, hi);
}

/**
 * x clamped to [0, 6] (torch.nn.functional.relu6).
 * @example tpu.nn.functional.relu6(x)
 */
export function relu6(x: Tensor): Tensor {
  return clampedAtBounds('relu6', x, 0, 6);
}

/**
 * clamp(x + 3, 0, 6) / 6 (torch.nn.functional.hardsigmoid); the gradient is 1/6 strictly
 * inside (-3, 3), 0 elsewhere (NaN too).
 * @example tpu.nn.functional.hardsigmoid(x)
 */
export function hardsigmoid(x: Tensor): Tensor {
  return composite('hardsigmoid', () => inFloat32('hardsigmoid', x, (v) => {
    const inside = v.gt(-3).logicalAnd(v.lt(3));
    const flat = v.add(3).clamp(0, 6).div(6).detach();
    return where(inside, within(inside, v).add(3).div(6), flat);
  }));
}

/**
 * x·clamp(x + 3, 0, 6) / 6 (torch.nn.functional.hardswish); the gradient is x/3 + 1/2 strictly
 * inside (-3, 3), 0 at -3 and below, 1 at 3 and above (NaN too), as PyTorch's.
 * @example tpu.nn.functional.hardswish(x)
 */
export function hardswish(x: Tensor): Tensor {
  return composite('hardswish', () => inFloat32('hardswish', x, (v) => {
    const middle = v.gt(-3).logicalAnd(v.lt(3));
    const m = within(middle, v);
    // from -3 down: x·0 (-0, NaN at -inf); from 3 up: x·6/6 (inf beyond a sixth of the float32 maximum), as PyTorch's
    return where(v.le(-3), v.mul(0), where(middle, m.mul(m.add(3)).div(6), v.mul(6).div(6)));
  }));
}
