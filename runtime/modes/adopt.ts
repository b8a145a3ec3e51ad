// An in-place update done at once: the target takes the source's device buffer.
import type { Tensor } from '../tensor.js';
import { disposeBuffer } from './recipes.js';

// The source stays reachable from the target so its finalizer (which would free that
// buffer) cannot run while the target uses it.
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
  }
}
