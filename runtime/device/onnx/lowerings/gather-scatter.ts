// Primitives that read indices or produce them: gathers, scatterAdd, scatter, scatterReduce, topk.
import type { TopkAttrs } from '../../../ops/sort.js';
import { COMPUTE_TYPE, type DType } from '../../../dtype.js';
import type { Abstract } from '../../../ops/op.js';
import type { IndexAttrs } from '../../../ops/gather-scatter.js';
import type { ScatterReduceAttrs } from '../../../ops/scatter-reduce.js';
import type { IndicesChecked } from '../../../primitive.js';
import { onnxLowerings, type OnnxLowerContext } from './table.js';

/**
 * [values, indices] of ONNX TopK (int64 indices). Floats order NaN above everything, as
 * PyTorch: a first pass sorts with NaN as +inf, a second (stable: ties keep their order) moves
 * the NaNs before (largest) or after (smallest) the infinities.
 */
function lowerTopk(ctx: OnnxLowerContext, x: string, input: Abstract, { dim, k, largest }: TopkAttrs): string[] {
  const g = ctx.graph;
  if (input.shape.length === 0) return [g.node('Identity', [x]), g.node('Constant', [], { value_int: 0 })];
  if (input.shape.includes(0)) {
    // ONNX Runtime's TopK divides by the row count (SIGFPE on an empty input): the result is empty too
    const shape = input.shape.map((m, d) => (d === dim ? k : m));
    return [g.node('Slice', [x, g.int64s([0]), g.int64s([k]), g.int64s([dim])]), g.constant('int64', shape, [])];
  }
  const flags = { axis: dim, largest: largest ? 1 : 0, sorted: 1 };
  if (COMPUTE_TYPE[input.dtype] !== 'float32') return g.nodeOutputs('TopK', [x, g.int64s([k])], 2, flags);
  const n = input.shape[dim]!;
  const isNaN = g.node('IsNaN', [x]);
  const key = g.node('Where', [isNaN, g.constant('float32', [], [Infinity]), x]);
  const first = g.nodeOutputs('TopK', [key, g.int64s([n])], 2, flags)[1]!;
  const nanAfterFirst = g.node('Cast', [g.node('GatherElements', [isNaN, first], { axis: dim })], { to: 1 });
  const order = g.nodeOutputs('TopK', [nanAfterFirst, g.int64s([n])], 2, flags)[1]!;
  const all = g.node('GatherElements', [first, order], { axis: dim });
  const indices = k === n ? all : g.node('Slice', [all, g.int64s([0]), g.int64s([k]), g.int64s([dim])]);
  return [g.node('GatherElements', [x, indices], { axis: dim }), indices];
}

/**
 * Indices as PyTorch's index_select/gather/scatter_add/embedding take them: negative values
 * are errors, not counted from the end (ONNX's rule), so they are moved out of range and the
 * op fails on the device. Indices the host checked in range are none (two nodes fewer).
 */
function noNegatives(ctx: OnnxLowerContext, index: string, attrs: IndicesChecked, dtype: DType, size: number): string {
  if (attrs.indicesChecked) return index;
  const g = ctx.graph;
  const type = dtype === 'int64' ? 'int64' : 'int32';
  return g.node('Where', [g.node('Less', [index, g.constant(type, [], [0])]), g.constant(type, [], [size]), index]);
}

onnxLowerings.register({
  indexSelect: (ctx, [x, index], attrs: IndexAttrs, types) =>
    ctx.graph.node('Gather', [x!, noNegatives(ctx, index!, attrs, types.inputs[1]!.dtype, types.inputs[0]!.shape[attrs.dim]!)], { axis: attrs.dim }),
  gather: (ctx, [x, index], attrs: IndexAttrs, types) =>
    ctx.graph.node('GatherElements', [x!, noNegatives(ctx, index!, attrs, types.inputs[1]!.dtype, types.inputs[0]!.shape[attrs.dim]!)], { axis: attrs.dim }),
  scatterAdd: (ctx, [x, index, src], attrs: IndexAttrs, types) =>
    ctx.graph.node('ScatterElements', [x!, noNegatives(ctx, index!, attrs, types.inputs[1]!.dtype, types.inputs[0]!.shape[attrs.dim]!), ctx.cast(src!, types.inputs[2]!.dtype, types.output.dtype)], { axis: attrs.dim, reduction: { string: 'add' } }),
  // ONNX Runtime writes the updates in order: of repeated indices the last is kept, as PyTorch CPU's loop
  scatter: (ctx, [x, index, src], attrs: IndexAttrs, types) =>
    ctx.graph.node('ScatterElements', [x!, noNegatives(ctx, index!, attrs, types.inputs[1]!.dtype, types.inputs[0]!.shape[attrs.dim]!), src!], { axis: attrs.dim }),
  // bfloat16 combined in float32 and rounded once, as scatterAdd; x's own values left out are
  // first overwritten with ones (prod) or with src (amax, amin: a value of the slot's own)
  scatterReduce(ctx, [x, index, src], attrs: ScatterReduceAttrs, types) {
    const g = ctx.graph;
    const out = types.output.dtype;
    const compute = COMPUTE_TYPE[out] === 'float32' ? 'float32' : out;
    const index64 = noNegatives(ctx, index!, attrs, types.inputs[1]!.dtype, types.inputs[0]!.shape[attrs.dim]!);
    const updates = ctx.cast(src!, out, compute);
    let base = ctx.cast(x!, out, compute);
    if (!attrs.includeSelf) {
      const fresh = attrs.reduce === 'prod' ? g.expand(g.constant(compute === 'int64' ? 'int64' : compute === 'int32' ? 'int32' : 'float32', [], [1]), types.inputs[2]!.shape) : updates;
      base = g.node('ScatterElements', [base, index64, fresh], { axis: attrs.dim });
    }
    const reduction = { prod: 'mul', amax: 'max', amin: 'min' }[attrs.reduce];
    return ctx.cast(g.node('ScatterElements', [base, index64, updates], { axis: attrs.dim, reduction: { string: reduction } }), compute, out);
  },
  // Two primitives lowering the same TopK nodes: ONNX Runtime merges them in a fused program.
  topkIndices: (ctx, [x], a: TopkAttrs, types) => lowerTopk(ctx, x!, types.inputs[0]!, a)[1]!,
  topkValues: (ctx, [x], a: TopkAttrs, types) => lowerTopk(ctx, x!, types.inputs[0]!, a)[0]!,
});
