// Values made in the program (constant, fill) and passed through (identity, cast).
import type { DType } from '../../../dtype.js';
import type { ConstantAttrs } from '../../../ops/constant.js';
import { shapesEqual, type Shape } from '../../../shape.js';
import { onnxLowerings } from './table.js';

onnxLowerings.register({
  constant(ctx, _inputs, { shape, dtype, values }: ConstantAttrs) {
    if (dtype === 'int32' || dtype === 'int64') return ctx.graph.constant(dtype, shape, values);
    if (dtype === 'bool') return ctx.cast(ctx.graph.constant('int32', shape, values.map((v) => (v ? 1 : 0))), 'int32', 'bool');
    return ctx.graph.constant('float32', shape, values);
  },
  // A fill of the value's own shape (a 0-d fill of a scalar: autograd's seed) is the value.
  fill(ctx, [v], { shape, dtype }: { shape: Shape; dtype: DType }, types) {
    const value = ctx.cast(v!, types.inputs[0]!.dtype, dtype);
    return shapesEqual(types.inputs[0]!.shape, shape) ? value : ctx.graph.expand(value, shape);
  },
  // The operand's own name, no Identity node: ONNX Runtime 1.30's basic graph optimizations
  // broke a model whose MatMul result an Identity output and an Add of a transposed MatMul
  // both read (a gradient cloned, then accumulated by a second backward: fused mode failed
  // with "Node input is not a graph input"). A value output twice still gets its Identity.
  identity: (_ctx, [x]) => x!,
  cast: (ctx, [x], { dtype }: { dtype: DType }, types) => ctx.cast(x!, types.inputs[0]!.dtype, dtype),
});
