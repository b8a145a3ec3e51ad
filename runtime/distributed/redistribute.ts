// Moving a DTensor's pieces from one set of placements to another, one mesh dimension at a
// time, with the functional collectives along that dimension's axis:
//   Shard(d) -> Replicate: allGather on d        Partial -> Replicate: allReduce
//   Replicate -> Shard(e): each chip's slice      Partial -> Shard(e): reduceScatter on e
//   Shard(d) -> Shard(e): allToAll (even pieces, no other mesh dim on d or e), else gather + slice
//   Replicate -> Partial: 'sum' parts are x / n, _NormPartial(p) parts x / n^(1/p), 'product' an
//     error (no exact parts, as in PyTorch), other parts are x
//   _NormPartial(p) is reduced as PyTorch's: parts^p, then the sum's collective, then ^(1/p)
// A Shard on a later mesh dimension splits what the earlier ones left, so a chunk is only
// meaningful inside the earlier ones' chunks: first every Shard that changes, or whose dim an
// earlier mesh dimension re-splits, is gathered (last mesh dimension first); then the targets
// are applied first mesh dimension first.
import type { Tensor } from '../tensor.js';
import { isFloating } from '../dtype.js';
import type { DeviceMesh } from './device-mesh.js';
import { allGather, allReduce, allToAll, reduceScatter } from './functional-collectives.js';
import { partitionDivisor, Replicate, samePlacement, type Placement } from './placement.js';
import { chunkOf, meshCoordinate } from './shard-layout.js';

export function redistributeLocals(locals: readonly Tensor[], mesh: DeviceMesh, from: readonly Placement[], to: readonly Placement[]): Tensor[] {
  let xs = [...locals];
  const cur = [...from];
  const changes = (i: number) => !samePlacement(from[i]!, to[i]!);
  const shardsDim = (p: Placement, d: number) => p.kind === 'shard' && p.dim === d;
  /** Does any mesh dimension other than `i` shard tensor dim d, before or after? */
  const otherShards = (i: number, d: number) => from.some((p, j) => j !== i && (shardsDim(p, d) || shardsDim(to[j]!, d)));
  for (let i = mesh.ndim - 1; i >= 0; i--) {
    const p = cur[i]!;
    if (p.kind !== 'shard') continue;
    const resplit = from.some((_, j) => j < i && changes(j) && (shardsDim(from[j]!, p.dim) || shardsDim(to[j]!, p.dim)));
    if (!changes(i) && !resplit) continue;
    const t = to[i]!;
    const axis = mesh.names[i]!;
    const n = mesh.shape[i]!;
    if (t.kind === 'shard' && !resplit && !otherShards(i, p.dim) && !otherShards(i, t.dim) && evenPieces(xs, t.dim, n)) {
      xs = allToAll(xs, { splitDim: t.dim, concatDim: p.dim, mesh, axis });
      cur[i] = t;
    } else {
      xs = allGather(xs, { dim: p.dim, mesh, axis });
      cur[i] = Replicate();
    }
  }
  for (let i = 0; i < mesh.ndim; i++) {
    const p = cur[i]!;
    const t = to[i]!;
    if (samePlacement(p, t)) continue;
    const axis = mesh.names[i]!;
    const n = mesh.shape[i]!;
    if (p.kind === 'partial') {
      const norm = p.reduceOp === 'norm' ? p.normType : null;
      const op = p.reduceOp === 'norm' ? 'sum' : p.reduceOp;
      if (norm !== null) xs = xs.map((x) => x.pow(norm));
      xs = t.kind === 'shard' ? reduceScatter(xs, { op, dim: t.dim, mesh, axis }) : allReduce(xs, { op, mesh, axis });
      if (norm !== null) xs = xs.map((x) => x.pow(1 / norm));
      if (t.kind === 'shard') continue;
    }
    if (t.kind === 'shard') {
      xs = xs.map((x, k) => {
        const c = chunkOf(x.shape[t.dim]!, n, meshCoordinate(mesh, k)[i]!);
        return x.narrow(t.dim, c.start, c.length);
      });
    }
    const divisor = partitionDivisor('DTensor.redistribute', t, n);
    if (divisor !== 1) {
      if (!isFloating(xs[0]!.dtype)) throw new TypeError(`DTensor.redistribute: ${t} parts of a ${xs[0]!.dtype} tensor would be x / ${divisor}; give a floating tensor`);
      xs = xs.map((x) => x.div(divisor));
    }
  }
  return xs;
}

/** Every chip's piece has the same shape and splits evenly along `dim` (what allToAll needs). */
function evenPieces(xs: readonly Tensor[], dim: number, n: number): boolean {
  return xs.every((x) => x.shape.join() === xs[0]!.shape.join()) && xs[0]!.shape[dim]! % n === 0;
}
