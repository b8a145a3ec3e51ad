// The gradient DTensor.fromLocal sends back to its locals (PyTorch's grad_placements). Backward
// runs every chip's ops exactly, so the seed reaching piece k is d(loss)/d(piece k); laid out
// per mesh dim as the global gradient G these seeds already are:
//   Shard(d): chunk k of G                          -> Shard(d)
//   Replicate: parts whose sum is G                 -> Partial('sum')
//   Partial('sum'): each part moves the value as G  -> Replicate
//   Partial('mean' | 'max' | 'min'): parts summing to G (G / n each, or G where the extreme is) -> Partial('sum')
//   _NormPartial(p), Partial('product'): none (the seeds are G · (part / value)^(p-1), G · the
//     other parts' product): an error
// They are redistributed to the gradient placements asked for; PyTorch's default keeps Shard
// and gives Replicate for Replicate and Partial (every replica's local gets the whole G).
import type { Tensor } from '../tensor.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { linkCollective } from '../autograd/tape.js';
import { versionOf } from '../autograd/past-values.js';
import { recordTime } from '../autograd/grad-clock.js';
import type { OpDef } from '../ops/op.js';
import type { DeviceMesh } from './device-mesh.js';
import { Partial, Replicate, type Placement } from './placement.js';
import { redistributeLocals } from './redistribute.js';

/** PyTorch's default gradient placements of from_local: Shard stays, Replicate and Partial give Replicate. */
export function defaultGradPlacements(placements: readonly Placement[]): Placement[] {
  return placements.map((p) => (p.kind === 'shard' ? p : Replicate()));
}

/** How the seeds reaching the pieces lay out the global gradient (see the table above). */
function seedPlacement(p: Placement): Placement {
  if (p.kind === 'shard') return p;
  // d(value)/d(part) of a norm is part^(p-1) / value^(p-1), of a product the other parts': no layout of the global gradient
  if (p.kind === 'partial' && (p.reduceOp === 'norm' || p.reduceOp === 'product')) {
    throw new TypeError(`tpu.DTensor.fromLocal: placements hold ${p}, whose parts have no gradient layout; give locals that do not require grad, or the value (redistribute to tpu.Replicate())`);
  }
  return p.kind === 'partial' && p.reduceOp === 'sum' ? Replicate() : Partial('sum');
}

// The pieces' recorded op: the value is the local's; its gradient is the group's rule, never run alone.
const fromLocalOp: OpDef<null> = { name: 'from_local', infer: ([x]) => x!, grad: 'not-differentiable' };

/**
 * The DTensor's pieces: the locals themselves when none requires grad (or grad mode is off);
 * else new values of the locals whose backward gives each local its piece of the gradient laid
 * out as `gradPlacements`.
 */
export function fromLocalPieces(locals: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[], gradPlacements: readonly Placement[]): Tensor[] {
  if (!gradEnabled() || !locals.some((t) => t.requiresGrad)) return [...locals];
  const pieces = locals.map((t) => {
    const piece = t.detach();
    piece._gradNode = { op: fromLocalOp, operands: [t], attrs: null, versions: [versionOf(t)], recordedAt: recordTime() };
    return piece;
  });
  const seedLayout = placements.map(seedPlacement);
  linkCollective(
    pieces.map((out, k) => ({ out, op: fromLocalOp, operands: [locals[k]!], attrs: null })),
    (seeds) => redistributeLocals(seeds, mesh, seedLayout, gradPlacements),
  );
  return pieces;
}
