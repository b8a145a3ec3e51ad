// fmod and integer division rounded toward zero (div's roundingMode for int32 and int64): never an idiv
// by 0 or by -1, which trap on x86 (INT_MIN / -1); a zero divisor fails the program instead,
// as PyTorch raises ZeroDivisionError.
import { COMPUTE_TYPE, type DType } from '../../../dtype.js';
import type { Abstract } from '../../../ops/op.js';
import { onnxLowerings, type OnnxLowerContext } from './table.js';
import { zeroOrFail } from './device-checks.js';
import { shapesEqual, type Shape } from '../../../shape.js';

/**
 * a / b rounded toward zero in int32 or int64 (`d`), never an idiv by 0 or -1: a divisor of
 * -1 gives -a (wrapping, as PyTorch's), a zero divisor fails the program.
 */
function guardedIntDivision(ctx: OnnxLowerContext, d: 'int32' | 'int64', a: string, b: string, bShape: Shape, out: Shape): string {
  const g = ctx.graph;
  const c = (v: number) => g.constant(d, [], [v]);
  const isZero = g.node('Equal', [b, c(0)]);
  const isMinusOne = g.node('Equal', [b, c(-1)]);
  const safe = g.node('Where', [g.node('Or', [isZero, isMinusOne]), c(1), b]);
  const q = g.node('Where', [isMinusOne, g.node('Neg', [a]), g.node('Div', [a, safe])]);
  // only the divisors the result divides by fail it (a broadcast into an empty result divides by none)
  const divides = shapesEqual(bShape, out) ? isZero : g.expand(isZero, out);
  return g.node('Add', [q, ctx.cast(zeroOrFail(g, divides), 'int32', d)]);
}

function operandsIn(ctx: OnnxLowerContext, [a, b]: readonly string[], inputs: readonly Abstract[], d: DType): [string, string] {
  return [ctx.cast(a!, inputs[0]!.dtype, d), ctx.cast(b!, inputs[1]!.dtype, d)];
}

/** The integer type a division computes in: int64 for int64, int32 for int32 and bool. */
const intType = (d: DType): 'int32' | 'int64' => (d === 'int64' ? 'int64' : 'int32');

onnxLowerings.register({
  fmod(ctx, inputs, _attrs, types) {
    const d = types.output.dtype;
    const [a, b] = operandsIn(ctx, inputs, types.inputs, d);
    if (COMPUTE_TYPE[d] === 'float32') return ctx.graph.node('Mod', [a, b], { fmod: 1 });
    // a - trunc(a / b)·b in integers: ONNX Runtime's integer Mod with fmod = 1 goes through
    // double, inexact beyond 2^53
    return ctx.graph.node('Sub', [a, ctx.graph.node('Mul', [guardedIntDivision(ctx, intType(d), a, b, types.inputs[1]!.shape, types.output.shape), b])]);
  },
  divTruncInt(ctx, inputs, _attrs, types) {
    const int = intType(types.output.dtype);
    const [a, b] = operandsIn(ctx, inputs, types.inputs, int);
    return guardedIntDivision(ctx, int, a, b, types.inputs[1]!.shape, types.output.shape);
  },
});
