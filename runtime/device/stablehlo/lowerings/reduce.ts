// Reductions (sum mean amax amin prod, any all, argmax argmin) and the cumulative sum.
// Sums and products of bfloat16 accumulate in float32 (as the TPU's reductions and
// PyTorch do) and round once at the end.
import { INT32_MAX, INT32_MIN, INT64_LIMIT, type DType } from '../../../dtype.js';
import type { ReduceAttrs } from '../../../ops/reduce.js';
import type { ArgAttrs } from '../../../ops/extrema.js';
import type { ScanAttrs } from '../../../ops/scan.js';
import { compare, convert, i64s, iota, isFloatElement, isNan, paddingAttr, reduce, reshape, same, select, splat } from './hlo.js';
import { stablehloLowerings, type StableHloLowering } from './table.js';

/** The dtype a reduction of `result` accumulates in. */
const accumulator = (result: DType): DType => (result === 'bfloat16' ? 'float32' : result);

/**
 * The input converted to `compute`, reduced over attrs.dims by `op` from `init`, shaped as the
 * result (keepdim) and converted to the result's dtype.
 */
function reduction(op: string, init: (float: boolean) => number, compute: (result: DType) => DType = accumulator): StableHloLowering {
  return ({ fn }, [x], { dims }: ReduceAttrs, types) => {
    const dtype = compute(types.output.dtype);
    const v = convert(fn, x!, dtype);
    const element = fn.typeOf(v).element;
    const [r] = reduce(fn, [v], [splat(fn, init(isFloatElement(element)), [], element)], dims, ([a], [b]) => [same(fn, op, a!, b!)]);
    return convert(fn, reshape(fn, r!, types.output.shape), types.output.dtype);
  };
}

/** The element count of the reduced dims. */
const countOf = (shape: readonly number[], dims: readonly number[]) => dims.reduce((n, d) => n * shape[d]!, 1);

/** A float32 sum divided by the count: the mean of nothing is 0/0 = NaN (PyTorch; ONNX Runtime says 0). */
const mean: StableHloLowering = (ctx, inputs, attrs: ReduceAttrs, types) => {
  const { fn } = ctx;
  const total = reduction('add', () => 0)(ctx, inputs, attrs, { ...types, output: { ...types.output, dtype: 'float32' } });
  const n = splat(fn, countOf(types.inputs[0]!.shape, attrs.dims), types.output.shape, 'f32');
  return convert(fn, same(fn, 'divide', total, n), types.output.dtype);
};

/**
 * argmax/argmin as PyTorch: the first index of the extreme value, NaN counting as the
 * extreme (its first index wins). One variadic reduce of (value, index) pairs.
 */
function argReduction(direction: 'GT' | 'LT'): StableHloLowering {
  return ({ fn }, [x], { dim }: ArgAttrs, types) => {
    const input = fn.typeOf(x!);
    const flat = dim === null ? reshape(fn, x!, [input.shape.reduce((a, b) => a * b, 1)]) : x!;
    const axis = dim ?? 0;
    const shape = fn.typeOf(flat).shape;
    if (shape.length === 0) return convert(fn, splat(fn, 0, types.output.shape, 'i32'), types.output.dtype);
    const float = isFloatElement(input.element);
    const worst = extremeOf(direction === 'GT' ? 'maximum' : 'minimum', types.inputs[0]!.dtype);
    const inits = [splat(fn, worst, [], input.element), splat(fn, INT32_MAX, [], 'i32')];
    const [, index] = reduce(fn, [flat, iota(fn, shape, axis)], inits, [axis], ([a, ai], [b, bi]) => {
      const firstIndex = compare(fn, ai!, bi!, 'LT');
      const tie = same(fn, 'and', compare(fn, a!, b!, 'EQ'), firstIndex);
      let wins = same(fn, 'or', compare(fn, a!, b!, direction), tie);
      if (float) {
        const bNotNan = same(fn, 'not', isNan(fn, b!));
        wins = select(fn, isNan(fn, a!), same(fn, 'or', bNotNan, firstIndex), wins);
      }
      return [select(fn, wins, a!, b!), select(fn, wins, ai!, bi!)];
    });
    // indices are i32 inside the reduce (cheaper on the TPU), int64 outside as PyTorch's
    return convert(fn, reshape(fn, index!, types.output.shape), types.output.dtype);
  };
}

/** cumsum as a reduce_window over a window as long as the dim, padded on the side it sums from. */
const cumsum: StableHloLowering = ({ fn }, [x], { dim, reverse, exclusive }: ScanAttrs, types) => {
  let v = convert(fn, x!, accumulator(types.output.dtype));
  const t = fn.typeOf(v);
  if (t.shape.length === 0) return convert(fn, v, types.output.dtype);
  const n = t.shape[dim]!;
  const zero = splat(fn, 0, [], t.element);
  const rank = t.shape.length;
  const along = (value: number, other = 0) => t.shape.map((_, d) => (d === dim ? value : other));
  if (exclusive && n > 0) {
    // shift by one toward the end it sums to: a zero enters, the last element leaves
    const pads = along(reverse ? -1 : 1);
    const high = along(reverse ? 1 : -1);
    v = fn.op('stablehlo.pad', [v, zero], t, [`edge_padding_low = ${i64s(pads)}`, `edge_padding_high = ${i64s(high)}`, `interior_padding = ${i64s(along(0))}`]);
  }
  const padding = t.shape.map((_, d) => (d !== dim ? [0, 0] : reverse ? [0, Math.max(n - 1, 0)] : [Math.max(n - 1, 0), 0]));
  const region = fn.region([{ shape: [], element: t.element }, { shape: [], element: t.element }], ([a, b]) => [same(fn, 'add', a!, b!)]);
  const summed = fn.op('stablehlo.reduce_window', [v, zero], t, [
    `window_dimensions = ${i64s(along(Math.max(n, 1), 1))}`,
    `window_strides = ${i64s(Array(rank).fill(1))}`,
    `padding = ${paddingAttr(padding)}`,
  ], [region]);
  return convert(fn, summed, types.output.dtype);
};

/** any / all over truth values. */
const truthReduction = (op: 'or' | 'and') => reduction(op, () => (op === 'and' ? 1 : 0), () => 'bool');

/** The identity of max/min: ±inf for floats, the integer dtype's extremes (int64's saturate in elementText). */
export function extremeOf(op: 'maximum' | 'minimum', dtype: DType): number {
  if (dtype === 'int64') return op === 'maximum' ? -INT64_LIMIT : INT64_LIMIT;
  if (dtype === 'int32') return op === 'maximum' ? INT32_MIN : INT32_MAX;
  return op === 'maximum' ? -Infinity : Infinity;
}

const extremum = (op: 'maximum' | 'minimum'): StableHloLowering => (ctx, inputs, attrs, types) =>
  reduction(op, () => extremeOf(op, types.output.dtype), (d) => d)(ctx, inputs, attrs, types);

stablehloLowerings.register({
  sum: reduction('add', () => 0),
  mean,
  // maximum/minimum propagate NaN: a NaN anywhere makes the result NaN, as in PyTorch.
  amax: extremum('maximum'),
  amin: extremum('minimum'),
  prod: reduction('multiply', () => 1),
  any: truthReduction('or'),
  all: truthReduction('and'),
  argmax: argReduction('GT'),
  argmin: argReduction('LT'),
  cumsum,
});

