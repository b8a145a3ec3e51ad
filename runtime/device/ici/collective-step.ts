// One collective of a chip's program, run by its device thread on the values' host copies:
// the chips of the group exchange over the interconnect (links.ts) and each computes its own
// result. Reductions combine the ranks in rank order on every chip, so all chips get the same
// bits; float32 sums and products accumulate in float32, bfloat16 in float32 rounded once (as
// the TPU does); int32 and int64 wrap. A bool tensor comes as 'max' (or) or 'min' (and).
import { allocStorage, narrowToBf16, widenBf16, type DType, type StorageArray } from '../../dtype.js';
import { numel, type Shape } from '../../shape.js';
import type { ProgramNode } from '../../program/program.js';
import { Failed, type IciLinks, type Payload } from './links.js';
import type { FailureRoot } from '../protocol.js';
import type { CollectiveReduce } from '../../ops/collectives.js';

interface Group { readonly groups: readonly (readonly number[])[]; readonly rank: number }

/** The chip ids of this chip's group. */
function groupOf(a: Group, chip: number): readonly number[] {
  const g = a.groups.find((ids) => ids.includes(chip));
  if (!g || g[a.rank] !== chip) throw new Error(`collective: chip ${chip} is not rank ${a.rank} of any group of ${JSON.stringify(a.groups)}`);
  return g;
}

type Computed = Float32Array | Int32Array | BigInt64Array | Uint8Array;

/** Values in their compute type (bfloat16 widened) for arithmetic; back to storage after. */
const toCompute = (dtype: DType, s: StorageArray): Computed =>
  dtype === 'bfloat16' ? widenBf16(s as Uint16Array) : (s as Computed);
const toStorage = (dtype: DType, c: Computed): StorageArray =>
  dtype === 'bfloat16' ? narrowToBf16(c as Float32Array) : c;

function reduceInto(acc: Computed, x: Computed, reduce: CollectiveReduce): void {
  const n = acc.length;
  if (reduce === 'sum' || reduce === 'mean') {
    if (acc instanceof Int32Array) for (let i = 0; i < n; i++) acc[i] = (acc[i]! + (x[i] as number)) | 0;
    // a BigInt64Array stores each sum (and product) modulo 2^64: int64's wraparound
    else if (acc instanceof BigInt64Array) for (let i = 0; i < n; i++) acc[i] = acc[i]! + (x[i] as bigint);
    else for (let i = 0; i < n; i++) acc[i] = (acc[i] as number) + (x[i] as number);
  } else if (reduce === 'product') {
    if (acc instanceof Int32Array) for (let i = 0; i < n; i++) acc[i] = Math.imul(acc[i]!, x[i] as number);
    else if (acc instanceof BigInt64Array) for (let i = 0; i < n; i++) acc[i] = acc[i]! * (x[i] as bigint);
    // a Float32Array (float32, widened bfloat16) rounds each product to float32
    else for (let i = 0; i < n; i++) acc[i] = (acc[i] as number) * (x[i] as number);
  } else if (reduce === 'max') {
    // NaN propagates, as torch.max.
    for (let i = 0; i < n; i++) if (x[i]! > acc[i]! || Number.isNaN(x[i]!)) acc[i] = x[i]!;
  } else {
    for (let i = 0; i < n; i++) if (x[i]! < acc[i]! || Number.isNaN(x[i]!)) acc[i] = x[i]!;
  }
}

/** The parts in rank order combined; `mean` divides by their count. */
function combine(dtype: DType, parts: readonly StorageArray[], reduce: CollectiveReduce): StorageArray {
  const acc = toCompute(dtype, parts[0]!).slice();
  for (let k = 1; k < parts.length; k++) reduceInto(acc, toCompute(dtype, parts[k]!), reduce);
  if (reduce === 'mean') {
    // integer means truncate toward zero, as an integer division
    if (acc instanceof BigInt64Array) for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / BigInt(parts.length);
    else for (let i = 0; i < acc.length; i++) acc[i] = (acc[i] as number) / parts.length;
  }
  return toStorage(dtype, acc);
}

/** Rows [start, start + size) of `dim`. */
function sliceDim(data: StorageArray, shape: Shape, dim: number, start: number, size: number): StorageArray {
  const inner = numel(shape.slice(dim + 1));
  const outer = numel(shape.slice(0, dim));
  const m = shape[dim]!;
  const out = new (data.constructor as new (n: number) => StorageArray)(outer * size * inner);
  // `out` has data's element type (its constructor): the cast only tells TypeScript so.
  for (let o = 0; o < outer; o++) out.set(data.subarray((o * m + start) * inner, (o * m + start + size) * inner) as never, o * size * inner);
  return out;
}

/** Parts of shapes equal but along `dim` (sizes[k]), joined along it. */
function concatDim(dtype: DType, parts: readonly StorageArray[], shape: Shape, dim: number, sizes: readonly number[]): StorageArray {
  const inner = numel(shape.slice(dim + 1));
  const outer = numel(shape.slice(0, dim));
  const total = sizes.reduce((a, b) => a + b, 0);
  const out = allocStorage(dtype, outer * total * inner);
  for (let o = 0; o < outer; o++) {
    let at = 0;
    parts.forEach((p, k) => {
      const rows = sizes[k]! * inner;
      out.set(p.subarray(o * rows, (o + 1) * rows) as never, (o * total + at) * inner); // same dtype as out
      at += sizes[k]!;
    });
  }
  return out;
}

/**
 * Sends `mine(peer)` to every other chip of the group, then collects what each sent, in rank
 * order (own part: `own`); throws once all arrived if any chip (this one too) had failed.
 */
function exchange(links: IciLinks | null, group: readonly number[], rank: number, mine: (k: number) => Payload, own: Payload, what: string): StorageArray[] {
  group.forEach((peer, k) => {
    if (k !== rank) link(links, peer).send(peer, mine(k));
  });
  let timedOut: unknown = null;
  const parts = group.map((peer, k) => {
    if (k === rank) return own;
    // After a peer that never came, the others' parts are not waited for: each is counted as
    // received, so a late one is dropped and the links stay in step.
    if (timedOut) return void links!.giveUp(peer);
    try {
      return link(links, peer).receive(peer, what);
    } catch (e) {
      timedOut = e;
    }
  });
  if (timedOut) throw timedOut;
  return checked(parts as Payload[], what);
}

/** A collective that could not run: a chip of its group (maybe this one) had failed before it. */
export class CollectiveNotRun extends Error {
  constructor(what: string, readonly root: FailureRoot, readonly reason: string) {
    super(`${what}: not run, an earlier error on chip ${root.chip}: ${reason}`);
  }
}

function checked(parts: readonly Payload[], what: string): StorageArray[] {
  const failed = parts.find((p) => p instanceof Failed) as Failed | undefined;
  if (failed) throw new CollectiveNotRun(what, failed.root, failed.message);
  return parts as StorageArray[];
}

/** The links to a peer; a session of one chip has none (its groups hold only itself). */
function link(links: IciLinks | null, peer: number): IciLinks {
  if (!links) throw new Error(`collective: chip ${peer} is not part of this session (it has one chip: TPU_KERNEL_CHIPS or tpu.setDevice({ chips }))`);
  return links;
}

/**
 * Runs collective `node` on chip `chip`'s input `x` (of shape `shape`); returns this chip's
 * result. `x` a Failed: this chip takes part with its reason, and throws.
 */
export function runCollective(node: ProgramNode, x: Payload, shape: Shape, chip: number, links: IciLinks | null): StorageArray {
  const a = node.attrs as Group & Record<string, any>;
  const group = groupOf(a, chip);
  const rank = a.rank;
  const what = node.op;
  const dtype = node.dtype;
  switch (node.op) {
    case 'all_reduce':
      return combine(dtype, exchange(links, group, rank, () => x, x, what), a.reduce);
    case 'all_gather':
      return concatDim(dtype, exchange(links, group, rank, () => x, x, what), shape, a.dim, a.sizes);
    case 'reduce_scatter': {
      const starts = a.sizes.map((_: number, k: number) => a.sizes.slice(0, k).reduce((s: number, n: number) => s + n, 0));
      const chunk = (k: number) => (x instanceof Failed ? x : sliceDim(x, shape, a.dim, starts[k], a.sizes[k]));
      return combine(dtype, exchange(links, group, rank, chunk, chunk(rank), what), a.reduce);
    }
    case 'all_to_all': {
      const n = group.length;
      const size = shape[a.splitDim]! / n;
      const chunk = (k: number) => (x instanceof Failed ? x : sliceDim(x, shape, a.splitDim, k * size, size));
      const chunkShape = shape.map((m, i) => (i === a.splitDim ? size : m));
      const parts = exchange(links, group, rank, chunk, chunk(rank), what);
      return concatDim(dtype, parts, chunkShape, a.concatDim, parts.map(() => chunkShape[a.concatDim]!));
    }
    case 'collective_permute': {
      const pairs = a.pairs as [number, number][];
      for (const [s, t] of pairs) if (s === rank && t !== rank) link(links, group[t]!).send(group[t]!, x);
      const from = pairs.find(([, t]) => t === rank);
      const got = !from ? allocStorage(dtype, numel(shape)) : from[0] === rank ? x : link(links, group[from[0]]!).receive(group[from[0]]!, what);
      return checked([got, x], what)[0]!.slice();
    }
    case 'collective_broadcast': {
      if (rank === a.src) group.forEach((peer, k) => k !== rank && link(links, peer).send(peer, x));
      const got = rank === a.src ? x : link(links, group[a.src]!).receive(group[a.src]!, what);
      return checked([got, x], what)[0]!.slice();
    }
    default:
      throw new Error(`collective: unknown primitive '${node.op}'`);
  }
}
