// ne ge le, logical and/or/xor/not, isnan isinf isfinite: bool results, never differentiable.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
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
export function ne(a: Tensor, b: Operand): Tensor {
  return a.eq(b).logicalNot();
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x != other, elementwise, as a bool tensor (torch.ne).
     * @example x.ne(0)
     */
    ne(other: Operand): Tensor;
    /**
     * x >= other, elementwise, as a bool tensor (cells rewrite `>=`).
     * @example x.ge(0)
     */
    ge(other: Operand): Tensor;
    /**
     * x <= other, elementwise, as a bool tensor (cells rewrite `<=`).
     * @example x.le(1)
     */
    le(other: Operand): Tensor;
    /**
     * Elementwise AND of truth values (torch.logical_and).
     * @example a.logicalAnd(b)
     */
    logicalAnd(other: Operand): Tensor;
    /**
     * Elementwise OR of truth values (torch.logical_or).
     * @example a.logicalOr(b)
     */
    logicalOr(other: Operand): Tensor;
    /**
     * Elementwise XOR of truth values (torch.logical_xor).
     * @example a.logicalXor(b)
     */
    logicalXor(other: Operand): Tensor;
    /**
     * Elementwise NOT of truth values (torch.logical_not).
     * @example mask.logicalNot()
     */
    logicalNot(): Tensor;
    /**
     * A bool tensor: true where the element is NaN.
     * @example x.isnan().any()
     */
    isnan(): Tensor;
    /**
     * A bool tensor: true where the element is +-Infinity.
     * @example x.isinf()
     */
    isinf(): Tensor;
    /**
     * A bool tensor: true where the element is neither NaN nor infinite.
     * @example x.isfinite().all()
     */
    isfinite(): Tensor;
  }
}
installMethods({
  ne(other) { return ne(this, other); },
  ...Object.fromEntries([ge, le, logicalAnd, logicalOr, logicalXor].map((op) => [op.name, function (this: Tensor, other: Operand) { return apply(op, [this, other], {}); }])),
  ...Object.fromEntries([logicalNot, isnan, isinf, isfinite].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])),
});
