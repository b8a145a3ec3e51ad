// matmul and the convolutions (no bias: a bias is an add).
import type { Abstract } from '../../../ops/op.js';
import type { MatmulPrecision } from '../../../ops/matmul.js';
import type { ConvAttrs, ConvTransposeAttrs } from '../../../ops/nn/conv.js';
import { onnxLowerings } from './table.js';

function convAttrs(a: ConvAttrs, w: Abstract) {
  return {
    strides: [...a.stride], dilations: [...a.dilation], group: a.groups,
    pads: [a.padding[0], a.padding[1], a.padding[0], a.padding[1]], kernel_shape: [w.shape[2]!, w.shape[3]!],
  };
}

onnxLowerings.register({
  // Precision 'default' reproduces a TPU's single bf16 pass: operands rounded to bfloat16.
  matmul(ctx, [a, b], attrs: { precision: MatmulPrecision }, types) {
    const out = types.output.dtype;
    const operand = attrs.precision === 'default' && out === 'float32' ? 'bfloat16' : out;
    const ca = ctx.cast(ctx.cast(a!, types.inputs[0]!.dtype, out), out, operand);
    const cb = ctx.cast(ctx.cast(b!, types.inputs[1]!.dtype, out), out, operand);
    // 1-D operands as explicit matrices: ONNX Runtime's transpose+MatMul fusion got a
    // transposed matrix times a 1-D vector wrong (m.T.matmul(v) in a fused program)
    const g = ctx.graph;
    const [ra, rb] = [types.inputs[0]!.shape.length, types.inputs[1]!.shape.length];
    if (ra !== 1 && rb !== 1) return g.node('MatMul', [ca, cb]);
    const a2 = ra === 1 ? g.node('Unsqueeze', [ca, g.int64s([0])]) : ca;
    const b2 = rb === 1 ? g.node('Unsqueeze', [cb, g.int64s([1])]) : cb;
    return g.reshape(g.node('MatMul', [a2, b2]), types.output.shape);
  },
  conv2d: (ctx, [x, w], a: ConvAttrs, types) =>
    ctx.graph.node('Conv', [ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype), ctx.cast(w!, types.inputs[1]!.dtype, types.output.dtype)], convAttrs(a, types.inputs[1]!)),
  convTranspose2d: (ctx, [x, w], a: ConvTransposeAttrs, types) =>
    ctx.graph.node('ConvTranspose', [ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype), ctx.cast(w!, types.inputs[1]!.dtype, types.output.dtype)], {
      ...convAttrs(a, types.inputs[1]!), output_padding: [...a.outputPadding],
    }),
});
