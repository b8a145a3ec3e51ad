// In-place updates (optimizer steps, `p.copy_(v)`): a tensor object keeps its identity
// (modules and optimizers hold it) and takes a new value. Recipes name tensor objects, so
// the new value must exist in device memory before the tensor switches to it: fused mode
// first runs the pending region with every live value as an output; under tpu.compile the
// updates are queued and applied when the traced function ends (its one program runs).
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { activeMode } from './mode.js';
import { flushRegion, freeWhenUnread } from './fused.js';
import { materialize } from './materialize.js';
import { keep } from '../scope.js';

/** Updates waiting for the end of a compiled function (null: not tracing one). */
let deferred: Map<Tensor, Tensor> | null = null;

export function deferAssignments(on: boolean): Map<Tensor, Tensor> | null {
  const before = deferred;
  deferred = on ? new Map() : null;
  return before;
}

/** True if t was updated in place earlier in the compiled function being traced. */
export function isPendingAssignment(t: Tensor): boolean {
  return deferred !== null && deferred.has(t);
}

/** Gives each target the value of its source; sources are consumed (disposed). */
export function assignAll(pairs: readonly (readonly [Tensor, Tensor])[], op = 'assign'): void {
  const checked = pairs.map(([target, source]) => [target, checkSource(op, target, source)] as const);
  if (deferred) {
    // Kept: the traced function's scope must not dispose them before they run.
    for (const [target, source] of checked) deferred.set(target, keep(source));
    return;
  }
  commit(checked);
}

/** Runs what the sources need (one region in fused mode) and swaps the values in. */
export function commit(pairs: readonly (readonly [Tensor, Tensor])[]): void {
  // Even with every source ready, recorded recipes may still read the targets' old values.
  if (activeMode() === 'fused') flushRegion('in-place update', pairs.map(([, s]) => s).filter((s) => !s._buf), true);
  for (const [, s] of pairs) materialize(s, 'in-place update');
  for (const [target, source] of pairs) adopt(target, source);
}

function checkSource(op: string, target: Tensor, source: Tensor): Tensor {
  if (!(source instanceof Tensor)) throw new TypeError(`${op}: the new value must be a tensor; got ${typeof source}`);
  if (target.disposed) throw new ReferenceError(`${op}: the target tensor ${target.describe()} was disposed`);
  if (!shapesEqual(target.shape, source.shape)) {
    throw new RangeError(`${op}: the new value has shape ${formatShape(source.shape)}, but the target has shape ${formatShape(target.shape)}`);
  }
  return source.dtype === target.dtype ? source : source.to(target.dtype);
}

// The target takes the source's buffer; the source stays reachable from the target so
// its finalizer (which would free that buffer) cannot run while the target uses it.
function adopt(target: Tensor, source: Tensor): void {
  const old = target._buf;
  target._buf = source._buf;
  target._node = null;
  target._valueOwner = source;
  source.disposed = true;
  if (old && old !== source._buf) freeWhenUnread(old);
}

declare module '../tensor.js' {
  interface Tensor {
    /** The tensor whose buffer this one adopted in an in-place update (keeps it alive). */
    _valueOwner?: Tensor;
    /** In place: this tensor takes the value of `source` (same shape; cast to this dtype). */
    copy_(source: Tensor): Tensor;
  }
}
Tensor.prototype.copy_ = function (source) {
  if (!(source instanceof Tensor)) throw new TypeError(`copy_: source must be a tensor; got ${typeof source}`);
  // A fresh value to consume: the caller keeps `source`.
  assignAll([[this, source.reshape([...source.shape])]], 'copy_');
  return this;
};
