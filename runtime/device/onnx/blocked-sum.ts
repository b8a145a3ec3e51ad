// Float sums in blocks: ONNX Runtime's ReduceSum and CumSum add sequentially, so a float32 sum of
// 16M elements loses ~2% (each addition rounds against an ever larger total). Here at most BLOCK
// values are added in sequence, and the block totals are summed the same way, level by level
// (a tree of depth log_BLOCK(n), as NumPy's pairwise and XLA's tree reductions): the error grows
// with log(n) instead of n.
import type { OnnxGraph } from './onnx-graph.js';

export const BLOCK = 128;

const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

/** Zero-pads the last axis of a [rows, n] value to a multiple of BLOCK. */
function padToBlocks(g: OnnxGraph, v: string, rows: number, n: number): { v: string; blocks: number } {
  const blocks = Math.ceil(n / BLOCK);
  if (blocks * BLOCK === n) return { v, blocks };
  return { v: g.node('Pad', [v, g.int64s([0, 0, 0, blocks * BLOCK - n])]), blocks };
}

/** The value with the given dims moved last and flattened: [rest, reduced] (no copy when already last). */
function reducedLast(g: OnnxGraph, x: string, shape: readonly number[], dims: readonly number[]): { v: string; rows: number; n: number } {
  const kept = shape.map((_, i) => i).filter((i) => !dims.includes(i));
  const perm = [...kept, ...dims];
  const moved = perm.every((p, i) => p === i) ? x : g.node('Transpose', [x], { perm });
  const rows = product(kept.map((d) => shape[d]!));
  const n = product(dims.map((d) => shape[d]!));
  return { v: g.node('Reshape', [moved, g.int64s([rows, n])]), rows, n };
}

/** ReduceSum over `dims` of a float32 value of `shape`, accumulated in blocks. */
export function blockedReduceSum(g: OnnxGraph, x: string, shape: readonly number[], dims: readonly number[], keepdim: boolean): string {
  const n0 = product(dims.map((d) => shape[d]!));
  if (n0 <= BLOCK) return g.node('ReduceSum', [x, g.int64s(dims)], { keepdims: keepdim ? 1 : 0 });
  let { v, rows, n } = reducedLast(g, x, shape, dims);
  while (n > BLOCK) {
    const p = padToBlocks(g, v, rows, n);
    const grouped = g.node('Reshape', [p.v, g.int64s([rows, p.blocks, BLOCK])]);
    v = g.node('ReduceSum', [grouped, g.int64s([2])], { keepdims: 0 });
    n = p.blocks;
  }
  const total = g.node('ReduceSum', [v, g.int64s([1])], { keepdims: 0 });
  const out = shape.flatMap((d, i) => (!dims.includes(i) ? [d] : keepdim ? [1] : []));
  return g.node('Reshape', [total, g.int64s(out)]);
}

/** CumSum along `dim` of a float32 value of `shape`, accumulated in blocks (flags as ONNX CumSum's). */
export function blockedCumSum(g: OnnxGraph, x: string, shape: readonly number[], dim: number, reverse: boolean, exclusive: boolean): string {
  const n0 = shape[dim]!;
  const flags = { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 };
  if (n0 <= BLOCK) return g.node('CumSum', [x, g.constant('int32', [], [dim])], flags);
  const { v, rows, n } = reducedLast(g, x, shape, [dim]);
  const rowsCum = cumsumRows(g, v, rows, n, reverse, exclusive);
  // back to the input's layout: [rest..., n] then the dim moved home
  const kept = shape.map((_, i) => i).filter((i) => i !== dim);
  const unflat = g.node('Reshape', [rowsCum, g.int64s([...kept.map((d) => shape[d]!), n])]);
  const perm = [...kept, dim];
  if (perm.every((p, i) => p === i)) return unflat;
  const inverse = perm.map((_, i) => perm.indexOf(i));
  return g.node('Transpose', [unflat], { perm: inverse });
}

/** Cumulative sums along the last axis of [rows, n]: within blocks, plus the running block totals. */
function cumsumRows(g: OnnxGraph, v: string, rows: number, n: number, reverse: boolean, exclusive: boolean): string {
  const flags = { reverse: reverse ? 1 : 0, exclusive: exclusive ? 1 : 0 };
  if (n <= BLOCK) return g.node('CumSum', [v, g.constant('int32', [], [1])], flags);
  const p = padToBlocks(g, v, rows, n);
  const grouped = g.node('Reshape', [p.v, g.int64s([rows, p.blocks, BLOCK])]);
  const inner = g.node('CumSum', [grouped, g.constant('int32', [], [2])], flags);
  const totals = g.node('ReduceSum', [grouped, g.int64s([2])], { keepdims: 0 });
  // each block starts from the sum of the blocks before it (after it, when reversed)
  const before = cumsumRows(g, totals, rows, p.blocks, reverse, true);
  const shifted = g.node('Add', [inner, g.node('Unsqueeze', [before, g.int64s([2])])]);
  const flat = g.node('Reshape', [shifted, g.int64s([rows, p.blocks * BLOCK])]);
  if (p.blocks * BLOCK === n) return flat;
  return g.node('Slice', [flat, g.int64s([0]), g.int64s([n]), g.int64s([1])]);
}
