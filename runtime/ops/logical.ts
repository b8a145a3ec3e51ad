// ne ge le, logical and/or/xor/not, isnan isinf isfinite: bool results, never differentiable.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
import { binary, boolValued } from './elementwise.js';
import { defineOp, type Operand } from './op.js';
import { installMethods } from '../install-methods.js';

export const ge = binary('ge', boolValued);
export const le = binary('le', boolValued);

/** Operands are read as truth values (non-zero is true), as torch.logical_and does. */
export const logicalAnd = binary('logicalAnd', boolValued);
export const logicalOr = binary('logicalOr', boolValued);
export const logicalXor = binary('logicalXor', boolValued);

/** A bool-valued function of one operand. */
function predicate(name: string) {
  return defineOp({
    name,
    infer: ([x]) => ({ shape: x!.shape, dtype: 'bool' }),
    grad: 'not-differentiable',
  });
}

export const logicalNot = predicate('logicalNot');
export const isnan = predicate('isnan');
export const isinf = predicate('isinf');
export const isfinite = predicate('isfinite');

/** a != b, NaN != NaN included. */
export function ne(a: Tensor, b: Operand): BoolTensor {
  return a.eq(b).logicalNot();
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x != other, elementwise, as a bool tensor (torch.ne).
     * @example x.ne(0)
     */
    ne(other: Operand): BoolTensor;
    /**
     * x >= other, elementwise, as a bool tensor (cells rewrite `>=`).
     * @example x.ge(0)
     */
    ge(other: Operand): BoolTensor;
    /**
     * x <= other, elementwise, as a bool tensor (cells rewrite `<=`).
     * @example x.le(1)
     */
    le(other: Operand): BoolTensor;
    /**
     * Elementwise AND of truth values (torch.logical_and).
     * @example a.logicalAnd(b)
     */
    logicalAnd(other: Operand): BoolTensor;
    /**
     * Elementwise OR of truth values (torch.logical_or).
     * @example a.logicalOr(b)
     */
    logicalOr(other: Operand): BoolTensor;
    /**
     * Elementwise XOR of truth values (torch.logical_xor).
     * @example a.logicalXor(b)
     */
    logicalXor(other: Operand): BoolTensor;
    /**
     * Elementwise NOT of truth values (torch.logical_not).
     * @example mask.logicalNot()
     */
    logicalNot(): BoolTensor;
    /**
     * A bool tensor: true where the element is NaN.
     * @example x.isnan().any()
     */
    isnan(): BoolTensor;
    /**
     * A bool tensor: true where the element is +-Infinity.
     * @example x.isinf()
     */
    isinf(): BoolTensor;
    /**
     * A bool tensor: true where the element is neither NaN nor infinite.
     * @example x.isfinite().all()
     */
    isfinite(): BoolTensor;
  }
}
installMethods({
  ne(other) { return ne(this, other); },
  ...Object.fromEntries([ge, le, logicalAnd, logicalOr, logicalXor].map((op) => [op.name, function (this: Tensor, other: Operand) { return asBoolTensor(apply(op, [this, other], {})); }])),
  ...Object.fromEntries([logicalNot, isnan, isinf, isfinite].map((op) => [op.name, function (this: Tensor) { return asBoolTensor(apply(op, [this], {})); }])),
});
