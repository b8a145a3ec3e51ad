// ne ge le, logical and/or/xor/not, isnan isinf isfinite: bool results, never differentiable.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary, boolValued } from './elementwise.js';
import { defineOp, type Operand } from './op.js';

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
    ne(other: Operand): Tensor;
    ge(other: Operand): Tensor;
    le(other: Operand): Tensor;
    logicalAnd(other: Operand): Tensor;
    logicalOr(other: Operand): Tensor;
    logicalXor(other: Operand): Tensor;
    logicalNot(): Tensor;
    isnan(): Tensor;
    isinf(): Tensor;
    isfinite(): Tensor;
  }
}
const proto = Tensor.prototype as unknown as Record<string, (this: Tensor, other?: Operand) => Tensor>;
for (const op of [ge, le, logicalAnd, logicalOr, logicalXor]) proto[op.name] = function (other) { return apply(op, [this, other!], {}); };
for (const op of [logicalNot, isnan, isinf, isfinite]) proto[op.name] = function () { return apply(op, [this], {}); };
Tensor.prototype.ne = function (other) { return ne(this, other); };
