// The tensor runtime as the session needs it: the `tpu` object cells see as a
// global, its end-of-cell sync point and its cancel hook for interrupts. It is
// imported in the background when the session starts, so launching the kernel
// does not wait for it; a cell waits for it only before it first runs.

import type { Tpu } from '../../runtime/index.js';
import { runtimeLoaded } from './cells/cell-tiering.js';

/**
 * The runtime's `tpu` object. The session itself calls only `sync()` (the end
 * of a cell is a sync point) and `cancelPending()` (interrupt); magics use the rest.
 */
export type TensorRuntime = Tpu;

/** The runtime's public module (its `tpu` and helpers such as formatBytes). */
export function runtimeModule(): Promise<typeof import('../../runtime/index.js')> {
  return import('../../runtime/index.js');
}

export async function loadTensorRuntime(): Promise<TensorRuntime> {
  const { tpu, runtimeInterruptBudget } = await runtimeModule();
  runtimeLoaded(runtimeInterruptBudget);
  return tpu;
}
