// In-place ops inside an autograd graph, as in PyTorch: the written tensor keeps its identity
// and takes a new graph node (the op applied to its old value). Nodes recorded earlier name
// the tensor at an earlier version; backward finds that version's node through the tensor's
// past (version -> stand-in). A stand-in has the old node, shape and dtype but no value: a
// gradient rule that reads it (a value saved for backward, changed since) throws PyTorch's
// "modified by an inplace operation"; a rule that needs no value (add) works, as in PyTorch.
import { Tensor } from '../tensor.js';
import type { OpDef, Operand } from '../ops/op.js';
import { identity } from '../ops/identity.js';
import { zerosLike } from '../ops/like.js';
import type { GradNode } from './tape.js';
import { recordTime, startsRequiringGrad, stopsRequiringGrad } from './grad-clock.js';

/**
 * The write count of a tensor's version counter (its own, or its base's). A view whose base
 * was written since it was computed counts the recomputation its next read makes (stale-views.ts):
 * a value saved for backward is found changed before anything reads the view again.
 */
export function versionOf(t: Tensor): number {
  const owner = t._versionOf ?? t;
  const v = owner._viewOf;
  return owner._version + (v !== undefined && v.seen !== v.base._version ? 1 : 0);
}

/**
 * `view`, made untracked from `base` (not recomputed when base is written), shares base's
 * version counter: a rule that reads it after base was written in place (an optimizer step
 * between forward and backward) throws PyTorch's error instead of using the old value.
 */
export function sharingVersion(view: Tensor, base: Tensor): Tensor {
  view._versionOf = base._versionOf ?? base;
  return view;
}

/**
 * `o` as an operand whose gradient the rule must not compute (it started requiring grad after
 * the op was recorded: grad-clock.ts): the value cut from the graph, or a stand-in that does
 * not require grad.
 */
export function withoutGrad(o: Tensor): Tensor {
  return o._stale ? valueless(o, o._stale) : o.detach();
}

/** A tensor shaped like `of` with no value: reading it throws `stale()`'s error. */
function valueless(of: Tensor, stale: () => Error): Tensor {
  const s = new Tensor(null, of.shape, of.dtype, of.chip);
  s.disposed = true;
  s._stale = stale;
  return s;
}

/** PyTorch's error for a saved value changed in place, naming the versions. */
function modifiedError(t: Tensor, expected: number): Error {
  return new Error(`one of the variables needed for gradient computation has been modified by an inplace operation: ${t.describe()} is at version ${versionOf(t)}; expected version ${expected} instead. ` +
    'Hint: compute with a clone() of it, or use the out-of-place op, so that the value backward needs stays as it was');
}

function standIn(of: Tensor, version: number, requiresGrad: boolean, node: GradNode | null): Tensor {
  const s = valueless(of, () => modifiedError(of, version));
  s.requiresGrad = requiresGrad;
  s._gradNode = node;
  return s;
}

// The step of a write whose new value does not read the old one (copy_, fill_, zero_): the old
// value gets a zero gradient, not none, as PyTorch's CopyBackwards and FillBackward give it, so
// what it was computed from ends with zeros (w.grad of y = w.mul(1); y.copy_(v)), and the new
// value gets the whole gradient. A recorded step only, never run forward: not a primitive.
const overwrite: OpDef = { name: 'overwrite', infer: ([, value]) => value!, grad: (g) => [zerosLike(g), g], gradReads: 'none' };

/**
 * `target` just took `source`'s value in place (its version already counted): it takes
 * source's graph node, and its old node stays reachable at its old version. `overwrites`: the
 * new value does not read the old one (copy_, fill_): the old value gets zeros through it.
 */
export function recordInPlace(target: Tensor, source: Tensor, sourceNode: GradNode | null, overwrites = false): void {
  const old = target._version - 1;
  const inGraph = target.requiresGrad;
  if (inGraph) {
    const past = (target._past ??= new Map());
    past.set(old, standIn(target, old, true, target._gradNode));
    pruneFreed(target);
  } else {
    startsRequiringGrad(target);
  }
  target.requiresGrad = true;
  // A value that needs no gradient (a fill of a number) reads no old value either.
  const node = inGraph && (overwrites || !sourceNode)
    ? { op: overwrite, operands: [target, source], attrs: {}, versions: [old, versionOf(source)], recordedAt: recordTime() }
    : sourceNode ?? { op: identity, operands: [source], attrs: {}, versions: [versionOf(source)], recordedAt: recordTime() };
  target._gradNode = { ...node, outVersion: target._version };
}

/**
 * x.detach_() of a non-leaf, as PyTorch's: the tensor leaves its graph, but the nodes recorded
 * before still reach its old node, through `alias` (its value, not a view to autograd) at its
 * version; a rule reading the value reads it there, until an in-place write changes it.
 */
export function recordDetach(t: Tensor, alias: Tensor): void {
  alias.requiresGrad = true;
  alias._gradNode = t._gradNode;
  sharingVersion(alias, t);
  (t._past ??= new Map()).set(versionOf(t), alias);
  pruneFreed(t);
  stopsRequiringGrad(t);
}

// Past values whose graph backward has freed are not reachable again: dropped once the
// map doubles, so a long-lived tensor written in place in every step keeps few.
function pruneFreed(t: Tensor): void {
  const past = t._past!;
  if (past.size < (t._pastPruneAt ?? 16)) return;
  for (const [v, s] of past) if (!s._gradNode?.operands) past.delete(v);
  t._pastPruneAt = 2 * past.size + 16;
}

/** The tensor (or stand-in) a gradient for operand `o`, recorded at `version`, flows to. */
export function edgeOf(o: Operand, version: number): Operand {
  // a tensor detached in place since: its old node is in its past at the same version
  if (!(o instanceof Tensor) || (versionOf(o) === version && o._gradUntil === 0)) return o;
  return o._past?.get(version) ?? o;
}

/** What a gradient rule sees for operand `o` recorded at `version`: a stand-in when it changed since. */
export function valueAt(o: Operand, version: number | undefined): Operand {
  if (!(o instanceof Tensor) || version === undefined || (versionOf(o) === version && o._gradUntil === 0) || o._stale) return o;
  const past = o._past?.get(version);
  if (past === undefined && versionOf(o) === version) return o;
  // a detached value (recordDetach) holds the tensor's current value: not the one recorded once written since
  return past && (past._stale || versionOf(past) === version) ? past : standIn(o, version, past?.requiresGrad ?? o.requiresGrad, null);
}
