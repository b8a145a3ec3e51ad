// In-place ops (add_, copy_, x.at(...).set(v), ...): the target keeps its identity and takes
// the new value; through a view the write reaches the base and every other view of it.
import { Tensor } from '../tensor.js';
import { formatShape } from '../shape.js';
import type { Operand } from '../ops/op.js';
import type { AlphaOptions } from '../ops/scaled-add.js';
import type { DivOptions } from '../ops/division.js';
import type { ValueOption } from '../ops/addcmul-addcdiv.js';
import { assignAll } from '../modes/assign.js';
import { filled } from '../ops/constant.js';
import { installMethods } from '../install-methods.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { fillThrough, layoutOf, trackViews, untracked, writeThrough } from './view-tracking.js';
import { hasInternalOverlap } from './layout.js';
import { refuseWriteToOldView } from './converted-bases.js';
import type { DType } from '../dtype.js';
import { shapesEqual } from '../shape.js';
import '../ops/index.js';

trackViews(
  ['reshape', 'view', 'permute', 'transpose', 'expand', 'at', 'slice', 'narrow', 'squeeze', 'unsqueeze', 'flatten', 'select'],
  ['T', 'mT'],
  ['view'],
);

function checkAutograd(op: string, target: Tensor): void {
  if (!gradEnabled()) return;
  const isLeaf = (t: Tensor) => t.requiresGrad && t._gradNode === null;
  if (isLeaf(target) || target._viewOf?.gradLeaf) {
    throw new Error(`${op}: a ${target._viewOf ? 'view of a ' : ''}leaf Variable that requires grad is being used in an in-place operation (wrap it in tpu.noGrad)`);
  }
}

// PyTorch's can_cast for an in-place result: never down a kind (float -> int -> bool).
const KIND: Record<DType, number> = { bool: 0, int32: 1, int64: 1, float32: 2, bfloat16: 2 };

/**
 * An arithmetic in-place op: `compute` gets the target and gives its new value, which must fit
 * the target's kind, as in PyTorch (int32 x.add_(0.5) raises). Its gradient reads the old
 * value when one of `readers` requires grad (mul_ by a tensor that does): then it computes
 * from a copy that backward keeps, as PyTorch saves the original self.
 */
export function arithmeticInPlace(op: string, target: Tensor, compute: (self: Tensor) => Tensor, readers: readonly unknown[] = []): Tensor {
  checkAutograd(op, target);
  const keepOld = gradEnabled() && readers.some((o) => o instanceof Tensor && o.requiresGrad);
  const value = compute(keepOld ? target.clone() : target);
  if (KIND[value.dtype] > KIND[target.dtype]) {
    value.dispose();
    throw new TypeError(`${op}: result type ${value.dtype} can't be cast to the desired output type ${target.dtype} (as in PyTorch); ` +
      `use the out-of-place op, for example x = x.${op.slice(0, -1)}(...), or cast x first with x.to('${value.dtype}')`);
  }
  return writeInPlace(op, target, value);
}

/**
 * `target` takes `value` in place (a fresh tensor this call consumes). `overwrites`: value does
 * not read target's old value (copy_, fill_), which autograd then gives zeros, as PyTorch.
 */
export function writeInPlace(op: string, target: Tensor, value: Tensor, overwrites = false): Tensor {
  let write: { base: Tensor; newBase: Tensor };
  try {
    refuseWriteToOldView(op, target);
    checkAutograd(op, target);
    write = target._viewOf ? writeThrough(target, value) : { base: target, newBase: value };
  } catch (e) {
    value.dispose();
    throw e;
  }
  // through a view the new base reads the old one (its other elements)
  assignAll([[write.base, write.newBase]], op, overwrites && !target._viewOf);
  return target;
}

/**
 * `target`'s elements (those of `mask`, or all) take one value (a number or a one-element
 * tensor). On an expanded view each base element is written once, as PyTorch's fill_.
 */
function fillInPlace(op: string, target: Tensor, value: Operand, mask: Tensor | null): Tensor {
  refuseWriteToOldView(op, target);
  const overlapped = target._viewOf && hasInternalOverlap(target.shape, layoutOf(target).strides);
  if (!overlapped) return writeInPlace(op, target, mask ? target.maskedFill(mask, value) : filledLike(op, target, value), !mask);
  checkAutograd(op, target);
  const v = value instanceof Tensor ? value : filled(op, [], value as number, target.dtype);
  const { base, newBase } = fillThrough(target, v, mask);
  assignAll([[base, newBase]], op);
  return target;
}

/** A new tensor holding t's value broadcast to `shape`, for an in-place write to consume. */
function fresh(t: Tensor, shape: readonly number[], dtype = t.dtype): Tensor {
  return untracked(() => {
    const sized = shapesEqual(t.shape, shape) ? t : t.expand([...shape]);
    if (sized.dtype === dtype) return sized === t ? t.clone() : sized;
    const typed = sized.to(dtype);
    if (sized !== t) sized.dispose();
    return typed;
  });
}

function filledLike(op: string, like: Tensor, value: Operand): Tensor {
  return value instanceof Tensor ? fresh(value, like.shape, like.dtype) : filled(op, [...like.shape], value as number, like.dtype);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * In place: this + other, broadcast to this shape; returns this (torch.Tensor.add_).
     * @example tpu.zeros([2]).add_(1) // [1, 1]
     */
    add_(other: Operand, options?: AlphaOptions): Tensor;
    /**
     * In place: this − other; returns this.
     * @example tpu.ones([2]).sub_(3) // [-2, -2]
     */
    sub_(other: Operand, options?: AlphaOptions): Tensor;
    /**
     * In place: this · other; returns this.
     * @example tpu.full([2], 3).mul_(2) // [6, 6]
     */
    mul_(other: Operand): Tensor;
    /**
     * In place: this / other (rounded with { roundingMode }, as div); returns this.
     * @example tpu.full([2], 3.5).div_(2) // [1.75, 1.75]
     */
    div_(other: Operand, options?: DivOptions): Tensor;
    /**
     * In place: Python's % (torch.remainder: the sign of the divisor); returns this (`y %= 3` in cells).
     * @example tpu.tensor([-7, 5]).remainder_(3) // [2, 2]
     */
    remainder_(other: Operand): Tensor;
    /**
     * In place: this // other, as floorDivide (torch.floor_divide_); returns this.
     * @example tpu.tensor([7, -7]).floorDivide_(2) // [3, -4]
     */
    floorDivide_(other: Operand): Tensor;
    /**
     * In place: this & other, as bitwiseAnd; returns this (`m &= n` in cells).
     * @example tpu.tensor([true, true]).bitwiseAnd_(tpu.tensor([true, false])) // [true, false]
     */
    bitwiseAnd_(other: Operand): Tensor;
    /**
     * In place: this | other, as bitwiseOr; returns this (`m |= n` in cells).
     * @example tpu.tensor([12, 10], { dtype: 'int32' }).bitwiseOr_(1) // [13, 11]
     */
    bitwiseOr_(other: Operand): Tensor;
    /**
     * In place: this ^ other, as bitwiseXor; returns this (`m ^= n` in cells).
     * @example tpu.tensor([12, 10], { dtype: 'int32' }).bitwiseXor_(6) // [10, 12]
     */
    bitwiseXor_(other: Operand): Tensor;
    /**
     * In place: ~this, as bitwiseNot; returns this.
     * @example tpu.tensor([true, false]).bitwiseNot_() // [false, true]
     */
    bitwiseNot_(): Tensor;
    /**
     * In place: this << other, as bitwiseLeftShift; returns this (`x <<= 1` in cells).
     * @example tpu.tensor([1, 3], { dtype: 'int32' }).bitwiseLeftShift_(2) // [4, 12]
     */
    bitwiseLeftShift_(other: Operand): Tensor;
    /**
     * In place: this >> other, as bitwiseRightShift; returns this (`x >>= 1` in cells).
     * @example tpu.tensor([-8, 8], { dtype: 'int32' }).bitwiseRightShift_(1) // [-4, 4]
     */
    bitwiseRightShift_(other: Operand): Tensor;
    /**
     * In place: this ** exponent; returns this (`y **= 2` in cells).
     * @example tpu.tensor([2, 3]).pow_(2) // [4, 9]
     */
    pow_(exponent: Operand): Tensor;
    /**
     * In place: clamps to [min, max] (either may be null); returns this.
     * @example tpu.tensor([-1, 0.5, 2]).clamp_(0, 1) // [0, 0.5, 1]
     */
    clamp_(min?: Operand | null, max?: Operand | null): Tensor;
    /**
     * In place: x += value·tensor1·tensor2 (Tensor.addcmul_; value 1); returns this.
     * @example tpu.tensor([1, 1]).mul_(0.5).addcmul_(tpu.tensor([2, 4]), tpu.tensor([2, 4]), { value: 0.5 }) // [2.5, 8.5]
     */
    addcmul_(tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor;
    /**
     * In place: x += value·tensor1/tensor2 (Tensor.addcdiv_; value 1); returns this.
     * @example tpu.tensor([1, 1]).addcdiv_(tpu.tensor([2, 6]), tpu.tensor([4, 3]), { value: -2 }) // [0, -3]
     */
    addcdiv_(tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor;
    /**
     * In place: every element becomes 0; returns this.
     * @example tpu.ones([2]).zero_() // [0, 0]
     */
    zero_(): Tensor;
    /**
     * In place: every element becomes value (a number, a boolean or a 0-d tensor); returns this.
     * @example tpu.zeros([2]).fill_(7) // [7, 7]
     */
    fill_(value: number | boolean | Tensor): Tensor;
    /**
     * In place: value where mask is true; returns this.
     * @example tpu.ones([2]).maskedFill_(tpu.tensor([true, false]), 0) // [0, 1]
     */
    maskedFill_(mask: Tensor, value: Operand): Tensor;
    /**
     * In place: the elements this index selects take `value` (index_put_ / `x[i] = v`).
     * @example
     * const t = tpu.zeros([2, 2]);
     * t.at(0).set(5);
     * t // [[5, 5], [0, 0]]
     */
    set(value: Operand): Tensor;
    /**
     * In place: this tensor takes the value of `source` (broadcast to this shape; cast to this dtype).
     * @example tpu.zeros([2]).copy_(tpu.tensor([3, 4])) // [3, 4]
     */
    copy_(source: Tensor): Tensor;
  }
}
installMethods({
  // options reach the op: x.div_(2, { roundingMode: 'floor' }) and x.add_(y, { alpha }) as PyTorch's
  add_(other, options) { return arithmeticInPlace('add_', this, (self) => self.add(other, options)); },
  sub_(other, options) { return arithmeticInPlace('sub_', this, (self) => self.sub(other, options)); },
  mul_(other) { return arithmeticInPlace('mul_', this, (self) => self.mul(other), [other]); },
  div_(other, options) { return arithmeticInPlace('div_', this, (self) => self.div(other, options), [other]); },
  // remainder's gradient reads its operands only for the divisor's; pow's reads the base for either
  remainder_(other) { return arithmeticInPlace('remainder_', this, (self) => self.remainder(other), [other]); },
  floorDivide_(other) { return arithmeticInPlace('floorDivide_', this, (self) => self.floorDivide(other)); },
  ...Object.fromEntries((['bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'bitwiseLeftShift', 'bitwiseRightShift'] as const).map((op) =>
    [`${op}_`, function (this: Tensor, other: Operand) { return arithmeticInPlace(`${op}_`, this, (self) => self[op](other)); }])),
  bitwiseNot_() { return arithmeticInPlace('bitwiseNot_', this, (self) => self.bitwiseNot()); },
  pow_(exponent) { return arithmeticInPlace('pow_', this, (self) => self.pow(exponent), [this, exponent]); },
  clamp_(min, max) { return arithmeticInPlace('clamp_', this, (self) => self.clamp(min, max), [this, min, max]); },
  addcmul_(tensor1, tensor2, options) { return arithmeticInPlace('addcmul_', this, (self) => self.addcmul(tensor1, tensor2, options)); },
  addcdiv_(tensor1, tensor2, options) { return arithmeticInPlace('addcdiv_', this, (self) => self.addcdiv(tensor1, tensor2, options)); },
  zero_() { return fillInPlace('zero_', this, 0, null); },
  fill_(value) {
    if (value instanceof Tensor && value.ndim !== 0) throw new TypeError(`fill_: value must be a number, a boolean or a 0-d tensor (as PyTorch's fill_); got a tensor of shape ${formatShape(value.shape)}`);
    return fillInPlace('fill_', this, value, null);
  },
  maskedFill_(mask, value) { return fillInPlace('maskedFill_', this, value, mask); },
  copy_(source) {
    if (!(source instanceof Tensor)) throw new TypeError(`copy_: source must be a tensor; got ${typeof source}`);
    return writeInPlace('copy_', this, fresh(source, this.shape, this.dtype), true);
  },
  set(value) {
    if (!this._viewOf) throw new TypeError('set: the target must be a view of a tensor, such as x.at(0) or x.at(":", 1)');
    // x[i] = v is a copy_ in PyTorch: refused on an expanded view, unlike fill_.
    return writeInPlace('set', this, filledLike('set', this, value));
  },
});
