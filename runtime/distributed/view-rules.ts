// DTensor's view ops without a gather where PyTorch's view sharding propagation
// (torch/distributed/tensor/_ops/_view_ops.py) keeps a Shard: reshape and view map each group of
// input dims to the output dims it becomes, and a sharded dim stays sharded when its group is
//   one dim to one dim (kept, moved to its new index: unsqueeze, squeeze of another dim),
//   several dims flattened into one, the sharded one first and divisible by the chips along it,
//   one dim split into several, the first of them divisible by the chips along it;
// otherwise that shard is gathered first (PyTorch replicates it too, or keeps a _StridedShard,
// which this runtime has not: a gather here gives the same values). narrow (and select, which is
// narrow then squeeze) keeps every shard but the narrowed dim's, as PyTorch's slice rule.
// flatten, unflatten, squeeze, unsqueeze and select are Tensor's own methods over these.
import type { Tensor } from '../tensor.js';
import { normalizeDim } from '../shape.js';
import { numberValue } from '../jit/live-number.js';
import type { DTensor } from './dtensor.js';
import { Replicate, Shard, type Placement } from './placement.js';
import { laidOut, perChip } from './sharding-rules.js';

/** Input dims `ins` become output dims `outs` (either may be empty: a size-1 dim dropped or added). */
interface DimGroup { ins: number[]; outs: number[] }

/** reshape's groups, null when there are none to follow (an empty tensor). */
function dimGroups(from: readonly number[], to: readonly number[]): DimGroup[] | null {
  if (from.includes(0) || to.includes(0)) return null;
  const groups: DimGroup[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    // a size-1 dim without a size-1 partner is a group of its own: added or dropped
    if (j < to.length && to[j] === 1 && from[i] !== 1) groups.push({ ins: [], outs: [j++] });
    else if (i < from.length && from[i] === 1 && to[j] !== 1) groups.push({ ins: [i++], outs: [] });
    else {
      const g: DimGroup = { ins: [i], outs: [j] };
      let a = from[i++]!;
      let b = to[j++]!;
      while (a !== b) {
        if (a < b) {
          g.ins.push(i);
          a *= from[i++]!;
        } else {
          g.outs.push(j);
          b *= to[j++]!;
        }
      }
      groups.push(g);
    }
  }
  return groups;
}

/** Whether mesh dim m's Shard(d) can stay sharded through group g (see the header). */
function keeps(x: DTensor, to: readonly number[], g: DimGroup, d: number, m: number): boolean {
  const chips = x.mesh.shape[m]!;
  if (g.ins.length === 1 && g.outs.length === 1) return true;
  // several shards in one merged or split group: their pieces would interleave
  const shardsInGroup = x.placements.filter((p) => p.kind === 'shard' && g.ins.includes(p.dim)).length;
  if (shardsInGroup !== 1 || g.outs.length === 0) return false;
  if (g.outs.length === 1) return g.ins[0] === d && x.shape[d]! % chips === 0;
  return g.ins.length === 1 && to[g.outs[0]!]! % chips === 0;
}

/** dt.reshape / dt.view to `to` (resolved: no -1). */
export function reshapeRule(x: DTensor, to: readonly number[]): DTensor {
  const groups = dimGroups(x.shape, to);
  const groupOf = (d: number) => groups?.find((g) => g.ins.includes(d));
  const ps: Placement[] = x.placements.map((p, m) => {
    if (p.kind !== 'shard') return p;
    const g = groupOf(p.dim);
    return g && keeps(x, to, g, p.dim, m) ? Shard(g.outs[0]!) : Replicate();
  });
  // the input with the shards that cannot stay gathered; the others' groups map the pieces' sizes
  const inPs = x.placements.map((p, m) => (p.kind === 'shard' && ps[m]!.kind !== 'shard' ? Replicate() : p));
  const sharded = new Set(inPs.flatMap((p) => (p.kind === 'shard' ? [p.dim] : [])));
  const localShape = (piece: readonly number[]): number[] => {
    if (groups === null) return [...to];
    const out = [...to];
    for (const g of groups) {
      const d = g.ins.find((i) => sharded.has(i));
      if (d === undefined) continue;
      const rest = g.outs.slice(1).reduce((n, o) => n * to[o]!, 1);
      const others = g.ins.filter((i) => i !== d).reduce((n, i) => n * x.shape[i]!, 1);
      // identity: the piece's size; flattened: times the other dims'; split: over the later outputs'
      out[g.outs[0]!] = (piece[d]! * others) / rest;
    }
    return out;
  };
  return perChip(() => [laidOut(x, inPs)], ([t]) => t!.reshape(localShape(t!.shape)), ps, to);
}

/** dt.narrow(dim, start, length): the narrowed dim gathered when sharded, the other shards kept. */
export function narrowRule(x: DTensor, dim: number, start: number, length: number): DTensor {
  const d = normalizeDim('DTensor.narrow', dim, x.ndim);
  const ps = x.placements.map((p) => (p.kind === 'shard' && p.dim === d ? Replicate() : p));
  const shape = x.shape.map((n, i) => (i === d ? (numberValue(length) as number) : n));
  return perChip(() => [laidOut(x, ps)], ([t]: Tensor[]) => t!.narrow(d, start, length), ps, shape);
}
