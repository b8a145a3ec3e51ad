// Collectives as StableHLO's own ops, for the per-chip program compiled SPMD (one partition per
// chip, partition ids = chip ids): replica_groups list every group's chips, channel handles are
// distinct per collective and device ids global. Uneven shards (torch.chunk sizes) are padded
// to the largest around the op and cut back after. bf16 sums and products accumulate in f32,
// rounded once. XLA:TPU all-reduces 64-bit integers only by a sum ("Supported lowering only of
// Sum all reduce"): an int64 product, max or min gathers every rank's value instead and reduces
// it on each chip, in rank order.
import type {
  AllGatherAttrs, AllReduceAttrs, AllToAllAttrs, BroadcastAttrs, CollectiveReduce, GroupAttrs, PermuteAttrs, ReduceScatterAttrs,
} from '../../../ops/collectives.js';
import type { MlirFunction, TensorType } from '../mlir-function.js';
import { convert, reduce as reduceDims, reshape, same, splat } from './hlo.js';
import { extremeOf } from './reduce.js';
import { stablehloLowerings } from './table.js';

const channels = new WeakMap<MlirFunction, number>();
function channel(fn: MlirFunction): string {
  const id = (channels.get(fn) ?? 0) + 1;
  channels.set(fn, id);
  return `channel_handle = #stablehlo.channel_handle<handle = ${id}, type = 1>`;
}

function groupsAttr({ groups }: GroupAttrs): string {
  return `replica_groups = dense<[${groups.map((g) => `[${g.join(', ')}]`).join(', ')}]> : tensor<${groups.length}x${groups[0]!.length}xi64>`;
}

/** The op combining two values of `element` (a bool's max is or, its min and). */
function combining(element: TensorType['element'], reduce: CollectiveReduce): string {
  const bool = element === 'i1';
  return { sum: 'add', mean: 'add', product: 'multiply', max: bool ? 'or' : 'maximum', min: bool ? 'and' : 'minimum' }[reduce];
}

/** The combining region of a reduction over 0-d values of `element`. */
function combiner(fn: MlirFunction, element: TensorType['element'], reduce: CollectiveReduce): string {
  const scalar: TensorType = { shape: [], element };
  return fn.region([scalar, scalar], ([a, b]) => [fn.op(`stablehlo.${combining(element, reduce)}`, [a!, b!], scalar)]);
}

/** Whether XLA:TPU has no all-reduce for it: an int64 reduction other than a sum. */
function gathersInstead(element: TensorType['element'], reduce: CollectiveReduce): reduce is 'product' | 'max' | 'min' {
  return element === 'i64' && reduce !== 'sum' && reduce !== 'mean';
}

/** Every rank's v gathered along a new leading dim, then reduced over it on this chip. */
function gatheredReduction(fn: MlirFunction, v: string, a: GroupAttrs, reduce: 'product' | 'max' | 'min'): string {
  const t = fn.typeOf(v);
  const n = a.groups[0]!.length;
  const all = fn.op('stablehlo.all_gather', [reshape(fn, v, [1, ...t.shape])], { shape: [n, ...t.shape], element: t.element }, [
    'all_gather_dim = 0 : i64', groupsAttr(a), channel(fn), 'use_global_device_ids',
  ]);
  const identity = reduce === 'product' ? 1 : extremeOf(reduce === 'max' ? 'maximum' : 'minimum', 'int64');
  return reduceDims(fn, [all], [splat(fn, identity, [], t.element)], [0], ([acc], [x]) => [same(fn, combining(t.element, reduce), acc!, x!)])[0]!;
}

/** Runs `body` on v in the type a reduction accumulates in (f32 for bf16), back to v's type after. */
function accumulating(fn: MlirFunction, v: string, body: (w: string) => string): string {
  if (fn.typeOf(v).element !== 'bf16') return body(v);
  return convert(fn, body(convert(fn, v, 'float32')), 'bfloat16');
}

function sliceDim(fn: MlirFunction, v: string, dim: number, start: number, size: number): string {
  const t = fn.typeOf(v);
  const limit = t.shape.map((n, d) => (d === dim ? start + size : n));
  const begin = t.shape.map((_, d) => (d === dim ? start : 0));
  return fn.op('stablehlo.slice', [v], { shape: t.shape.map((n, d) => (d === dim ? size : n)), element: t.element }, [
    `start_indices = array<i64: ${begin.join(', ')}>`, `limit_indices = array<i64: ${limit.join(', ')}>`, `strides = array<i64: ${t.shape.map(() => 1).join(', ')}>`,
  ]);
}

function padDim(fn: MlirFunction, v: string, dim: number, to: number): string {
  const t = fn.typeOf(v);
  const extra = to - t.shape[dim]!;
  if (extra === 0) return v;
  const zeros = t.shape.map(() => 0);
  const high = t.shape.map((_, d) => (d === dim ? extra : 0));
  return fn.op('stablehlo.pad', [v, splat(fn, 0, [], t.element)], { shape: t.shape.map((n, d) => (d === dim ? to : n)), element: t.element }, [
    `edge_padding_low = array<i64: ${zeros.join(', ')}>`, `edge_padding_high = array<i64: ${high.join(', ')}>`, `interior_padding = array<i64: ${zeros.join(', ')}>`,
  ]);
}

function concatDim(fn: MlirFunction, parts: readonly string[], dim: number): string {
  if (parts.length === 1) return parts[0]!;
  const t = fn.typeOf(parts[0]!);
  const size = parts.reduce((s, p) => s + fn.typeOf(p).shape[dim]!, 0);
  return fn.op('stablehlo.concatenate', [...parts], { shape: t.shape.map((n, d) => (d === dim ? size : n)), element: t.element }, [`dimension = ${dim} : i64`]);
}

function allReduce(fn: MlirFunction, x: string, a: GroupAttrs, reduce: CollectiveReduce): string {
  if (gathersInstead(fn.typeOf(x).element, reduce)) return gatheredReduction(fn, x, a, reduce);
  return accumulating(fn, x, (v) => {
    const t = fn.typeOf(v);
    const sum = fn.op('stablehlo.all_reduce', [v], t, [groupsAttr(a), channel(fn), 'use_global_device_ids'], [combiner(fn, t.element, reduce)]);
    return reduce === 'mean' ? same(fn, 'divide', sum, splat(fn, a.groups[0]!.length, t.shape, t.element)) : sum;
  });
}

stablehloLowerings.register({
  all_reduce: ({ fn }, [x], a: AllReduceAttrs) => allReduce(fn, x!, a, a.reduce),
  all_gather({ fn }, [x], a: AllGatherAttrs) {
    const most = Math.max(...a.sizes);
    const padded = padDim(fn, x!, a.dim, most);
    const t = fn.typeOf(padded);
    const gathered = fn.op('stablehlo.all_gather', [padded], { shape: t.shape.map((n, d) => (d === a.dim ? n * a.sizes.length : n)), element: t.element }, [
      `all_gather_dim = ${a.dim} : i64`, groupsAttr(a), channel(fn), 'use_global_device_ids',
    ]);
    if (a.sizes.every((n) => n === most)) return gathered;
    const pieces = a.sizes.flatMap((n, k) => (n > 0 ? [sliceDim(fn, gathered, a.dim, k * most, n)] : []));
    return concatDim(fn, pieces, a.dim);
  },
  reduce_scatter({ fn }, [x], a: ReduceScatterAttrs) {
    const most = Math.max(...a.sizes);
    const n = a.sizes.length;
    const reduce = a.reduce;
    if (gathersInstead(fn.typeOf(x!).element, reduce)) {
      const start = a.sizes.slice(0, a.rank).reduce((s, m) => s + m, 0);
      return sliceDim(fn, gatheredReduction(fn, x!, a, reduce), a.dim, start, a.sizes[a.rank]!);
    }
    return accumulating(fn, x!, (v) => {
      // Each rank's chunk padded to the largest, so the op's even split gives every rank its chunk.
      const t = fn.typeOf(v);
      const padded = (size: number, at: number) =>
        padDim(fn, size > 0 ? sliceDim(fn, v, a.dim, at, size) : splat(fn, 0, t.shape.map((m, d) => (d === a.dim ? 0 : m)), t.element), a.dim, most);
      const starts = a.sizes.map((_, k) => a.sizes.slice(0, k).reduce((s, m) => s + m, 0));
      const input = a.sizes.every((s) => s === most) ? v : concatDim(fn, a.sizes.map((size, k) => padded(size, starts[k]!)), a.dim);
      const it = fn.typeOf(input);
      const scattered = fn.op('stablehlo.reduce_scatter', [input], { shape: it.shape.map((m, d) => (d === a.dim ? most : m)), element: it.element }, [
        `scatter_dimension = ${a.dim} : i64`, groupsAttr(a), channel(fn), 'use_global_device_ids',
      ], [combiner(fn, it.element, a.reduce === 'mean' ? 'sum' : a.reduce)]);
      const mine = a.sizes[a.rank] === most ? scattered : sliceDim(fn, scattered, a.dim, 0, a.sizes[a.rank]!);
      return a.reduce === 'mean' ? same(fn, 'divide', mine, splat(fn, n, fn.typeOf(mine).shape, it.element)) : mine;
    });
  },
  // Groups of one chip: nothing moves (XLA:TPU takes these two ops only in SPMD programs).
  all_to_all: ({ fn }, [x], a: AllToAllAttrs, types) => a.groups[0]!.length === 1 ? x! :
    fn.op('stablehlo.all_to_all', [x!], { shape: types.output.shape, element: fn.typeOf(x!).element }, [
      `split_dimension = ${a.splitDim} : i64`, `concat_dimension = ${a.concatDim} : i64`, `split_count = ${a.groups[0]!.length} : i64`, groupsAttr(a), channel(fn),
    ]),
  collective_permute({ fn }, [x], a: PermuteAttrs) {
    if (a.groups[0]!.length === 1) return a.pairs.length ? x! : splat(fn, 0, fn.typeOf(x!).shape, fn.typeOf(x!).element);
    const pairs = a.groups.flatMap((g) => a.pairs.map(([s, t]) => [g[s]!, g[t]!]));
    return fn.op('stablehlo.collective_permute', [x!], fn.typeOf(x!), [
      `source_target_pairs = dense<[${pairs.map(([s, t]) => `[${s}, ${t}]`).join(', ')}]> : tensor<${pairs.length}x2xi64>`, channel(fn),
    ]);
  },
  // The source's value reaches every chip of its group as a sum with zeros from the others.
  collective_broadcast({ fn }, [x], a: BroadcastAttrs, types) {
    const v = types.output.dtype === 'bool' ? convert(fn, x!, 'int32') : x!;
    const t = fn.typeOf(v);
    const summed = allReduce(fn, a.rank === a.src ? v : splat(fn, 0, t.shape, t.element), a, 'sum');
    return convert(fn, summed, types.output.dtype);
  },
});
