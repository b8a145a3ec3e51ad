// A DTensor leaf's gradient, assembled from its pieces' gradients. Backward runs every chip's
// ops and every collective's adjoint exactly (one controller: the loss is one function of all
// pieces), so piece k's .grad is d(loss)/d(piece k). The gradient of the global tensor, laid
// out as the leaf (PyTorch: a leaf's .grad has the leaf's placements), follows per mesh dim:
//   Shard: piece k's gradient is the gradient of chunk k: nothing to do
//   Replicate (every piece is the value) and Partial('mean') (the value moves with every part):
//     the pieces' gradients add up: allReduce('sum') along that axis
//   Partial('sum') (the value is the parts' sum): each part's gradient / n, parts of their mean
// Partial('max'/'min'/'product') and _NormPartial have no such rule: such leaves cannot require grad.
import type { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { zerosLike } from '../ops/like.js';
import { keep, scope } from '../scope.js';
import type { DeviceMesh } from './device-mesh.js';
import { allReduce } from './functional-collectives.js';
import type { Placement } from './placement.js';

/** Why a DTensor with these placements cannot be a leaf that requires grad, or null. */
export function noLeafGradReason(placements: readonly Placement[]): string | null {
  const p = placements.find((q) => q.kind === 'partial' && q.reduceOp !== 'sum' && q.reduceOp !== 'mean');
  return p ? `its placements hold ${p}, whose gradient is not defined by its value; redistribute it to tpu.Replicate() first` : null;
}

/**
 * DTensors whose pieces' gradients are whole already, not parts to add up along Replicate mesh
 * dims: fullyShard's parameters, whose HSDP reducer sums the replicas' parts into each, and whose
 * replicas over a sub-mesh's other axes each get the whole gradient.
 */
const wholeGrads = new WeakSet<object>();

/** Marks `dtensor`'s pieces' gradients as whole (fully-shard.ts). */
export function markWholeGrads(dtensor: object): void {
  wholeGrads.add(dtensor);
}

export function hasWholeGrads(dtensor: object): boolean {
  return wholeGrads.has(dtensor);
}

/**
 * The leaf's gradient pieces (each kept: it outlives scopes, as a tensor's .grad), or null before
 * any backward reached the leaf. `whole`: the pieces' gradients are already the leaf's.
 */
export function leafGradPieces(locals: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[], whole = false): Tensor[] | null {
  const grads = locals.map((t) => (t._grad && !t._grad.disposed ? t._grad : null));
  if (grads.every((g) => g === null)) return null;
  const pieces = noGrad(() => scope(() => {
    let xs = grads.map((g, k) => g ?? zerosLike(locals[k]!));
    if (whole) return xs;
    placements.forEach((p, i) => {
      if (p.kind === 'replicate' || (p.kind === 'partial' && p.reduceOp === 'mean')) xs = allReduce(xs, { op: 'sum', mesh, axis: mesh.names[i]! });
      if (p.kind === 'partial' && p.reduceOp === 'sum') xs = xs.map((x) => x.div(mesh.shape[i]!));
    });
    return xs;
  }));
  return pieces.map((t) => keep(t));
}

/**
 * Gradient parts whose leaf gradient (leafGradPieces) is `pieces`, for writing a changed .grad
 * back to the pieces' own gradients: along a Replicate or Partial('mean') mesh dim the parts add
 * up, so each is the piece / n; along Partial('sum') the piece is the part / n.
 */
export function gradPartsOf(pieces: readonly Tensor[], mesh: DeviceMesh, placements: readonly Placement[], whole = false): Tensor[] {
  if (whole) return [...pieces];
  const scale = placements.reduce((w, p, i) => {
    if (p.kind === 'replicate' || (p.kind === 'partial' && p.reduceOp === 'mean')) return w / mesh.shape[i]!;
    return p.kind === 'partial' && p.reduceOp === 'sum' ? w * mesh.shape[i]! : w;
  }, 1);
  return scale === 1 ? [...pieces] : pieces.map((t) => t.mul(scale));
}
