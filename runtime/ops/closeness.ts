// isclose allclose equal: comparisons of whole values. isclose is PyTorch's formula (equal, or
// both NaN with equalNan, or a finite |x − y| <= atol + rtol·|y|); allclose and equal read their
// answer from the device (a sync, as PyTorch's Python bool is).
import { isFloating, isInteger } from '../dtype.js';
import { shapesEqual } from '../shape.js';
import { composite } from '../modes/composite.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { readOptions } from '../options.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface IscloseOptions {
  /** Relative tolerance (1e-5 by default). */
  rtol?: number;
  /** Absolute tolerance (1e-8 by default). */
  atol?: number;
  /** NaN is close to NaN (false by default). */
  equalNan?: boolean;
}

/**
 * True where x and other are close: equal, or |x − other| <= atol + rtol·|other| (torch.isclose).
 * Both must have one dtype, as in PyTorch.
 * @example tpu.isclose(tpu.tensor([1, 2, NaN]), tpu.tensor([1.000001, 2.1, NaN])) // [true, false, false]
 */
export function isclose(x: Tensor, other: Tensor, options?: IscloseOptions): BoolTensor {
  tensorArg('isclose', 'input', x);
  tensorArg('isclose', 'other', other);
  const { rtol = 1e-5, atol = 1e-8, equalNan = false } = readOptions<IscloseOptions>('isclose', options, ['rtol', 'atol', 'equalNan']);
  if (x.dtype !== other.dtype) throw new TypeError(`isclose: input and other must have the same dtype, as in PyTorch; got ${x.dtype} and ${other.dtype}`);
  for (const [name, v] of [['rtol', specialized(rtol)], ['atol', specialized(atol)]] as const) {
    if (typeof v !== 'number' || !(v >= 0)) throw new RangeError(`isclose: ${name} must be a number >= 0; got ${JSON.stringify(v)}`);
  }
  if (typeof equalNan !== 'boolean') throw new TypeError(`isclose: equalNan must be a boolean; got ${JSON.stringify(equalNan)}`);
  return asBoolTensor(composite('isclose', () => {
    let close = x.eq(other);
    if (equalNan && isFloating(x.dtype)) close = close.logicalOr(x.isnan().logicalAnd(other.isnan()));
    if (rtol === 0 && atol === 0) return close;
    // bools as float32, PyTorch's default dtype; integers subtract as integers (wrapping), as there
    const [a, b] = x.dtype === 'bool' ? [x.to('float32'), other.to('float32')] : [x, other];
    const allowed = b.mul(rtol).abs().add(atol);
    const actual = a.sub(b).abs();
    const within = isInteger(actual.dtype) ? actual.le(allowed) : actual.isfinite().logicalAnd(actual.le(allowed));
    return close.logicalOr(within);
  }));
}

/**
 * Whether every element of x is close to other's, as isclose (torch.allclose): a boolean, read
 * from the device.
 * @example tpu.allclose(tpu.tensor([1, 2]), tpu.tensor([1, 2.000001])) // true
 */
export function allclose(x: Tensor, other: Tensor, options?: IscloseOptions): boolean {
  return isclose(x, other, options).all().item();
}

/**
 * Whether x and other have the same shape and equal elements (torch.equal; NaN equals nothing): a
 * boolean, read from the device when the shapes match.
 * @example tpu.equal(tpu.tensor([1, 2]), tpu.tensor([1, 2])) // true
 */
export function equal(x: Tensor, other: Tensor): boolean {
  tensorArg('equal', 'input', x);
  tensorArg('equal', 'other', other);
  return shapesEqual(x.shape, other.shape) && x.eq(other).all().item();
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * True where close to other: |x - other| <= atol + rtol·|other| (torch.isclose).
     * @example tpu.tensor([1, 2]).isclose(tpu.tensor([1, 2.5]), { atol: 0.1 }) // [true, false]
     */
    isclose(other: Tensor, options?: IscloseOptions): BoolTensor;
    /**
     * Whether all elements are close to other's (torch.allclose): a boolean (a sync).
     * @example tpu.tensor([1, NaN]).allclose(tpu.tensor([1, NaN]), { equalNan: true }) // true
     */
    allclose(other: Tensor, options?: IscloseOptions): boolean;
    /**
     * Whether other has the same shape and elements (torch.equal): a boolean (a sync).
     * @example tpu.tensor([1, 2]).equal(tpu.tensor([1, 3])) // false
     */
    equal(other: Tensor): boolean;
  }
}
installMethods({
  isclose(other, options) { return isclose(this, other, options); },
  allclose(other, options) { return allclose(this, other, options); },
  equal(other) { return equal(this, other); },
});
