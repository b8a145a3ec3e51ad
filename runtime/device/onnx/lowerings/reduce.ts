// Reductions (sum mean amax amin prod, any all, argmax argmin) and the cumulative sum.
import type { ReduceAttrs } from '../../../ops/reduce.js';
import type { ArgAttrs } from '../../../ops/reduce-more.js';
import type { ScanAttrs } from '../../../ops/scan.js';
import { onnxLowerings, type OnnxLowering } from './table.js';

/** The input cast to the result's dtype, reduced by one ONNX op (a 0-d input is its own result). */
function reduction(onnx: string): OnnxLowering {
  return (ctx, [x], attrs: ReduceAttrs, types) => {
    const v = ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype);
    if (types.inputs[0]!.shape.length === 0) return ctx.graph.node('Identity', [v]);
    return ctx.graph.node(onnx, [v, ctx.graph.int64s(attrs.dims)], { keepdims: attrs.keepdim ? 1 : 0 });
  };
}

/** any / all over truth values, reduced as int32 0/1. */
function truthReduction(onnx: string): OnnxLowering {
  return (ctx, [x], attrs: ReduceAttrs, types) => {
    const v = ctx.cast(ctx.cast(x!, types.inputs[0]!.dtype, 'bool'), 'bool', 'int32');
    const r = types.inputs[0]!.shape.length === 0 ? v : ctx.graph.node(onnx, [v, ctx.graph.int64s(attrs.dims)], { keepdims: attrs.keepdim ? 1 : 0 });
    return ctx.cast(r, 'int32', 'bool');
  };
}

function argReduction(onnx: string): OnnxLowering {
  return (ctx, [x], { dim }: ArgAttrs, types) => {
    const g = ctx.graph;
    const flat = dim === null ? g.node('Reshape', [x!, g.int64s([-1])]) : x!;
    const axis = dim ?? 0;
    const r = types.inputs[0]!.shape.length === 0 ? g.node('Constant', [], { value_int: 0 }) : g.node(onnx, [flat], { axis, keepdims: 0 });
    const shaped = g.node('Reshape', [r, g.int64s(types.output.shape)]);
    return g.node('Cast', [shaped], { to: 6 });
  };
}

onnxLowerings.register({
  sum: reduction('ReduceSum'),
  mean: reduction('ReduceMean'),
  amax: reduction('ReduceMax'),
  amin: reduction('ReduceMin'),
  prod: reduction('ReduceProd'),
  // any counts the true values (an empty sum is 0: false); all is their minimum (empty: true).
  any: truthReduction('ReduceSum'),
  all: truthReduction('ReduceMin'),
  argmax: argReduction('ArgMax'),
  argmin: argReduction('ArgMin'),
  cumsum(ctx, [x], { dim, reverse, exclusive }: ScanAttrs, types) {
    const v = ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype);
    if (types.inputs[0]!.shape.length === 0) return ctx.graph.node('Identity', [v]);
    return ctx.graph.node('CumSum', [v, ctx.graph.constant('int32', [], [dim])], { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 });
  },
});
