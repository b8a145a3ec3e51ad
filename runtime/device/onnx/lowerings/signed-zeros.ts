// where, maximum and minimum of float values, exact to the sign of zero (PyTorch's answers).
// ONNX Runtime's CPU Where (checked on 1.30) selects each input against a +0 filler and merges
// the two selections as `x != 0 ? x : y`: a -0 taken from the selection that is tested first
// comes out +0. With a condition of the output's shape that is always the X input's selection
// (a smaller condition or Y input can make the Y selection the tested one, per span). Its Max
// and Min return either operand of a tie of -0 and +0, depending on the tensor's length.
import { broadcastShapes, shapesEqual, type Shape } from '../../../shape.js';
import type { OnnxGraph } from '../onnx-graph.js';

const float = (g: OnnxGraph, v: number) => g.constant('float32', [], [v]);

/**
 * c ? x : y, float32 values. The Where's result is exact but where it should be -0 from x
 * (it is +0 there); dividing by 1/x (-inf) at those places alone restores the sign, every
 * other element is divided by 1. No multiply of an inf by 0, and NaN passes as any value.
 */
export function exactWhere(g: OnnxGraph, [c, x, y]: readonly string[], [cShape, yShape]: readonly Shape[], out: Shape): string {
  // a condition of the output's shape keeps the Y selection whole, so only x's -0 is lost
  const cond = shapesEqual(broadcastShapes('where', cShape!, yShape!), out) ? c! : g.node('Expand', [c!, g.int64s(out)]);
  const picked = g.node('Where', [cond, x!, y!]);
  const lostZero = g.node('And', [cond, g.node('Equal', [x!, float(g, 0)])]);
  return g.node('Div', [picked, g.node('Where', [lostZero, g.node('Reciprocal', [x!]), float(g, 1)])]);
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
