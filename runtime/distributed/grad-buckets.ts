// Gradients all-reduced in buckets (PyTorch's DDP reducer): each bucket's gradients are
// flattened and joined per chip, one all-reduce per bucket, then split back. DDP runs it over
// its replicas; HSDP over its shards across the replica groups, whose lengths may differ
// from one shard index to the next (uneven torch.chunk shards): those are padded with zeros
// to the longest, since a collective needs one shape on every chip.
import type { Tensor } from '../tensor.js';
import { zeros } from '../creation.js';
import { concat, split } from '../ops/concat.js';
import { numel } from '../shape.js';
import { ITEMSIZE } from '../dtype.js';
import type { DeviceMesh } from './device-mesh.js';
import { allReduce } from './functional-collectives.js';

/** Parameter indices grouped in reverse order (the order backward produces them) into buckets of at most `capBytes` (a bigger one alone). */
export function bucketsOf(params: readonly Tensor[], capBytes: number): number[][] {
  const buckets: number[][] = [];
  let bytes = Infinity;
  for (let i = params.length - 1; i >= 0; i--) {
    const b = numel(params[i]!.shape) * ITEMSIZE[params[i]!.dtype];
    if (bytes + b > capBytes) {
      buckets.push([]);
      bytes = 0;
    }
    buckets.at(-1)!.push(i);
    bytes += b;
  }
  return buckets;
}

/**
 * Sums `grads` of the leaves over the groups of `mesh` along `axis` (the mesh's own when
 * undefined). `leaves[k][i]` is chip k's leaf of parameter i (mesh.chips order); each bucket
 * lists parameter indices. Replaces the entries of `grads` with the sums.
 */
export function allReduceGradBuckets(mesh: DeviceMesh, axis: string | undefined, leaves: readonly (readonly Tensor[])[], buckets: readonly number[][], grads: Map<Tensor, Tensor>): void {
  for (const bucket of buckets) {
    const members = bucket.filter((i) => leaves.some((chip) => grads.has(chip[i]!)));
    if (members.length === 0) continue;
    // A parameter a chip did not use gets zeros there (its peers still meet it in the all-reduce).
    const flat = leaves.map((chip) => concat(members.map((i) => {
      const p = chip[i]!;
      return (grads.get(p) ?? zeros([...p.shape], { dtype: p.dtype, chip: p.chip })).reshape([-1]);
    }), 0));
    const lengths = flat.map((f) => f.shape[0]!);
    const longest = Math.max(...lengths);
    const padded = flat.map((f, k) => (lengths[k] === longest ? f : concat([f, zeros([longest - lengths[k]!], { dtype: f.dtype, chip: f.chip })], 0)));
    const sums = allReduce(padded, { mesh, op: 'sum', ...(axis === undefined ? {} : { axis }) });
    leaves.forEach((chip, k) => {
      const sizes = members.map((i) => numel(chip[i]!.shape));
      const sum = lengths[k] === longest ? sums[k]! : sums[k]!.narrow(0, 0, lengths[k]!);
      split(sum, sizes).forEach((g, j) => {
        const p = chip[members[j]!]!;
        grads.get(p)?.dispose();
        grads.set(p, g.reshape([...p.shape]));
      });
    });
  }
}
