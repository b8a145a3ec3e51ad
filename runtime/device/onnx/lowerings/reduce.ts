// Reductions (sum mean amax amin prod, any all, argmax argmin) and the cumulative sum.
import type { ReduceAttrs } from '../../../ops/reduce.js';
import type { ArgAttrs } from '../../../ops/extrema.js';
import type { ScanAttrs } from '../../../ops/scan.js';
import { COMPUTE_TYPE, type DType } from '../../../dtype.js';
import { blockedCumSum, blockedReduceSum } from '../blocked-sum.js';
import { wrappingReduce } from '../wrapping-reduce.js';
import { onnxLowerings, type OnnxLowering } from './table.js';
import type { OnnxGraph } from '../onnx-graph.js';

/** The input cast to the result's dtype, reduced by one ONNX op (a 0-d input is its own result). */
function reduction(onnx: string): OnnxLowering {
  return (ctx, [x], attrs: ReduceAttrs, types) => {
    const v = ctx.cast(x!, types.inputs[0]!.dtype, types.output.dtype);
    if (types.inputs[0]!.shape.length === 0) return ctx.graph.node('Identity', [v]);
    return ctx.graph.node(onnx, [v, ctx.graph.int64s(attrs.dims)], { keepdims: attrs.keepdim ? 1 : 0 });
  };
}

/**
 * A float sum starts from +0, as PyTorch's: a sum of -0s is +0 (ONNX Runtime's keeps -0). A
 * Sum node, since ONNX Runtime drops an Add of a zero constant as a no-op.
 */
function fromPlusZero(g: OnnxGraph, sum: string): string {
  return g.node('Sum', [sum, g.constant('float32', [], [0])]);
}

/** float32 sum and mean add in blocks (blocked-sum.ts); int64 sums wrap as PyTorch's (wrapping-reduce.ts); other dtypes reduce with one ONNX op. */
function sumLike(mean: boolean): OnnxLowering {
  const plain = reduction(mean ? 'ReduceMean' : 'ReduceSum');
  return (ctx, inputs, attrs: ReduceAttrs, types) => {
    const input = types.inputs[0]!;
    if (!mean && types.output.dtype === 'int64' && input.shape.length > 0) {
      return wrappingReduce(ctx.graph, 'Add', ctx.cast(inputs[0]!, input.dtype, 'int64'), input.shape, attrs.dims, types.output.shape);
    }
    if (COMPUTE_TYPE[types.output.dtype] !== 'float32') return plain(ctx, inputs, attrs, types);
    if (input.shape.length === 0) return fromPlusZero(ctx.graph, plain(ctx, inputs, attrs, types));
    // summed in float32 from the input as it is: a bfloat16 result is rounded once, at the end
    const v = ctx.cast(inputs[0]!, input.dtype, 'float32');
    const sum = fromPlusZero(ctx.graph, blockedReduceSum(ctx.graph, v, input.shape, attrs.dims, attrs.keepdim));
    if (!mean) return sum;
    const n = attrs.dims.reduce((p, d) => p * input.shape[d]!, 1);
    return ctx.graph.node('Div', [sum, ctx.graph.constant('float32', [], [n])]); // n = 0: NaN, as PyTorch
  };
}

/** amax/amin of floats: NaN when the reduced values hold one (ONNX ReduceMax/Min skip NaN). */
function extremum(onnx: 'ReduceMax' | 'ReduceMin'): OnnxLowering {
  const plain = reduction(onnx);
  return (ctx, inputs, attrs: ReduceAttrs, types) => {
    const r = plain(ctx, inputs, attrs, types);
    if (COMPUTE_TYPE[types.output.dtype] !== 'float32' || types.inputs[0]!.shape.length === 0) return r;
    // Σ|x| is NaN exactly when a NaN is among the values (infinities give inf): one more pass
    const g = ctx.graph;
    const anyNaN = g.node('IsNaN', [g.node('ReduceL1', [inputs[0]!, g.int64s(attrs.dims)], { keepdims: attrs.keepdim ? 1 : 0 })]);
    return g.node('Where', [anyNaN, g.constant('float32', [], [NaN]), r]);
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
    const flat = dim === null ? g.reshape(x!, [-1]) : x!;
    const axis = dim ?? 0;
    let r = types.inputs[0]!.shape.length === 0 ? g.node('Constant', [], { value_int: 0 }) : g.node(onnx, [flat], { axis, keepdims: 0 });
    if (types.inputs[0]!.shape.length > 0 && COMPUTE_TYPE[types.inputs[0]!.dtype] === 'float32') {
      // PyTorch's argmax and argmin both point at the first NaN, if any
      const nan = g.node('Cast', [g.node('IsNaN', [flat])], { to: 1 });
      const anyNaN = g.node('IsNaN', [g.node('ReduceL1', [flat, g.int64s([axis])], { keepdims: 0 })]);
      r = g.node('Where', [anyNaN, g.node('ArgMax', [nan], { axis, keepdims: 0, select_last_index: 0 }), r]);
    }
    // ArgMax's int64 result is the index dtype already
    return g.reshape(r, types.output.shape);
  };
}

onnxLowerings.register({
  sum: sumLike(false),
  mean: sumLike(true),
  amax: extremum('ReduceMax'),
  amin: extremum('ReduceMin'),
  prod(ctx, inputs, attrs: ReduceAttrs, types) {
    const input = types.inputs[0]!;
    if (types.output.dtype !== 'int64' || input.shape.length === 0) return reduction('ReduceProd')(ctx, inputs, attrs, types);
    return wrappingReduce(ctx.graph, 'Mul', ctx.cast(inputs[0]!, input.dtype, 'int64'), input.shape, attrs.dims, types.output.shape);
  },
  // any counts the true values (an empty sum is 0: false); all is their minimum (empty: true).
  any: truthReduction('ReduceSum'),
  all: truthReduction('ReduceMin'),
  argmax: argReduction('ArgMax'),
  argmin: argReduction('ArgMin'),
  cumsum(ctx, [x], { dim, reverse, exclusive }: ScanAttrs, types) {
    const input = types.inputs[0]!;
    if (input.shape.length === 0) return ctx.graph.node('Identity', [ctx.cast(x!, input.dtype, types.output.dtype)]);
    if (COMPUTE_TYPE[types.output.dtype] === 'float32') return fromPlusZero(ctx.graph, blockedCumSum(ctx.graph, ctx.cast(x!, input.dtype, types.output.dtype), input.shape, dim, reverse, exclusive));
    // integers: an int64 running sum (wrapping as PyTorch's)
    const v = ctx.cast(x!, input.dtype, types.output.dtype);
    return ctx.graph.node('CumSum', [v, ctx.graph.constant('int32', [], [dim])], { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 });
  },
});
