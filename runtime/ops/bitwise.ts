// Bitwise and, or, xor, not and shifts of integer and bool tensors, as PyTorch's: floats are
// refused, JS numbers are weak operands, shifts by a negative or too large count give 0
// (left) or the sign (right), never the C undefined behaviour.
import { isFloating, type DType } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary } from './elementwise.js';
import { defineOp, type Operand } from './op.js';
import { installMethods } from '../install-methods.js';
import { wrapNumber } from './wrapped-number.js';

const integerOrBool = (a: DType, b: DType) => (isFloating(a) || isFloating(b) ? 'integer or bool operands expected, as in PyTorch' : undefined);
/** Shifts take integers; bool << bool is refused too (bool << 1 promotes to int64). */
const integerShift = (a: DType, b: DType) => integerOrBool(a, b) ?? (a === 'bool' && b === 'bool' ? 'two bool operands are not supported, as in PyTorch; cast one first: x.to(\'int64\')' : undefined);

export const bitwiseAnd = binary('bitwiseAnd', { rejects: integerOrBool, grad: 'not-differentiable' });
export const bitwiseOr = binary('bitwiseOr', { rejects: integerOrBool, grad: 'not-differentiable' });
export const bitwiseXor = binary('bitwiseXor', { rejects: integerOrBool, grad: 'not-differentiable' });
export const bitwiseLeftShift = binary('bitwiseLeftShift', { rejects: integerShift, grad: 'not-differentiable' });
export const bitwiseRightShift = binary('bitwiseRightShift', { rejects: integerShift, grad: 'not-differentiable' });
export const bitwiseNot = defineOp({
  name: 'bitwiseNot',
  infer([x]) {
    if (isFloating(x!.dtype)) throw new TypeError(`bitwiseNot: input must be an integer or bool tensor, as in PyTorch; got ${x!.dtype}`);
    return { shape: x!.shape, dtype: x!.dtype };
  },
  grad: 'not-differentiable',
});

const BINARY = { bitwiseAnd, bitwiseOr, bitwiseXor, bitwiseLeftShift, bitwiseRightShift };

/** tpu.bitwiseAnd(a, b) and the others: either operand may be a JS number, as torch.bitwise_and. */
export const bitwiseFunctions = Object.fromEntries(Object.entries(BINARY).map(([name, op]) =>
  [name, (a: Operand, b: Operand): Tensor => apply(op, [wrapNumber(`tpu.${name}`, a, b), b], {})])) as Record<keyof typeof BINARY, (a: Operand, b: Operand) => Tensor>;

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Bitwise AND of integers, logical AND of bools (torch.bitwise_and, &).
     * @example tpu.tensor([12, 10], { dtype: 'int32' }).bitwiseAnd(6) // [4, 2]
     */
    bitwiseAnd(other: Operand): Tensor;
    /**
     * Bitwise OR of integers, logical OR of bools (torch.bitwise_or, |).
     * @example tpu.tensor([12, 10], { dtype: 'int32' }).bitwiseOr(1) // [13, 11]
     */
    bitwiseOr(other: Operand): Tensor;
    /**
     * Bitwise XOR of integers, logical XOR of bools (torch.bitwise_xor, ^).
     * @example tpu.tensor([12, 10], { dtype: 'int32' }).bitwiseXor(6) // [10, 12]
     */
    bitwiseXor(other: Operand): Tensor;
    /**
     * Bitwise NOT of integers (-x - 1), logical NOT of bools (torch.bitwise_not, ~).
     * @example tpu.tensor([0, 5], { dtype: 'int32' }).bitwiseNot() // [-1, -6]
     */
    bitwiseNot(): Tensor;
    /**
     * x << other, wrapping; a count below 0 or past the width gives 0 (torch.bitwise_left_shift).
     * @example tpu.tensor([1, 3], { dtype: 'int32' }).bitwiseLeftShift(2) // [4, 12]
     */
    bitwiseLeftShift(other: Operand): Tensor;
    /**
     * x >> other, arithmetic (the sign fills in); a count below 0 or past the width gives 0 or -1
     * (torch.bitwise_right_shift).
     * @example tpu.tensor([-8, 8], { dtype: 'int32' }).bitwiseRightShift(1) // [-4, 4]
     */
    bitwiseRightShift(other: Operand): Tensor;
  }
}
installMethods({
  ...Object.fromEntries(Object.entries(BINARY).map(([name, op]) => [name, function (this: Tensor, other: Operand) { return apply(op, [this, other], {}); }])),
  bitwiseNot() { return apply(bitwiseNot, [this], {}); },
});
