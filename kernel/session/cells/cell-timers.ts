// Timers as cells see them: the host's timers, remembered per cell so an
// interrupt cancels the timers of the interrupted cell, and with callbacks
// whose errors are reported (to the cell's stderr) instead of crashing the kernel.
// Callbacks run as microtasks queued by the host's timer: a synchronous loop in
// one can then be stopped by the kernel's last-resort interrupt, which may only
// cut JavaScript run from the microtask queue (cutting Node's timer callback
// in the middle corrupts its async context stack and ends the process).
type Handle = object;
/** Pending timers of one cell, each with the function that cancels it. */
type CellTimerSet = Map<Handle, () => void>;
const resolved = Promise.resolve();

export class CellTimers {
  private current: CellTimerSet = new Map();
  /** Timer sets of every cell that may still have pending timers. */
  private readonly cells = new Set<CellTimerSet>([this.current]);

  constructor(private readonly reportError: (error: unknown) => void) {}

  /** Timers created from now on belong to a new cell. */
  beginCell(): void {
    for (const cell of this.cells) if (!cell.size) this.cells.delete(cell);
    this.current = new Map();
    this.cells.add(this.current);
  }

  /** Cancels the pending timers of every cell (shutdown). */
  cancelAll(): void {
    for (const cell of this.cells) {
      for (const cancel of cell.values()) cancel();
      cell.clear();
    }
  }

  /** Cancels every timer the current cell created that is still pending. */
  cancelCurrentCell(): void {
    for (const cancel of this.current.values()) cancel();
    this.current.clear();
  }

  /** setTimeout, setInterval, setImmediate and their clear functions for a context. */
  globals(): Record<string, unknown> {
    const schedule = <H extends Handle>(callback: unknown, repeats: boolean, start: (run: (...a: unknown[]) => void) => H, cancel: (h: never) => void): H => {
      if (typeof callback !== 'function') throw new TypeError(`timer callback must be a function, got ${typeof callback}`);
      const owner = this.current;
      const handle = start((...args) => {
        if (!repeats) owner.delete(handle);
        // A promise reaction, not queueMicrotask: that one runs in an async scope of its own.
        void resolved.then(() => {
          try {
            callback(...args);
          } catch (error) {
            this.reportError(error);
          }
        });
      });
      owner.set(handle, () => cancel(handle as never));
      return handle;
    };
    const clear = (cancel: (h: never) => void) => (handle: Handle | undefined) => {
      if (handle === undefined || handle === null) return;
      cancel(handle as never);
      this.current.delete(handle);
    };
    return {
      setTimeout: (callback: unknown, ms?: number, ...args: unknown[]) =>
        schedule(callback, false, (run) => setTimeout(run, ms, ...args), clearTimeout),
      setInterval: (callback: unknown, ms?: number, ...args: unknown[]) =>
        schedule(callback, true, (run) => setInterval(run, ms, ...args), clearInterval),
      setImmediate: (callback: unknown, ...args: unknown[]) =>
        schedule(callback, false, (run) => setImmediate(run, ...args), clearImmediate),
      clearTimeout: clear(clearTimeout),
      clearInterval: clear(clearInterval),
      clearImmediate: clear(clearImmediate),
    };
  }
}
