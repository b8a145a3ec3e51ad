// Moving elements without arithmetic: reshape permute expand, strided slices and their
// embedding, pad, concat, tril/triu.
import { shapesEqual, type Shape } from '../../../shape.js';
import type { SliceAttrs } from '../../../ops/slice.js';
import { cropOf, type PadAttrs } from '../../../ops/pad-crop.js';
import type { TriluAttrs } from '../../../ops/triangular.js';
import type { NodeTypes } from '../../lowering-table.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { onnxLowerings, type OnnxLowerContext, type OnnxLowering } from './table.js';

/** Before the first element, whatever the dim: ONNX clamps it to "past the start". */
const PAST_START = -(2 ** 53);

/** The begin of each fed dim (SliceAttrs.fed) as an [1] value of `type`, from its scalar operand. */
function fedBegins(ctx: OnnxLowerContext, { fed }: SliceAttrs, starts: readonly string[], types: NodeTypes, type: 'int32' | 'int64'): Map<number, string> {
  const begins = new Map<number, string>();
  fed?.forEach((d, k) => begins.set(d, ctx.graph.reshape(ctx.cast(starts[k]!, types.inputs[k + 1]!.dtype, type), [1])));
  return begins;
}

const slice: OnnxLowering = (ctx, [x, ...starts], attrs: SliceAttrs, types) => {
  const { begin, step, count } = attrs;
  const input = types.inputs[0]!.shape;
  const axes = input.map((_, d) => d).filter((d) => !(step[d] === 1 && begin[d] === 0 && count[d] === input[d]));
  if (axes.length === 0) return ctx.graph.node('Identity', [x!]);
  const g = ctx.graph;
  if (!attrs.fed) {
    const ends = axes.map((d) => {
      const end = begin[d]! + count[d]! * step[d]!;
      return end < 0 ? PAST_START : end;
    });
    return g.node('Slice', [x!, g.int64s(axes.map((d) => begin[d]!)), g.int64s(ends), g.int64s(axes), g.int64s(axes.map((d) => step[d]!))]);
  }
  // Fed begins are int32 scalars: the indices in int32 too (no Cast), as Slice allows. No
  // negative step here (flip feeds none), so every end is a position.
  const int32s = (values: readonly number[]) => g.constant('int32', [values.length], values);
  const fed = fedBegins(ctx, attrs, starts, types, 'int32');
  const vector = (parts: string[]) => (parts.length === 1 ? parts[0]! : g.node('Concat', parts, { axis: 0 }));
  const firsts = vector(axes.map((d) => fed.get(d) ?? int32s([begin[d]!])));
  const lasts = vector(axes.map((d) => (fed.has(d) ? g.node('Add', [fed.get(d)!, int32s([count[d]!])]) : int32s([begin[d]! + count[d]! * step[d]!]))));
  return g.node('Slice', [x!, firsts, lasts, int32s(axes), int32s(axes.map((d) => step[d]!))]);
};

/** Zeros around each fed dim's elements (count of them, step 1): pads computed from the fed begins. */
function embedFedDims(ctx: OnnxLowerContext, v: string, attrs: SliceAttrs & { shape: Shape }, starts: readonly string[], types: NodeTypes): string {
  const g = ctx.graph;
  const fed = fedBegins(ctx, attrs, starts, types, 'int64');
  const zero = g.int64s([0]);
  const before = attrs.shape.map((_, d) => fed.get(d) ?? zero);
  const after = attrs.shape.map((n, d) => (fed.has(d) ? g.node('Sub', [g.int64s([n - attrs.count[d]!]), fed.get(d)!]) : zero));
  return g.node('Pad', [v, g.node('Concat', [...before, ...after], { axis: 0 })]);
}

/** Spreads dim d of v (count elements) to positions begin + i·step of a zero dim of attrs.shape[d]. */
function embedDim(ctx: OnnxLowerContext, v: string, shape: number[], d: number, a: SliceAttrs & { shape: Shape }): string {
  const g = ctx.graph;
  const n = a.shape[d]!;
  const c = a.count[d]!;
  let step = a.step[d]!;
  let first = a.begin[d]!;
  if (c === n && step === 1) return v;
  if (c > 0 && step < 0) {
    v = g.node('Slice', [v, g.int64s([c - 1]), g.int64s([PAST_START]), g.int64s([d]), g.int64s([-1])]);
    first += (c - 1) * step;
    step = -step;
  }
  let len = c;
  if (step > 1 && c > 0) {
    // interleave step-1 zeros after each element: [.., c, ..] -> [.., c, step, ..] -> [.., c·step, ..]
    const withUnit = [...shape.slice(0, d + 1), 1, ...shape.slice(d + 1)];
    const pads = withUnit.map(() => [0, 0]);
    pads[d + 1]![1] = step - 1;
    v = padNode(ctx, g.reshape(v, withUnit), pads);
    len = c * step;
    v = g.reshape(v, [...shape.slice(0, d), len, ...shape.slice(d + 1)]);
    const keep = Math.min(len, n - first);
    if (keep < len) v = g.node('Slice', [v, g.int64s([0]), g.int64s([keep]), g.int64s([d]), g.int64s([1])]);
    len = keep;
  }
  const pads = shape.map(() => [0, 0]);
  pads[d] = [c === 0 ? 0 : first, n - (c === 0 ? 0 : first) - len];
  shape[d] = n;
  return padNode(ctx, v, pads);
}

/** ONNX Pad with non-negative [before, after] per dim and zeros (or a given fill value). */
function padNode(ctx: OnnxLowerContext, v: string, pads: readonly (readonly number[])[], value?: string): string {
  const g = ctx.graph;
  if (pads.every(([b, a]) => b === 0 && a === 0)) return v;
  const flat = [...pads.map((p) => p[0]!), ...pads.map((p) => p[1]!)];
  return g.node('Pad', value ? [v, g.int64s(flat), value] : [v, g.int64s(flat)]);
}

/**
 * x transposed by perm; a transpose of a Transpose is one Transpose of its input (none when
 * they cancel). Autograd's matmul gradient transposes a transposed weight back (W6: W2.T.T):
 * the weight's Transpose then had a second reader and ONNX Runtime kept it as a kernel instead
 * of folding it into the GEMM.
 */
function transpose(g: OnnxGraph, x: string, perm: readonly number[]): string {
  const inner = g.producer(x);
  const innerPerm = inner?.op === 'Transpose' && !inner.domain ? inner.attrs['perm'] : undefined;
  if (Array.isArray(innerPerm) && innerPerm.length === perm.length) {
    return transpose(g, inner!.inputs[0]!, perm.map((d) => innerPerm[d] as number));
  }
  return perm.every((d, i) => d === i) ? x : g.node('Transpose', [x], { perm });
}

/** A layout op that leaves its operand as it is (autograd makes many: a gradient reshaped to its own shape). */
const unchanged = (types: NodeTypes) => shapesEqual(types.inputs[0]!.shape, types.output.shape);

onnxLowerings.register({
  // Ops that change nothing pass their operand on: ONNX Runtime ran each such Reshape or
  // Transpose as a kernel (W6's compiled step: 9 of its 101 nodes).
  // allowzero: a 0 in the shape is a dim of size 0 (an empty tensor), not "copy the input's dim"
  reshape: (ctx, [x], { shape }: { shape: readonly number[] }, types) => (unchanged(types) ? x! : ctx.graph.reshape(x!, shape)),
  permute: (ctx, [x], { perm }: { perm: readonly number[] }) => transpose(ctx.graph, x!, perm),
  expand: (ctx, [x], { shape }: { shape: readonly number[] }, types) => (unchanged(types) ? x! : ctx.graph.expand(x!, shape)),
  slice,
  embedSlice(ctx, [x, ...starts], attrs: SliceAttrs & { shape: Shape }, types) {
    let v = x!;
    const shape = [...types.inputs[0]!.shape];
    for (let d = 0; d < shape.length; d++) if (!attrs.fed?.includes(d)) v = embedDim(ctx, v, shape, d, attrs);
    return attrs.fed ? embedFedDims(ctx, v, attrs, starts, types) : v;
  },
  pad(ctx, [x, v], { pads }: PadAttrs, types) {
    const input = types.inputs[0]!;
    const crop = cropOf(input.shape, pads);
    let out = x!;
    if (pads.some(([b, a]) => b! < 0 || a! < 0)) out = slice(ctx, [out], crop, { inputs: [input], output: { shape: crop.count, dtype: input.dtype } });
    const value = ctx.cast(v!, types.inputs[1]!.dtype, input.dtype);
    return padNode(ctx, out, pads.map(([b, a]) => [Math.max(b!, 0), Math.max(a!, 0)]), value);
  },
  concat: (ctx, inputs, { dim }: { dim: number }, types) =>
    ctx.graph.node('Concat', inputs.map((v, i) => ctx.cast(v, types.inputs[i]!.dtype, types.output.dtype)), { axis: dim }),
  trilu(ctx, [x], { upper, diagonal }: TriluAttrs, types) {
    // ORT's Trilu has no int32 kernel: int32 goes through int64 (exact), bool through its own.
    const dtype = types.inputs[0]!.dtype;
    const g = ctx.graph;
    const k = g.int64s([diagonal]);
    const kScalar = g.reshape(k, []);
    if (dtype !== 'int32') return g.node('Trilu', [x!, kScalar], { upper: upper ? 1 : 0 });
    const wide = g.node('Cast', [x!], { to: 7 });
    return g.node('Cast', [g.node('Trilu', [wide, kScalar], { upper: upper ? 1 : 0 })], { to: 6 });
  },
});
