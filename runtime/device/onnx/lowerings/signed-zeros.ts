// where, maximum and minimum of float values, exact to the sign of zero (PyTorch's answers).
// ONNX Runtime's CPU Where (checked on 1.30) selects each input against a +0 filler and merges
// the two selections as `x != 0 ? x : y`: a -0 taken from the selection that is tested first
// comes out +0. With a condition of the output's shape that is always the X input's selection
// (a smaller condition or Y input can make the Y selection the tested one, per span). Its Max
// and Min return either operand of a tie of -0 and +0, depending on the tensor's length.
import { shapesEqual, type Shape } from '../../../shape.js';
import type { OnnxGraph } from '../onnx-graph.js';

const float = (g: OnnxGraph, v: number) => g.constant('float32', [], [v]);

/**
 * c ? x : y, float32 values: max(c ? x : -inf, c ? -inf : y). Each Where takes its operand
 * from the Y input, which keeps a -0, under a condition of the output's shape; the max of a
 * value and -inf is that value, NaN included. The negated condition is an Xor: ONNX Runtime
 * rewrites Where(Not(c), a, b) as Where(c, b, a), which would put x back in the X input.
 */
export function exactWhere(g: OnnxGraph, [c, x, y]: readonly string[], shapes: readonly Shape[], out: Shape, select: boolean): string {
  if (select && selectTakes(shapes, out)) return g.customNode('tpu_kernel', 'Select', [c!, x!, y!]);
  const cond = shapesEqual(shapes[0]!, out) ? c! : g.expand(c!, out);
  const notCond = g.node('Xor', [cond, g.node('Cast', [g.constant('int32', [], [1])], { to: 9 })]);
  const low = float(g, -Infinity);
  return g.node('Max', [g.node('Where', [notCond, low, x!]), g.node('Where', [cond, low, y!])]);
}

/**
 * Whether tpu_kernel.Select (native/select-op.h) takes the operands: each of the output's
 * shape or one value, and one of them of the output's shape (its rank is the output's), and
 * the output not empty.
 */
function selectTakes(shapes: readonly Shape[], out: Shape): boolean {
  const one = (s: Shape) => s.every((d) => d === 1);
  if (out.includes(0)) return false;
  return shapes.every((s) => shapesEqual(s, out) || one(s)) && shapes.some((s) => shapesEqual(s, out));
}

/**
 * maximum / minimum of float32 values with PyTorch's answers: NaN from either operand, and on
 * a tie the first operand (maximum(-0, 0) is -0). A tie's second operand is replaced by the
 * extreme that loses (-inf for Max), so the ONNX op never sees a tie; that Where selects
 * b from its Y input, which keeps a -0.
 */
export function exactExtremum(g: OnnxGraph, op: 'Max' | 'Min', a: string, b: string): string {
  const loser = float(g, op === 'Max' ? -Infinity : Infinity);
  return g.node(op, [a, g.node('Where', [g.node('Equal', [a, b]), loser, b])]);
}
