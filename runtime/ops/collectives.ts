// Collectives between chips: each is ONE primitive per chip (as StableHLO's all_reduce et al.):
// the node on chip c reads c's tensor and yields c's result, and the chips of a group meet on
// the interconnect when their programs reach it. `groups` lists the chip ids of every group
// (StableHLO's replica_groups, the same on every chip); `rank` is this chip's place in its
// group. Gradient rules are per chip and are themselves collectives: the backward pass runs
// them on every chip of the call together (autograd/backward.ts, collective groups).
// Reductions: 'sum', 'mean', 'max', 'min', 'product'; a bool tensor is reduced by 'max'
// (logical or) or 'min' (logical and).
import { formatShape, type Shape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { apply } from '../modes/dispatch.js';
import { defineOp, type OpDef } from './op.js';

export type CollectiveReduce = 'sum' | 'mean' | 'max' | 'min' | 'product';

export interface GroupAttrs {
  /** Chip ids of each group, in rank order. */
  readonly groups: readonly (readonly number[])[];
  /** This chip's position in its group. */
  readonly rank: number;
}

export interface AllReduceAttrs extends GroupAttrs { readonly reduce: CollectiveReduce }
export interface AllGatherAttrs extends GroupAttrs { readonly dim: number; readonly sizes: readonly number[] }
export interface ReduceScatterAttrs extends GroupAttrs { readonly reduce: CollectiveReduce; readonly dim: number; readonly sizes: readonly number[] }
export interface AllToAllAttrs extends GroupAttrs { readonly splitDim: number; readonly concatDim: number }
/** `pairs`: [source rank, target rank]; a rank no pair targets gets zeros (StableHLO's collective_permute). */
export interface PermuteAttrs extends GroupAttrs { readonly pairs: readonly (readonly [number, number])[] }
export interface BroadcastAttrs extends GroupAttrs { readonly src: number }

const withDim = (shape: Shape, dim: number, n: number): Shape => shape.map((m, i) => (i === dim ? n : m));
const groupSize = (a: GroupAttrs) => a.groups[0]!.length;

/**
 * The product of the other ranks' x, elementwise: d(x_0 · … · x_n-1)/dx_rank. Multiplied out
 * from every rank's x (gathered), not divided out of the product: exact where some x is 0.
 */
function othersProduct(x: Tensor, a: GroupAttrs): Tensor {
  const n = groupSize(a);
  const all = apply(allGatherPrimitive, [x.unsqueeze(0)], { groups: a.groups, rank: a.rank, dim: 0, sizes: new Array<number>(n).fill(1) });
  return all.narrow(0, 0, a.rank).prod(0).mul(all.narrow(0, a.rank + 1, n - a.rank - 1).prod(0));
}

export const allReducePrimitive: OpDef<AllReduceAttrs> = defineOp<AllReduceAttrs>({
  name: 'all_reduce',
  infer: ([x]) => ({ shape: x!.shape, dtype: x!.dtype }),
  grad: (g, [x], out, a) => {
    if (a.reduce === 'sum' || a.reduce === 'mean') return [apply(allReducePrimitive, [g], a)];
    const summed = apply(allReducePrimitive, [g], { ...a, reduce: 'sum' });
    if (a.reduce === 'product') return [summed.mul(othersProduct(x as Tensor, a))];
    // max/min: the gradient of every chip's result flows to the chips holding the extreme.
    return [summed.mul((x as Tensor).eq(out).to(g.dtype))];
  },
});

export const allGatherPrimitive: OpDef<AllGatherAttrs> = defineOp<AllGatherAttrs>({
  name: 'all_gather',
  infer: ([x], a) => {
    if (x!.shape[a.dim] !== a.sizes[a.rank]) throw new RangeError(`all_gather: the shard of rank ${a.rank} has shape ${formatShape(x!.shape)}; expected ${a.sizes[a.rank]} along dim ${a.dim}`);
    return { shape: withDim(x!.shape, a.dim, a.sizes.reduce((s, n) => s + n, 0)), dtype: x!.dtype };
  },
  grad: (g, _x, _out, a) => [apply(reduceScatterPrimitive, [g], { groups: a.groups, rank: a.rank, reduce: 'sum', dim: a.dim, sizes: a.sizes })],
});

export const reduceScatterPrimitive: OpDef<ReduceScatterAttrs> = defineOp<ReduceScatterAttrs>({
  name: 'reduce_scatter',
  infer: ([x], a) => {
    const total = a.sizes.reduce((s, n) => s + n, 0);
    if (x!.shape[a.dim] !== total) throw new RangeError(`reduce_scatter: input has shape ${formatShape(x!.shape)}; expected ${total} along dim ${a.dim}`);
    return { shape: withDim(x!.shape, a.dim, a.sizes[a.rank]!), dtype: x!.dtype };
  },
  grad: (g, [x], out, a) => {
    const gather = (t: Tensor): Tensor => apply(allGatherPrimitive, [t], { groups: a.groups, rank: a.rank, dim: a.dim, sizes: a.sizes });
    if (a.reduce === 'sum') return [gather(g)];
    if (a.reduce === 'mean') return [gather(g).div(groupSize(a))];
    if (a.reduce === 'product') return [gather(g).mul(othersProduct(x as Tensor, a))];
    return [gather(g).mul((x as Tensor).eq(gather(out)).to(g.dtype))];
  },
});

export const allToAllPrimitive: OpDef<AllToAllAttrs> = defineOp<AllToAllAttrs>({
  name: 'all_to_all',
  infer: ([x], a) => {
    const n = groupSize(a);
    const m = x!.shape[a.splitDim]!;
    if (m % n !== 0) throw new RangeError(`all_to_all: split dim ${a.splitDim} has size ${m}, not divisible by the group size ${n}`);
    const split = withDim(x!.shape, a.splitDim, m / n);
    return { shape: withDim(split, a.concatDim, split[a.concatDim]! * n), dtype: x!.dtype };
  },
  grad: (g, _x, _out, a) => [apply(allToAllPrimitive, [g], { ...a, splitDim: a.concatDim, concatDim: a.splitDim })],
});

export const permutePrimitive: OpDef<PermuteAttrs> = defineOp<PermuteAttrs>({
  name: 'collective_permute',
  infer: ([x]) => ({ shape: x!.shape, dtype: x!.dtype }),
  grad: (g, _x, _out, a) => [apply(permutePrimitive, [g], { ...a, pairs: a.pairs.map(([s, t]) => [t, s] as const) })],
});

export const broadcastPrimitive: OpDef<BroadcastAttrs> = defineOp<BroadcastAttrs>({
  name: 'collective_broadcast',
  infer: ([x]) => ({ shape: x!.shape, dtype: x!.dtype }),
  // Every chip takes part in the sum; only the source's input had an effect.
  grad: (g, _x, _out, a) => {
    const summed = apply(allReducePrimitive, [g], { groups: a.groups, rank: a.rank, reduce: 'sum' });
    return [a.rank === a.src ? summed : summed.mul(0)];
  },
});
