// An in-place update done at once: the target takes the source's device buffer, or, should
// the launch computing it fail, its old value back (the device keeps it: session.keepOnFailure).
import type { Tensor } from '../tensor.js';
import { disposeBuffer, keepReaders } from './recipes.js';
import { chipSession } from '../device/current.js';

// The source stays reachable from the target so its finalizer (which would free that
// buffer) cannot run while the target uses it.
export function adopt(target: Tensor, source: Tensor): void {
  keepReaders(target); // recipes kept reading target's recipe keep it
  const old = target._buf;
  target._buf = source._buf;
  target._node = null;
  target._valueOwner = source;
  source.disposed = true;
  if (!old || old === source._buf) return;
  // a conversion's value (another dtype or chip: views/convert-in-place.ts) has no old value of its kind to restore
  if (source._buf && source.chip === target.chip && source.dtype === target.dtype) chipSession(target.chip).keepOnFailure(source._buf, old);
  disposeBuffer(old);
}

