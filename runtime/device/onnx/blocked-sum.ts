// Float sums in blocks: ONNX Runtime's ReduceSum and CumSum add sequentially, so a float32 sum of
// 16M elements loses ~2% (each addition rounds against an ever larger total). Here at most BLOCK
// values are added in sequence, and the block totals are summed the same way, level by level
// (a tree of depth log_BLOCK(n), as NumPy's pairwise and XLA's tree reductions): the error grows
// with log(n) instead of n. Values are viewed as [pre, n, post] with the summed axis in the
// middle, so no transpose is needed when the summed dims are adjacent (the common case).
import type { OnnxGraph } from './onnx-graph.js';

export const BLOCK = 128;

const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

/**
 * [pre, n, post] zero-padded along n to whole blocks, as [pre, blocks, BLOCK, post] (post = 1
 * left out: ONNX Runtime reduces a last axis much faster than a middle one).
 */
function inBlocks(g: OnnxGraph, v: string, pre: number, n: number, post: number): { grouped: string; blocks: number } {
  const blocks = Math.ceil(n / BLOCK);
  const pads = post === 1 ? [0, 0, 0, blocks * BLOCK - n] : [0, 0, 0, 0, blocks * BLOCK - n, 0];
  const padded = blocks * BLOCK === n ? v : g.node('Pad', [v, g.int64s(pads)]);
  return { grouped: g.reshape(padded, post === 1 ? [pre, blocks, BLOCK] : [pre, blocks, BLOCK, post]), blocks };
}

/** The shape of a [pre, n, post] view (post = 1 left out). */
const view = (pre: number, n: number, post: number) => (post === 1 ? [pre, n] : [pre, n, post]);

/** ReduceSum over `dims` of a float32 value of `shape`, accumulated in blocks. */
export function blockedReduceSum(g: OnnxGraph, x: string, shape: readonly number[], dims: readonly number[], keepdim: boolean): string {
  const n0 = product(dims.map((d) => shape[d]!));
  const adjacent = dims.every((d, i) => i === 0 || d === dims[i - 1]! + 1);
  const out = shape.flatMap((d, i) => (!dims.includes(i) ? [d] : keepdim ? [1] : []));
  if (n0 <= BLOCK) {
    const post = adjacent && dims.length ? product(shape.slice(dims[dims.length - 1]! + 1)) : 1;
    if (post > 1 && n0 > 1) return g.reshape(sumByOnes(g, x, shape, product(shape.slice(0, dims[0])), n0, post), out);
    return g.node('ReduceSum', [x, g.int64s(dims)], { keepdims: keepdim ? 1 : 0 });
  }
  const kept = shape.map((_, i) => i).filter((i) => !dims.includes(i));
  // summed dims not adjacent: moved last (kept dims keep their order)
  const source = adjacent ? x : g.node('Transpose', [x], { perm: [...kept, ...dims] });
  const pre = adjacent ? product(shape.slice(0, dims[0])) : product(kept.map((d) => shape[d]!));
  const post = adjacent ? product(shape.slice(dims[dims.length - 1]! + 1)) : 1;
  let v = g.reshape(source, view(pre, n0, post));
  let n = n0;
  while (n > BLOCK) {
    const b = inBlocks(g, v, pre, n, post);
    v = g.node('ReduceSum', [b.grouped, g.int64s([2])], { keepdims: 0 });
    n = b.blocks;
  }
  const total = g.node('ReduceSum', [v, g.int64s([1])], { keepdims: 0 });
  return g.reshape(total, out);
}

/**
 * The sum over the middle axis of [pre, n, post] (post > 1) as a product with a row of ones:
 * ONNX Runtime's ReduceSum over a non-last axis took 10.6 µs on a 64x256 bias gradient, MatMul
 * 2.6 µs (one-node sessions timed alone, docs/runtime.md); each sum still adds at most n values.
 */
function sumByOnes(g: OnnxGraph, x: string, shape: readonly number[], pre: number, n: number, post: number): string {
  const ones = g.constant('float32', [1, n], new Array<number>(n).fill(1));
  const view = pre === 1 ? [n, post] : [pre, n, post];
  const same = view.length === shape.length && view.every((d, i) => d === shape[i]);
  return g.node('MatMul', [ones, same ? x : g.reshape(x, view)]);
}

/** CumSum along `dim` of a float32 value of `shape`, accumulated in blocks (flags as ONNX CumSum's). */
export function blockedCumSum(g: OnnxGraph, x: string, shape: readonly number[], dim: number, reverse: boolean, exclusive: boolean): string {
  const n = shape[dim]!;
  if (n <= BLOCK) return g.node('CumSum', [x, g.constant('int32', [], [dim])], { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 });
  const pre = product(shape.slice(0, dim));
  const post = product(shape.slice(dim + 1));
  const v = g.reshape(x, view(pre, n, post));
  return g.reshape(cumsumMiddle(g, v, pre, n, post, reverse, exclusive), shape);
}

/** Cumulative sums along the middle axis of [pre, n, post]: within blocks, plus the running block totals. */
function cumsumMiddle(g: OnnxGraph, v: string, pre: number, n: number, post: number, reverse: boolean, exclusive: boolean): string {
  const flags = { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 };
  if (n <= BLOCK) return g.node('CumSum', [v, g.constant('int32', [], [1])], flags);
  const { grouped, blocks } = inBlocks(g, v, pre, n, post);
  const inner = g.node('CumSum', [grouped, g.constant('int32', [], [2])], flags);
  const totals = g.node('ReduceSum', [grouped, g.int64s([2])], { keepdims: 0 });
  // each block starts from the sum of the blocks before it (after it, when reversed)
  const before = cumsumMiddle(g, totals, pre, blocks, post, reverse, true);
  const shifted = g.node('Add', [inner, g.node('Unsqueeze', [before, g.int64s([2])])]);
  const flat = g.reshape(shifted, view(pre, blocks * BLOCK, post));
  if (blocks * BLOCK === n) return flat;
  return g.node('Slice', [flat, g.int64s([0]), g.int64s([n]), g.int64s([1])]);
}
