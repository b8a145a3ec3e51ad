// In-place updates (optimizer steps, `p.copy_(v)`): a tensor object keeps its identity
// (modules and optimizers hold it) and takes a new value. The active mode does the update
// (fused.ts: recorded in the region, eager.ts: the target adopts the source's buffer).
// Each write counts in the target's _version (backward refuses values changed since recorded);
// with gradients on, the target's graph node becomes the one of its new value.
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { currentMode } from './mode.js';
import { gradEnabled } from '../autograd/grad-mode.js';
import { recordInPlace } from '../autograd/past-values.js';
import '../autograd/tape.js';

/**
 * Gives each target the value of its source; sources are consumed (disposed). `overwrites`: the
 * sources do not read the targets' old values (copy_, fill_), which autograd gives zeros.
 */
export function assignAll(pairs: readonly (readonly [Tensor, Tensor])[], op = 'assign', overwrites = false): void {
  const checked = pairs.map(([target, source]) => [target, checkSource(op, target, source)] as const);
  // A base's views see its new value (PyTorch's aliasing) when next read: views/stale-views.ts.
  for (const [target, source] of checked) write(target, source, false, overwrites);
}

/** A view takes its value recomputed from its written base (views/stale-views.ts). */
export function assignDerived(view: Tensor, value: Tensor): void {
  write(view, value, true);
}

/** One in-place update; with gradients on, it is a step of the graph too (autograd/past-values). */
function write(target: Tensor, source: Tensor, derived = false, overwrites = false): void {
  // A leaf that requires grad is written by optimizers and loaders, never by a graph step
  // (the user's in-place ops on one are refused first, views/inplace-ops.ts).
  const leaf = target.requiresGrad && target._gradNode === null;
  const graphed = gradEnabled() && !leaf && (target.requiresGrad || source.requiresGrad);
  const node = source._gradNode;
  currentMode().assign(target, source, derived);
  target._version++;
  if (gradEnabled()) target._gradWriteVersion = target._version;
  if (graphed) recordInPlace(target, source, node, overwrites);
}

function checkSource(op: string, target: Tensor, source: Tensor): Tensor {
  if (!(source instanceof Tensor)) throw new TypeError(`${op}: the new value must be a tensor; got ${typeof source}`);
  if (target.disposed) throw new ReferenceError(`${op}: the target tensor ${target.describe()} was disposed`);
  if (!shapesEqual(target.shape, source.shape)) {
    throw new RangeError(`${op}: the new value has shape ${formatShape(source.shape)}, but the target has shape ${formatShape(target.shape)}`);
  }
  // copy_ from another chip, as PyTorch's copy_ across devices: the value comes to the target's chip
  const here = source.chip === target.chip ? source : source.to(target.device);
  return here.dtype === target.dtype ? here : here.to(target.dtype);
}
