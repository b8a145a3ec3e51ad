// The tensor runtime as the session needs it: the `tpu` object cells see as a
// global, its end-of-cell sync point and its cancel hook for interrupts. It is
// imported in the background when the session starts, so launching the kernel
// does not wait for it; a cell waits for it only before it first runs.

/** The part of runtime's `tpu` object the session calls; everything else is for cells. */
export interface TensorRuntime {
  /** Waits for all queued device work (end of cell is a sync point). */
  sync?(): Promise<unknown>;
  /** Cancels device work that has not run yet (interrupt). */
  cancelPending?(): unknown;
}

export async function loadTensorRuntime(): Promise<TensorRuntime | undefined> {
  const runtime = (await import('../../runtime/index.js')) as { tpu?: TensorRuntime };
  return runtime.tpu;
}
