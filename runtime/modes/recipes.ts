// Values a fused region did not materialize keep their recipe, so they can be recomputed
// if read later. A recipe must still find its inputs then: device buffers it reads stay
// pinned (a dispose() of their tensor is deferred) until the recipe is materialized or
// garbage-collected. A recipe reads the buffers themselves, not the tensors that held them:
// a tensor updated in place later (an optimizer step) must not change what it computes.
// A pending region pins the buffers it reads the same way, until it ran.
import type { DeviceBuffer } from '../device/memory.js';
import { chipSession } from '../device/current.js';
import { isScalar, Tensor, type WeakScalar } from '../tensor.js';

const registry = new FinalizationRegistry<DeviceBuffer[]>((pins) => pins.forEach(unpin));

/**
 * After a region ran: pins the buffers read by the recipes it left unmaterialized that may
 * still be read: those of live values and the recipes they are computed from. A disposed
 * value nothing reads keeps no pin (in a loop, most values are disposed at once).
 */
export function keepRecipes(members: readonly Tensor[]): void {
  // Members come in recording order and a recipe reads only earlier values: walking back,
  // a value is known to be needed before its turn comes.
  let needed: Set<Tensor> | null = null;
  for (let m = members.length - 1; m >= 0; m--) {
    const t = members[m]!;
    if (t._buf || !t._node || t._pins) continue;
    if (t.disposed && !needed?.has(t)) continue;
    let pins: DeviceBuffer[] | null = null;
    const inputs = t._node.inputs as (Tensor | WeakScalar)[];
    for (let k = 0; k < inputs.length; k++) {
      const v = inputs[k]!;
      if (isScalar(v)) continue;
      if (!v._buf) {
        (needed ??= new Set()).add(v);
        continue;
      }
      if (v._buf.freed) continue;
      pin(v._buf);
      (pins ??= []).push(v._buf);
      inputs[k] = frozen(v);
    }
    if (pins) {
      t._pins = pins;
      registry.register(t, pins, t);
    }
  }
}

/** A hidden tensor on v's current buffer (never disposed by anyone: the pin frees it). */
function frozen(v: Tensor): Tensor {
  const alias = new Tensor(null, v.shape, v.dtype, v.chip);
  alias._buf = v._buf;
  alias.disposed = true;
  return alias;
}

/** The recipe was materialized: its inputs are no longer needed by it. */
export function dropRecipe(t: Tensor): void {
  const pins = t._pins;
  if (!pins) return;
  t._pins = null;
  registry.unregister(t);
  pins.forEach(unpin);
}

export function pin(b: DeviceBuffer): void {
  b.pins++;
}

/** Drops one pin; the last one frees a buffer whose tensor was disposed meanwhile. */
export function unpin(b: DeviceBuffer): void {
  b.pins--;
  if (b.pins === 0 && b.disposeRequested) chipSession(b.chip).free(b);
}

/** dispose() of a tensor: frees its buffer now, or when the last reader pinning it goes. */
export function disposeBuffer(b: DeviceBuffer): void {
  if (b.pins > 0) b.disposeRequested = true;
  else chipSession(b.chip).free(b);
}
