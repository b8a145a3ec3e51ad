// Primitives that read indices or produce them: gathers, scatterAdd, scatter, scatterReduce, topk. Negative
// indices count from the end (as the ONNX backend's Gather/ScatterElements read them); an
// index out of range is clamped by XLA's gather and dropped by its scatter, where the ONNX
// backend fails on the device.
import type { DType } from '../../../dtype.js';
import type { TopkAttrs } from '../../../ops/sort.js';
import type { ScatterReduceAttrs } from '../../../ops/scatter-reduce.js';
import type { MlirFunction } from '../mlir-function.js';
import { compare, convert, i64s, iota, isFloatElement, isNan, reshape, same, select, splat } from './hlo.js';
import { stablehloLowerings, type StableHloLowering } from './table.js';

/** index + n where it is negative. */
function wrapped(fn: MlirFunction, index: string, n: number): string {
  const { shape, element } = fn.typeOf(index);
  const negative = compare(fn, index, splat(fn, 0, shape, element), 'LT');
  return select(fn, negative, same(fn, 'add', index, splat(fn, n, shape, element)), index);
}

const list = (values: readonly number[]) => `[${values.join(', ')}]`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * Full coordinates [..index.shape, rank] for element-wise gather/scatter along dim: the
 * index (wrapped) in dim, each element's own position in the other dims.
 */
function coordinates(fn: MlirFunction, index: string, dim: number, input: readonly number[]): string {
  const { shape, element } = fn.typeOf(index);
  const unit = [...shape, 1];
  // the other dims' positions in the index's own element type (int32 or int64)
  const position = (d: number) => (element === 'i64' ? convert(fn, iota(fn, shape, d), 'int64') : iota(fn, shape, d));
  const parts = input.map((n, d) => reshape(fn, d === dim ? wrapped(fn, index, n) : position(d), unit));
  return fn.op('stablehlo.concatenate', parts, { shape: [...shape, input.length], element }, [`dimension = ${shape.length} : i64`]);
}

/** Sorted along dim, stably, largest (NaN first) or smallest (NaN last) first: [values, indices]. */
function sortWithIndices(fn: MlirFunction, x: string, { dim, largest }: TopkAttrs): [string, string] {
  const t = fn.typeOf(x);
  const scalar = { shape: [], element: t.element } as const;
  const index = { shape: [], element: 'i32' } as const;
  const region = fn.region([scalar, scalar, index, index], ([a, b]) => {
    let before = compare(fn, a!, b!, largest ? 'GT' : 'LT');
    if (isFloatElement(t.element)) {
      const nanFirst = largest ? same(fn, 'and', isNan(fn, a!), same(fn, 'not', isNan(fn, b!))) : same(fn, 'and', same(fn, 'not', isNan(fn, a!)), isNan(fn, b!));
      before = same(fn, 'or', before, nanFirst);
    }
    return [before];
  });
  const [values, indices] = fn.opResults('stablehlo.sort', [x, iota(fn, t.shape, dim)], [t, { shape: t.shape, element: 'i32' }], [
    `dimension = ${dim} : i64`, 'is_stable = true',
  ], [region]);
  return [values!, indices!];
}

function topk(fn: MlirFunction, x: string, a: TopkAttrs, which: 0 | 1): string {
  const t = fn.typeOf(x);
  if (t.shape.length === 0) return which === 0 ? x : splat(fn, 0, [], 'i32');
  const sorted = sortWithIndices(fn, x, a)[which];
  const limit = t.shape.map((n, d) => (d === a.dim ? a.k : n));
  if (limit[a.dim] === t.shape[a.dim]) return sorted;
  return fn.op('stablehlo.slice', [sorted], { shape: limit, element: fn.typeOf(sorted).element }, [
    `start_indices = ${i64s(t.shape.map(() => 0))}`, `limit_indices = ${i64s(limit)}`, `strides = ${i64s(t.shape.map(() => 1))}`,
  ]);
}

/** scatterAdd accumulates bfloat16 in float32 and bool in int32 (rounded once, as the ONNX backend). */
const scatterDtype = (d: DType): DType => (d === 'bfloat16' ? 'float32' : d === 'bool' ? 'int32' : d);

/** An element-wise scatter along dim, in `dtype`, each update merged into its slot by `combine`. */
function scatterLowering(dtype: (d: DType) => DType, combine: (fn: MlirFunction, slot: string, update: string) => string): StableHloLowering {
  return ({ fn }, [x, index, src], { dim }: { dim: number }, types) => {
    const input = types.inputs[0]!.shape;
    const d = dtype(types.output.dtype);
    const base = convert(fn, x!, d);
    const t = fn.typeOf(base);
    const scalar = { shape: [], element: t.element } as const;
    const region = fn.region([scalar, scalar], ([a, b]) => [combine(fn, a!, b!)]);
    const all = list(range(input.length));
    const merged = fn.op('stablehlo.scatter', [base, coordinates(fn, index!, dim, input), convert(fn, src!, d)], t, [
      `scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = ${all}, scatter_dims_to_operand_dims = ${all}, index_vector_dim = ${input.length}>`,
      'indices_are_sorted = false', 'unique_indices = false',
    ], [region]);
    return convert(fn, merged, types.output.dtype);
  };
}

stablehloLowerings.register({
  indexSelect({ fn }, [x, index], { dim }: { dim: number }, types) {
    const input = types.inputs[0]!.shape;
    const m = types.inputs[1]!.shape.length;
    const offsetDims = range(input.length).filter((d) => d !== dim).map((d) => (d < dim ? d : d - 1 + m));
    const numbers = [
      ...(offsetDims.length ? [`offset_dims = ${list(offsetDims)}`] : []),
      `collapsed_slice_dims = [${dim}]`, `start_index_map = [${dim}]`, `index_vector_dim = ${m}`,
    ];
    return fn.op('stablehlo.gather', [x!, wrapped(fn, index!, input[dim]!)], { shape: types.output.shape, element: fn.typeOf(x!).element }, [
      `dimension_numbers = #stablehlo.gather<${numbers.join(', ')}>`,
      `slice_sizes = ${i64s(input.map((n, d) => (d === dim ? 1 : n)))}`,
      'indices_are_sorted = false',
    ]);
  },
  gather({ fn }, [x, index], { dim }: { dim: number }, types) {
    const input = types.inputs[0]!.shape;
    const all = list(range(input.length));
    return fn.op('stablehlo.gather', [x!, coordinates(fn, index!, dim, input)], { shape: types.output.shape, element: fn.typeOf(x!).element }, [
      `dimension_numbers = #stablehlo.gather<collapsed_slice_dims = ${all}, start_index_map = ${all}, index_vector_dim = ${input.length}>`,
      `slice_sizes = ${i64s(input.map(() => 1))}`,
      'indices_are_sorted = false',
    ]);
  },
  scatterAdd: scatterLowering(scatterDtype, (fn, a, b) => same(fn, 'add', a, b)),
  // of repeated indices, XLA keeps any one update (PyTorch CPU and the ONNX backend the last)
  scatter: scatterLowering((d) => d, (_fn, _a, b) => b),
  // x's own values left out are first overwritten with ones (prod) or with src (amax, amin)
  scatterReduce(ctx, [x, index, src], attrs: ScatterReduceAttrs, types) {
    const combine = { prod: 'multiply', amax: 'maximum', amin: 'minimum' }[attrs.reduce];
    const fresh = attrs.reduce === 'prod' ? splat(ctx.fn, 1, types.inputs[2]!.shape, ctx.fn.typeOf(src!).element) : src!;
    const base = attrs.includeSelf ? x! : scatterLowering((d) => d, (_fn, _a, b) => b)(ctx, [x!, index!, fresh], attrs, types);
    return scatterLowering(scatterDtype, (fn, a, b) => same(fn, combine, a, b))(ctx, [base, index!, src!], attrs, types);
  },
  // Two primitives lowering the same sort: XLA's common-subexpression pass merges them in a fused program.
  topkValues: ({ fn }, [x], a: TopkAttrs) => topk(fn, x!, a, 0),
  // sorted as i32 (cheaper on the TPU), returned as PyTorch's int64
  topkIndices: ({ fn }, [x], a: TopkAttrs, types) => convert(fn, topk(fn, x!, a, 1), types.output.dtype),
});
