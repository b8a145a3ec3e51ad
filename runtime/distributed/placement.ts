// Placements (PyTorch DTensor's vocabulary): how a tensor lies along one mesh dimension.
// Shard(dim): split along tensor dim `dim` as torch.chunk, chip of coordinate c keeps chunk c;
// Replicate(): every chip holds it all; Partial(op): every chip holds a part, and the value is
// the reduction (op) of the parts over that mesh dimension.
import type { CollectiveReduce } from '../ops/collectives.js';

export type PartialReduce = CollectiveReduce;
const PARTIAL_OPS: readonly PartialReduce[] = ['sum', 'mean', 'max', 'min'];

export class ShardPlacement {
  readonly kind = 'shard';
  constructor(readonly dim: number) {}
  toString(): string {
    return `Shard(${this.dim})`;
  }
}

export class ReplicatePlacement {
  readonly kind = 'replicate';
  toString(): string {
    return 'Replicate()';
  }
}

export class PartialPlacement {
  readonly kind = 'partial';
  constructor(readonly reduceOp: PartialReduce) {}
  toString(): string {
    return `Partial('${this.reduceOp}')`;
  }
}

export type Placement = ShardPlacement | ReplicatePlacement | PartialPlacement;

/**
 * Split along tensor dim `dim` over one mesh dimension (torch.chunk sizes: 10 rows on 4 chips are 3, 3, 3, 1).
 * @example tpu.Shard(0).toString() // 'Shard(0)'
 */
export function Shard(dim: number): ShardPlacement {
  if (!Number.isInteger(dim)) throw new TypeError(`tpu.Shard: dim must be an integer; got ${JSON.stringify(dim)}`);
  return new ShardPlacement(dim);
}

/**
 * The whole tensor on every chip of one mesh dimension.
 * @example tpu.Replicate().toString() // 'Replicate()'
 */
export function Replicate(): ReplicatePlacement {
  return new ReplicatePlacement();
}

/**
 * A part on every chip of one mesh dimension; the value is their reduction ('sum' by default, 'mean', 'max', 'min').
 * @example tpu.Partial('sum').toString() // "Partial('sum')"
 */
export function Partial(reduceOp: PartialReduce = 'sum'): PartialPlacement {
  if (!PARTIAL_OPS.includes(reduceOp)) throw new RangeError(`tpu.Partial: reduceOp must be one of ${PARTIAL_OPS.map((x) => `'${x}'`).join(', ')}; got ${JSON.stringify(reduceOp)}`);
  return new PartialPlacement(reduceOp);
}

export function samePlacement(a: Placement, b: Placement): boolean {
  if (a.kind === 'shard') return b.kind === 'shard' && a.dim === b.dim;
  if (a.kind === 'partial') return b.kind === 'partial' && a.reduceOp === b.reduceOp;
  return b.kind === 'replicate';
}

export function isPlacement(p: unknown): p is Placement {
  return p instanceof ShardPlacement || p instanceof ReplicatePlacement || p instanceof PartialPlacement;
}

export function formatPlacements(ps: readonly Placement[]): string {
  return `[${ps.map(String).join(', ')}]`;
}
