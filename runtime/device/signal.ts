// The words the main thread, the device thread and the kernel's control thread share:
// [0] replies posted (the host waits on it), [1] device thread died, [2] device thread ready,
// [3] interrupt requested. One buffer per process, so a thread given it once (the kernel's
// control thread) can interrupt waits of every session.
export const SIGNAL = new SharedArrayBuffer(16);
export const SIGNAL_DEAD = 1;
export const SIGNAL_READY = 2;
export const SIGNAL_INTERRUPT = 3;

/**
 * The buffer behind interruptWaits.
 * @example const shared = tpu.interruptBuffer()
 */
export function interruptBuffer(): SharedArrayBuffer {
  return SIGNAL;
}

/**
 * From any thread holding interruptBuffer(): makes a blocking wait on the main thread
 * throw CancelledError (then call tpu.cancelPending() on the main thread).
 */
export function interruptWaits(buffer: SharedArrayBuffer): void {
  const words = new Int32Array(buffer);
  Atomics.store(words, SIGNAL_INTERRUPT, 1);
  Atomics.notify(words, 0);
}

/**
 * What interruptWaits does, as data, for a thread that does not load the runtime: set word `flag` to 1, wake word `notify`.
 * @example const { buffer, flag, notify } = tpu.interruptWake()
 */
export function interruptWake(): { buffer: SharedArrayBuffer; flag: number; notify: number } {
  return { buffer: SIGNAL, flag: SIGNAL_INTERRUPT, notify: 0 };
}
