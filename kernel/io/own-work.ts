// Whether the main thread is busy with the kernel's own finite work, not with cell code: the
// language service's builds and checks (a first build takes a few seconds at load, in the
// background or for a complete request). Shared with the IO worker: its shutdown grace ends a
// main thread stuck in a cell's loop, but lets this work finish (killing the kernel for it
// turned a clean shutdown into a SIGKILL).
const busy = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

/** The flag's memory, for the IO worker (`ownWorkRunning`). */
export const ownWorkBuffer = busy.buffer as SharedArrayBuffer;

/** Main thread: runs `body` as the kernel's own work. */
export function duringOwnWork<T>(body: () => T): T {
  Atomics.add(busy, 0, 1);
  try {
    return body();
  } finally {
    Atomics.sub(busy, 0, 1);
  }
}

/** IO worker: whether the main thread is in such work now. */
export function ownWorkRunning(buffer: SharedArrayBuffer): boolean {
  return Atomics.load(new Int32Array(buffer), 0) > 0;
}
