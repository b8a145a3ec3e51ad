// ne ge le, logical and/or/xor/not, isnan isinf isfinite: bool results, never differentiable.
import { isFloating, type DType } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import type { OnnxGraph } from '../device/onnx/onnx-graph.js';
import { binary } from './elementwise.js';
import { defineOp, type Operand } from './op.js';

const compareInPromoted = {
  result: (): DType => 'bool',
  compute: (promoted: DType): DType => (promoted === 'bool' ? 'int32' : promoted),
  grad: 'not-differentiable' as const,
};

export const ge = binary('ge', { onnx: 'GreaterOrEqual', ...compareInPromoted });
export const le = binary('le', { onnx: 'LessOrEqual', ...compareInPromoted });

/** Operands are read as truth values (non-zero is true), as torch.logical_and does. */
const onTruthValues = { result: (): DType => 'bool', compute: (): DType => 'bool', grad: 'not-differentiable' as const };
export const logicalAnd = binary('logicalAnd', { onnx: 'And', ...onTruthValues });
export const logicalOr = binary('logicalOr', { onnx: 'Or', ...onTruthValues });
export const logicalXor = binary('logicalXor', { onnx: 'Xor', ...onTruthValues });

/** A bool-valued function of one operand, given the input in its compute type. */
function predicate(name: string, lower: (g: OnnxGraph, x: string, dtype: DType) => string) {
  return defineOp({
    name,
    infer: ([x]) => ({ shape: x!.shape, dtype: 'bool' }),
    lower: (ctx, [x], _attrs, types) => lower(ctx.graph, x!, types.inputs[0]!.dtype),
    grad: 'not-differentiable',
  });
}

const allFalse = (g: OnnxGraph, x: string) => g.node('Not', [g.node('Equal', [x, x])]);

export const logicalNot = predicate('logicalNot', (g, x, dtype) =>
  dtype === 'bool' ? g.node('Not', [x]) : g.node('Equal', [x, g.constant(dtype === 'int32' ? 'int32' : 'float32', [], [0])]),
);
export const isnan = predicate('isnan', (g, x, dtype) => (isFloating(dtype) ? g.node('IsNaN', [x]) : allFalse(g, x)));
export const isinf = predicate('isinf', (g, x, dtype) => (isFloating(dtype) ? g.node('IsInf', [x]) : allFalse(g, x)));
export const isfinite = predicate('isfinite', (g, x, dtype) =>
  isFloating(dtype) ? g.node('Not', [g.node('Or', [g.node('IsNaN', [x]), g.node('IsInf', [x])])]) : g.node('Equal', [x, x]),
);

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
