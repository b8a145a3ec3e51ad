// logSoftmax of float32: one ONNX LogSoftmax node, ONNX Runtime's kernel computing PyTorch's
// form, x - max - log Σ exp(x - max) (a row holding NaN or +inf, or all -inf, is NaN, as
// there), where the composition took ten nodes (the max's NaN check, the sum's +0 start): W6's
// crossEntropy program ran in 10 µs instead of 21 (program-sessions.bench.mjs). A 0-d value
// (ONNX's op needs rank 1) goes by parts.
import { logSoftmaxByParts } from '../../composed-lowerings.js';
import type { LogSoftmaxAttrs } from '../../../ops/log-softmax.js';
import { onnxLowerings } from './table.js';

const byParts = logSoftmaxByParts(onnxLowerings);

onnxLowerings.register({
  logSoftmax: (ctx, inputs, attrs: LogSoftmaxAttrs, types) =>
    types.output.shape.length === 0 ? byParts(ctx, inputs, attrs, types) : ctx.graph.node('LogSoftmax', [inputs[0]!], { axis: attrs.dim }),
});
