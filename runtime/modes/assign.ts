// In-place updates (optimizer steps, `p.copy_(v)`): a tensor object keeps its identity
// (modules and optimizers hold it) and takes a new value. In fused mode (and so inside
// tpu.compile) the update is recorded in the region (fused.ts assignInRegion): no cut, the
// new value is written by the region's program. Otherwise the target adopts the source's
// device buffer once every recorded recipe reading the old value has run.
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { activeMode } from './mode.js';
import { assignInRegion, flushRegion } from './fused.js';
import { materialize } from './materialize.js';
import { disposeBuffer } from './recipes.js';

/** Gives each target the value of its source; sources are consumed (disposed). */
export function assignAll(pairs: readonly (readonly [Tensor, Tensor])[], op = 'assign'): void {
  const checked = pairs.map(([target, source]) => [target, checkSource(op, target, source)] as const);
  for (const [target, source] of checked) {
    if (activeMode() === 'fused' && assignInRegion(target, source)) continue;
    if (activeMode() === 'fused') flushRegion('in-place update'); // recipes reading the old value run first
    materialize(source, 'in-place update');
    adopt(target, source);
  }
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
export function adopt(target: Tensor, source: Tensor): void {
  const old = target._buf;
  target._buf = source._buf;
  target._node = null;
  target._valueOwner = source;
  source.disposed = true;
  if (old && old !== source._buf) disposeBuffer(old);
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
