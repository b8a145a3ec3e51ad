// Bitwise primitives of integer and bool tensors. ONNX's BitwiseAnd/Or/Xor/Not (opset 18)
// take integers, And/Or/Xor/Not bools; its BitShift takes unsigned integers only, so shifts
// run on the two's-complement bits as uint and PyTorch's rules for counts out of range
// (0 to the left, the sign to the right) are applied around them.
import type { DType } from '../../../dtype.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { onnxLowerings, type OnnxLowering } from './table.js';

/** ONNX's TensorProto codes of the unsigned types that carry int32 and int64 bits. */
const UNSIGNED = { int32: 12, int64: 13 } as const;
const SIGNED = { int32: 6, int64: 7 } as const;

type IntDType = 'int32' | 'int64';
type Combine = (g: OnnxGraph, a: string, b: string, dtype: DType) => string;

/** Both operands cast to the result's dtype, then the combination. */
const binaryLowering = (combine: Combine): OnnxLowering => (ctx, [a, b], _attrs, types) => {
  const d = types.output.dtype;
  return combine(ctx.graph, ctx.cast(a!, types.inputs[0]!.dtype, d), ctx.cast(b!, types.inputs[1]!.dtype, d), d);
};

/** The integer op, or its logical twin on bools. */
const bitwise = (integer: string, logical: string): Combine => (g, a, b, d) => g.node(d === 'bool' ? logical : integer, [a, b]);

/** x shifted logically by n (0 <= n < width): on the bits as uint. */
function logicalShift(g: OnnxGraph, x: string, n: string, d: IntDType, direction: 'LEFT' | 'RIGHT'): string {
  const asUnsigned = (v: string) => g.node('Cast', [v], { to: UNSIGNED[d] });
  return g.node('Cast', [g.node('BitShift', [asUnsigned(x), asUnsigned(n)], { direction: { string: direction } })], { to: SIGNED[d] });
}

const width = (d: IntDType) => (d === 'int32' ? 32 : 64);
const outOfRange = (g: OnnxGraph, n: string, d: IntDType) =>
  g.node('Or', [g.node('Less', [n, g.constant(d, [], [0])]), g.node('GreaterOrEqual', [n, g.constant(d, [], [width(d)])])]);

/** x << n, wrapping; a count below 0 or of the width or more gives 0 (PyTorch). */
const leftShift: Combine = (g, x, n, d) => {
  const i = d as IntDType;
  return g.node('Where', [outOfRange(g, n, i), g.constant(i, [], [0]), logicalShift(g, x, n, i, 'LEFT')]);
};

/** x >> n, arithmetic: ~(~x >>> n) for negatives; a count out of range shifts by width - 1 (the sign). */
const rightShift: Combine = (g, x, n0, d) => {
  const i = d as IntDType;
  const n = g.node('Where', [outOfRange(g, n0, i), g.constant(i, [], [width(i) - 1]), n0]);
  const negative = g.node('Less', [x, g.constant(i, [], [0])]);
  const shifted = logicalShift(g, g.node('Where', [negative, g.node('BitwiseNot', [x]), x]), n, i, 'RIGHT');
  return g.node('Where', [negative, g.node('BitwiseNot', [shifted]), shifted]);
};

onnxLowerings.register({
  bitwiseAnd: binaryLowering(bitwise('BitwiseAnd', 'And')),
  bitwiseOr: binaryLowering(bitwise('BitwiseOr', 'Or')),
  bitwiseXor: binaryLowering(bitwise('BitwiseXor', 'Xor')),
  bitwiseLeftShift: binaryLowering(leftShift),
  bitwiseRightShift: binaryLowering(rightShift),
  bitwiseNot(ctx, [x], _attrs, types) {
    const g = ctx.graph;
    if (types.output.dtype !== 'bool') return g.node('BitwiseNot', [x!]);
    const zero = g.constant('int32', [], [0]);
    return g.node('Xor', [x!, g.node('Equal', [zero, zero])]); // not x as x xor true (unary.ts says why not Not)
  },
});
