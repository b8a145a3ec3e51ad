// Elementwise primitives of two operands, and where: both operands cast to one compute
// dtype, one ONNX op, the result cast back.
import { promoteTypes, type DType } from '../../../dtype.js';
import { onnxLowerings, type OnnxLowering } from './table.js';

/**
 * `compute`: the dtype both operands are cast to, from their promoted dtype and the
 * result's (default: the result; bool computes as int32).
 */
function binaryLowering(onnx: string, compute?: (promoted: DType, result: DType) => DType): OnnxLowering {
  return (ctx, [a, b], _attrs, types) => {
    const [ta, tb] = types.inputs;
    const promoted = promoteTypes(ta!.dtype, tb!.dtype);
    const result = types.output.dtype;
    const dtype = compute ? compute(promoted, result) : result === 'bool' ? 'int32' : result;
    const out = ctx.graph.node(onnx, [ctx.cast(a!, ta!.dtype, dtype), ctx.cast(b!, tb!.dtype, dtype)]);
    return ctx.cast(out, dtype, result);
  };
}

/** Comparisons: operands compared in their promoted dtype. */
const inPromoted = (promoted: DType): DType => (promoted === 'bool' ? 'int32' : promoted);
/** Logical ops read operands as truth values (non-zero is true). */
const asTruthValues = (): DType => 'bool';

onnxLowerings.register({
  add: binaryLowering('Add'),
  sub: binaryLowering('Sub'),
  mul: binaryLowering('Mul'),
  div: binaryLowering('Div'),
  pow: binaryLowering('Pow'),
  maximum: binaryLowering('Max'),
  minimum: binaryLowering('Min'),
  gt: binaryLowering('Greater', inPromoted),
  lt: binaryLowering('Less', inPromoted),
  eq: binaryLowering('Equal', inPromoted),
  ge: binaryLowering('GreaterOrEqual', inPromoted),
  le: binaryLowering('LessOrEqual', inPromoted),
  logicalAnd: binaryLowering('And', asTruthValues),
  logicalOr: binaryLowering('Or', asTruthValues),
  logicalXor: binaryLowering('Xor', asTruthValues),
  where(ctx, [c, x, y], _attrs, types) {
    // ORT has no bool Where kernel: bool values are selected as int32.
    const out = types.output.dtype;
    const d = out === 'bool' ? 'int32' : out;
    const picked = ctx.graph.node('Where', [c!, ctx.cast(x!, types.inputs[1]!.dtype, d), ctx.cast(y!, types.inputs[2]!.dtype, d)]);
    return ctx.cast(picked, d, out);
  },
});
