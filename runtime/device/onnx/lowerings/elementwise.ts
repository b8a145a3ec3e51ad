// Elementwise primitives of two operands, and where: both operands cast to one compute
// dtype, one ONNX op (float where/maximum/minimum: a few, see signed-zeros.ts), the result cast back.
import { isFloating, type DType } from '../../../dtype.js';
import { inCommon, inResult, secondWhole, type ComputeDType } from '../../binary-compute-dtype.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { exactExtremum, exactWhere } from './signed-zeros.js';
import { onnxLowerings, type OnnxLowering } from './table.js';

/** The ONNX node(s) of a binary op on operands already in the compute dtype. */
type Combine = (g: OnnxGraph, a: string, b: string, dtype: DType) => string;

/** `compute`: the dtype both operands are cast to, from their types and the result's. */
/** `yields`: the dtype the ONNX node gives when not the compute dtype (a comparison's bool: no Cast of it to bool). */
function binaryLowering(onnx: string | Combine, compute: ComputeDType = inResult, yields?: DType): OnnxLowering {
  const combine: Combine = typeof onnx === 'string' ? (g, a, b) => g.node(onnx, [a, b]) : onnx;
  return (ctx, [a, b], _attrs, types) => {
    const [ta, tb] = types.inputs;
    const result = types.output.dtype;
    const dtype = compute(types.inputs, result);
    const out = combine(ctx.graph, ctx.cast(a!, ta!.dtype, dtype), ctx.cast(b!, tb!.dtype, dtype), dtype);
    return ctx.cast(out, yields ?? dtype, result);
  };
}

/** ONNX Max/Min propagate NaN, as PyTorch's maximum/minimum; floats also need its tie rule. */
const extremum = (op: 'Max' | 'Min'): Combine => (g, a, b, dtype) => (isFloating(dtype) ? exactExtremum(g, op, a, b) : g.node(op, [a, b]));

/** Comparisons: operands compared in their common dtype, bools as int32. */
const inPromoted: ComputeDType = (inputs, result) => {
  const common = inCommon(inputs, result);
  return common === 'bool' ? 'int32' : common;
};
/** Logical ops read operands as truth values (non-zero is true). */
const asTruthValues = (): DType => 'bool';

/**
 * int32 and int64 powers by repeated squaring, wrapping on overflow as PyTorch's integer pow
 * does (ONNX Pow goes through double and saturates).
 */
const floatPow = binaryLowering('Pow');
const pow: OnnxLowering = (ctx, inputs, attrs, types) => {
  const d = types.output.dtype;
  if (d !== 'int32' && d !== 'int64') return floatPow(ctx, inputs, attrs, types);
  const g = ctx.graph;
  const base0 = ctx.cast(inputs[0]!, types.inputs[0]!.dtype, d);
  const e = ctx.cast(inputs[1]!, types.inputs[1]!.dtype, d);
  const c = (v: number) => g.constant(d, [], [v]);
  const bits = d === 'int64' ? 63 : 31; // the exponent's magnitude bits
  const bitSet = (bit: number) => g.node('Not', [g.node('Equal', [g.node('BitwiseAnd', [e, c(2 ** bit)]), c(0)])]);
  let result = g.node('Add', [g.node('Mul', [base0, c(0)]), g.node('Mul', [e, c(0)])]); // zeros of the broadcast shape
  result = g.node('Add', [result, c(1)]);
  let base = base0;
  for (let bit = 0; bit < bits; bit++) {
    result = g.node('Where', [bitSet(bit), g.node('Mul', [result, base]), result]);
    if (bit < bits - 1) base = g.node('Mul', [base, base]);
  }
  // A negative exponent (a tensor's: a JS number one is refused at the call) gives what
  // PyTorch's integer pow gives: 1 for a base of 1, ±1 by the exponent's parity for -1, else 0
  const is = (v: number) => g.node('Equal', [base0, c(v)]);
  const minusOne = g.node('Where', [bitSet(0), c(-1), c(1)]);
  const reciprocal = g.node('Where', [is(1), c(1), g.node('Where', [is(-1), minusOne, c(0)])]);
  return g.node('Where', [g.node('Less', [e, c(0)]), reciprocal, result]);
};

/**
 * atan2(y, x) from ONNX's Atan, C's answers: the angle of the smaller over the larger of |y|
 * and |x| (1 for two infinities, 0 for two zeros), reflected into y's and x's quadrant, a
 * signed zero of x (1/x < 0) counting as its sign. The sign of y is applied by a product, so
 * atan2(-0, 1) is -0 (a Where would give +0: signed-zeros.ts).
 */
const atan2: Combine = (g, y, x) => {
  const c = (v: number) => g.constant('float32', [], [v]);
  const ay = g.node('Abs', [y]);
  const ax = g.node('Abs', [x]);
  const big = g.node('Max', [ax, ay]);
  const ratio = g.node('Div', [g.node('Min', [ax, ay]), big]);
  const bothInf = g.node('And', [g.node('IsInf', [ax]), g.node('IsInf', [ay])]);
  const r = g.node('Where', [g.node('Equal', [big, c(0)]), c(0), g.node('Where', [bothInf, c(1), ratio])]);
  const a = g.node('Atan', [r]);
  const steep = g.node('Where', [g.node('Greater', [ay, ax]), g.node('Sub', [c(Math.PI / 2), a]), a]);
  const negative = (v: string) => g.node('Or', [g.node('Less', [v, c(0)]), g.node('Less', [g.node('Reciprocal', [v]), c(0)])]);
  const angle = g.node('Where', [negative(x), g.node('Sub', [c(Math.PI), steep]), steep]);
  return g.node('Mul', [angle, g.node('Where', [negative(y), c(-1), c(1)])]);
};

onnxLowerings.register({
  add: binaryLowering('Add'),
  sub: binaryLowering('Sub'),
  mul: binaryLowering('Mul', secondWhole),
  div: binaryLowering('Div', secondWhole),
  pow,
  atan2: binaryLowering(atan2),
  maximum: binaryLowering(extremum('Max')),
  minimum: binaryLowering(extremum('Min')),
  gt: binaryLowering('Greater', inPromoted, 'bool'),
  lt: binaryLowering('Less', inPromoted, 'bool'),
  eq: binaryLowering('Equal', inPromoted, 'bool'),
  ge: binaryLowering('GreaterOrEqual', inPromoted, 'bool'),
  le: binaryLowering('LessOrEqual', inPromoted, 'bool'),
  logicalAnd: binaryLowering('And', asTruthValues),
  logicalOr: binaryLowering('Or', asTruthValues),
  logicalXor: binaryLowering('Xor', asTruthValues),
  where(ctx, [c, x, y], _attrs, types) {
    // ORT has no bool Where kernel: bool values are selected as int32.
    const out = types.output.dtype;
    const d = out === 'bool' ? 'int32' : out;
    const operands = [c!, ctx.cast(x!, types.inputs[1]!.dtype, d), ctx.cast(y!, types.inputs[2]!.dtype, d)];
    const picked = isFloating(d)
      ? exactWhere(ctx.graph, operands, types.inputs.map((v) => v.shape), types.output.shape, ctx.select)
      : ctx.graph.node('Where', operands);
    return ctx.cast(picked, d, out);
  },
});
