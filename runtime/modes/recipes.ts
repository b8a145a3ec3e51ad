// Values a fused region did not materialize keep their recipe, so they can be recomputed
// if read later. A recipe must still find its inputs then: device buffers it reads stay
// pinned (a dispose() of their tensor is deferred) until the recipe is materialized or
// garbage-collected.
import type { DeviceBuffer } from '../device/memory.js';
import { isScalar } from '../compiler/trace.js';
import type { Tensor } from '../tensor.js';

let release: (b: DeviceBuffer) => void = () => {};

/** Wires the function that frees a buffer once nothing needs it (fused.ts). */
export function setReleaseBuffer(fn: (b: DeviceBuffer) => void): void {
  release = fn;
}

const registry = new FinalizationRegistry<DeviceBuffer[]>((pins) => unpinAll(pins));

/** After a region ran: pins the buffers read by the recipes it left unmaterialized. */
export function keepRecipes(members: readonly Tensor[]): void {
  for (const t of members) {
    if (t._buf || !t._node || t._pins) continue;
    let pins: DeviceBuffer[] | null = null;
    for (const v of t._node.inputs) {
      if (isScalar(v) || !v._buf || v._buf.freed) continue;
      v._buf.pins++;
      (pins ??= []).push(v._buf);
    }
    if (pins) {
      t._pins = pins;
      registry.register(t, pins, t);
    }
  }
}

/** The recipe was materialized: its inputs are no longer needed by it. */
export function dropRecipe(t: Tensor): void {
  const pins = t._pins;
  if (!pins) return;
  t._pins = null;
  registry.unregister(t);
  unpinAll(pins);
}

function unpinAll(pins: readonly DeviceBuffer[]): void {
  for (const b of pins) {
    b.pins--;
    if (b.pins === 0 && b.disposeRequested) release(b);
  }
}

/** dispose() of a tensor: frees its buffer now, or when the last recipe reading it goes. */
export function disposeBuffer(b: DeviceBuffer): void {
  if (b.pins > 0) b.disposeRequested = true;
  else release(b);
}
