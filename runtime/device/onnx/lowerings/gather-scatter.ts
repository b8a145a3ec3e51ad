// Primitives that read indices or produce them: gathers, scatterAdd, topk.
import type { TopkAttrs } from '../../../ops/sort.js';
import { onnxLowerings, type OnnxLowerContext } from './table.js';

/** [values, indices] of ONNX TopK (int64 indices). */
function lowerTopk(ctx: OnnxLowerContext, x: string, rank: number, { dim, k, largest }: TopkAttrs): string[] {
  const g = ctx.graph;
  if (rank === 0) return [g.node('Identity', [x]), g.node('Constant', [], { value_int: 0 })];
  return g.nodeOutputs('TopK', [x, g.int64s([k])], 2, { axis: dim, largest: largest ? 1 : 0, sorted: 1 });
}

onnxLowerings.register({
  indexSelect: (ctx, [x, index], { dim }: { dim: number }) => ctx.graph.node('Gather', [x!, index!], { axis: dim }),
  gather: (ctx, [x, index], { dim }: { dim: number }) => ctx.graph.node('GatherElements', [x!, index!], { axis: dim }),
  scatterAdd: (ctx, [x, index, src], { dim }: { dim: number }, types) =>
    ctx.graph.node('ScatterElements', [x!, index!, ctx.cast(src!, types.inputs[2]!.dtype, types.output.dtype)], { axis: dim, reduction: { string: 'add' } }),
  // Two primitives lowering the same TopK node: ONNX Runtime merges them in a fused program.
  topkIndices: (ctx, [x], a: TopkAttrs, types) => ctx.graph.node('Cast', [lowerTopk(ctx, x!, types.inputs[0]!.shape.length, a)[1]!], { to: 6 }),
  topkValues: (ctx, [x], a: TopkAttrs, types) => lowerTopk(ctx, x!, types.inputs[0]!.shape.length, a)[0]!,
});
