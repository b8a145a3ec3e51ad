// Moving elements without arithmetic: reshape permute expand, strided slices and their
// embedding, pad, concat, tril/triu.
import type { Shape } from '../../../shape.js';
import type { SliceAttrs } from '../../../ops/slice.js';
import type { PadAttrs } from '../../../ops/pad-crop.js';
import type { TriluAttrs } from '../../../ops/triangular.js';
import { ELEMENT_TYPE, type MlirFunction } from '../mlir-function.js';
import { broadcastTo, compare, convert, i64s, iota, reshape, same, select, splat } from './hlo.js';
import { stablehloLowerings } from './table.js';

/** Dims read with a negative step, reversed first so every step is positive. */
function reverseNegativeSteps(fn: MlirFunction, v: string, step: readonly number[], count: readonly number[]): string {
  const dims = step.map((s, d) => (s < 0 && count[d]! > 0 ? d : -1)).filter((d) => d >= 0);
  return dims.length ? fn.op('stablehlo.reverse', [v], fn.typeOf(v), [`dimensions = ${i64s(dims)}`]) : v;
}

function pad(fn: MlirFunction, v: string, value: string, low: readonly number[], high: readonly number[], interior: readonly number[]): string {
  const t = fn.typeOf(v);
  if ([...low, ...high, ...interior].every((n) => n === 0)) return v;
  const shape = t.shape.map((n, d) => low[d]! + high[d]! + n + Math.max(n - 1, 0) * interior[d]!);
  return fn.op('stablehlo.pad', [v, value], { shape, element: t.element }, [
    `edge_padding_low = ${i64s(low)}`, `edge_padding_high = ${i64s(high)}`, `interior_padding = ${i64s(interior)}`,
  ]);
}

/** Elements begin + i·step of every dim (a negative step reads the reversed dim from n − 1 − begin). */
function staticSlice(fn: MlirFunction, x: string, { begin, step, count }: SliceAttrs, n: Shape): string {
  const v = reverseNegativeSteps(fn, x, step, count);
  const start = begin.map((b, d) => (count[d] === 0 ? 0 : step[d]! < 0 ? n[d]! - 1 - b : b));
  const strides = step.map((s) => Math.abs(s));
  const limit = start.map((s, d) => (count[d] === 0 ? s : s + (count[d]! - 1) * strides[d]! + 1));
  if (start.every((s, d) => s === 0 && strides[d] === 1 && limit[d] === n[d])) return v;
  return fn.op('stablehlo.slice', [v], { shape: count, element: fn.typeOf(v).element }, [
    `start_indices = ${i64s(start)}`, `limit_indices = ${i64s(limit)}`, `strides = ${i64s(strides)}`,
  ]);
}

/** Zeros between the elements (interior padding) and around them. */
function staticEmbed(fn: MlirFunction, x: string, { begin, step, count, shape }: SliceAttrs & { shape: Shape }): string {
  const v = reverseNegativeSteps(fn, x, step, count);
  const first = begin.map((b, d) => (count[d] === 0 ? 0 : step[d]! < 0 ? b + (count[d]! - 1) * step[d]! : b));
  const interior = step.map((s, d) => (count[d]! > 1 ? Math.abs(s) - 1 : 0));
  const high = shape.map((n, d) => n - first[d]! - (count[d] === 0 ? 0 : (count[d]! - 1) * Math.abs(step[d]!) + 1));
  return pad(fn, v, splat(fn, 0, [], fn.typeOf(v).element), first, high, interior);
}

/** The attrs with each fed dim whole (begin 0, count `whole[d]`): what the static part does. */
function withFedDimsWhole(attrs: SliceAttrs, whole: Shape): SliceAttrs {
  const fed = attrs.fed!;
  return {
    begin: attrs.begin.map((b, d) => (fed.includes(d) ? 0 : b)),
    step: attrs.step,
    count: attrs.count.map((c, d) => (fed.includes(d) ? whole[d]! : c)),
  };
}

/** dynamic_slice's start of every dim: the fed scalar operands, 0 for the others. */
function fedIndices(fn: MlirFunction, { begin, fed }: SliceAttrs, starts: readonly string[]): string[] {
  const zero = splat(fn, 0, [], 'i32');
  return begin.map((_, d) => (fed!.includes(d) ? convert(fn, starts[fed!.indexOf(d)]!, 'int32') : zero));
}

stablehloLowerings.register({
  reshape: ({ fn }, [x], { shape }: { shape: readonly number[] }) => reshape(fn, x!, shape),
  permute: ({ fn }, [x], { perm }: { perm: readonly number[] }, types) =>
    fn.op('stablehlo.transpose', [x!], { shape: types.output.shape, element: fn.typeOf(x!).element }, [`permutation = ${i64s(perm)}`]),
  expand: ({ fn }, [x], { shape }: { shape: readonly number[] }) => broadcastTo(fn, x!, shape),
  // Elements begin + i·step: a negative step reads the reversed dim from n − 1 − begin. Fed
  // dims: the other dims' static slice, then a dynamic_slice at the fed begins.
  slice({ fn }, [x, ...starts], attrs: SliceAttrs, types) {
    const n = types.inputs[0]!.shape;
    const { fed } = attrs;
    if (!fed) return staticSlice(fn, x!, attrs, n);
    const rest = staticSlice(fn, x!, withFedDimsWhole(attrs, n), n);
    const t = fn.typeOf(rest);
    return fn.op('stablehlo.dynamic_slice', [rest, ...fedIndices(fn, attrs, starts)], { shape: attrs.count, element: t.element }, [
      `slice_sizes = ${i64s(attrs.count)}`,
    ]);
  },
  // The slice's adjoint. Fed dims: the other dims embedded, then written into zeros at the fed begins.
  embedSlice({ fn }, [x, ...starts], attrs: SliceAttrs & { shape: Shape }) {
    const { fed, shape } = attrs;
    if (!fed) return staticEmbed(fn, x!, attrs);
    const inner = staticEmbed(fn, x!, { ...withFedDimsWhole(attrs, attrs.count), shape: shape.map((n, d) => (fed.includes(d) ? attrs.count[d]! : n)) });
    const element = fn.typeOf(inner).element;
    return fn.op('stablehlo.dynamic_update_slice', [splat(fn, 0, shape, element), inner, ...fedIndices(fn, attrs, starts)], { shape, element });
  },
  // Negative amounts crop (StableHLO's pad takes them as they are).
  pad({ fn }, [x, value], { pads }: PadAttrs, types) {
    const fill = reshape(fn, convert(fn, value!, types.inputs[0]!.dtype), []);
    return pad(fn, x!, fill, pads.map((p) => p[0]!), pads.map((p) => p[1]!), pads.map(() => 0));
  },
  concat: ({ fn }, inputs, { dim }: { dim: number }, types) =>
    fn.op('stablehlo.concatenate', inputs.map((v) => convert(fn, v, types.output.dtype)), { shape: types.output.shape, element: ELEMENT_TYPE[types.output.dtype] }, [
      `dimension = ${dim} : i64`,
    ]),
  // Keeps element (i, j) of the last two dims where j − i ≥ diagonal (triu) or ≤ diagonal (tril).
  trilu({ fn }, [x], { upper, diagonal }: TriluAttrs, types) {
    const shape = types.output.shape;
    const r = shape.length;
    const offset = same(fn, 'subtract', iota(fn, shape, r - 1), iota(fn, shape, r - 2));
    const keep = compare(fn, offset, splat(fn, diagonal, shape, 'i32'), upper ? 'GE' : 'LE');
    const t = fn.typeOf(x!);
    return select(fn, keep, x!, splat(fn, 0, t.shape, t.element));
  },
});
