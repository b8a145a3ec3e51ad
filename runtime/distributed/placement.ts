// Placements (PyTorch DTensor's vocabulary): how a tensor lies along one mesh dimension.
// Shard(dim): split along tensor dim `dim` as torch.chunk, chip of coordinate c keeps chunk c;
// Replicate(): every chip holds it all; Partial(op): every chip holds a part, and the value is
// the reduction (op) of the parts over that mesh dimension. DTensor.norm over a sharded dim
// makes PyTorch's _NormPartial(p): each chip holds its piece's p-norm, the value is (Σ parts^p)^(1/p).
// Of a bool DTensor (all, any), Partial('sum') is a logical or, Partial('product') a logical and.
import type { CollectiveReduce } from '../ops/collectives.js';
import { specialized } from '../jit/live-number.js';

export type PartialReduce = CollectiveReduce;
const PARTIAL_OPS: readonly PartialReduce[] = ['sum', 'mean', 'max', 'min', 'product'];

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

/** PyTorch's _NormPartial(p) (made by DTensor.norm, not by tpu.Partial): the parts are p-norms; the value is (Σ parts^p)^(1/p). */
export class NormPartialPlacement {
  readonly kind = 'partial';
  readonly reduceOp = 'norm';
  constructor(readonly normType: number) {}
  toString(): string {
    return `_NormPartial(${this.normType})`;
  }
}

export type Placement = ShardPlacement | ReplicatePlacement | PartialPlacement | NormPartialPlacement;

/**
 * Split along tensor dim `dim` over one mesh dimension (torch.chunk sizes: 10 rows on 4 chips are 3, 3, 3, 1).
 * @example tpu.Shard(0).toString() // 'Shard(0)'
 */
export function Shard(dim: number): ShardPlacement {
  dim = specialized(dim); // a tpu.compile number argument: its value, the trace specialized on it
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
 * A part on every chip of one mesh dimension; the value is their reduction ('sum' by default, 'mean', 'max', 'min', 'product').
 * @example tpu.Partial('sum').toString() // "Partial('sum')"
 */
export function Partial(reduceOp: PartialReduce = 'sum'): PartialPlacement {
  if (!PARTIAL_OPS.includes(reduceOp)) throw new RangeError(`tpu.Partial: reduceOp must be one of ${PARTIAL_OPS.map((x) => `'${x}'`).join(', ')}; got ${JSON.stringify(reduceOp)}`);
  return new PartialPlacement(reduceOp);
}

export function samePlacement(a: Placement, b: Placement): boolean {
  if (a.kind === 'shard') return b.kind === 'shard' && a.dim === b.dim;
  if (a.kind === 'partial') return b.kind === 'partial' && a.reduceOp === b.reduceOp && normTypeOf(a) === normTypeOf(b);
  return b.kind === 'replicate';
}

const normTypeOf = (p: PartialPlacement | NormPartialPlacement) => (p.reduceOp === 'norm' ? p.normType : null);

/**
 * What a value is divided by to give n parts of it along a Partial mesh dim (PyTorch's
 * _partition_value): n for a sum, n^(1/p) for a p-norm; max, min and mean parts are the value.
 * No division gives a product's parts (PyTorch refuses them too).
 */
export function partitionDivisor(who: string, p: Placement, n: number): number {
  if (p.kind !== 'partial') return 1;
  if (p.reduceOp === 'product') {
    throw new RangeError(`${who}: a whole value cannot be split into ${p} parts (as in PyTorch: no n-th root gives them exactly); make the parts yourself with tpu.DTensor.fromLocal`);
  }
  return p.reduceOp === 'sum' ? n : p.reduceOp === 'norm' ? n ** (1 / p.normType) : 1;
}

export function isPlacement(p: unknown): p is Placement {
  return p instanceof ShardPlacement || p instanceof ReplicatePlacement || p instanceof PartialPlacement || p instanceof NormPartialPlacement;
}

export function formatPlacements(ps: readonly Placement[]): string {
  return `[${ps.map(String).join(', ')}]`;
}
