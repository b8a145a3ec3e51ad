// Interrupting a cell that awaits: its execution settles at once with an
// interrupted error, whatever it was waiting for (a never-settling promise, a
// timer, device work, input). The work itself may continue in the background;
// the session cancels the cell's timers and the runtime's pending work.
import { CellInterruptedError } from './cell-errors.js';

export class CellInterrupter {
  private controller = new AbortController();

  /** A fresh signal for the cell about to run (an interrupt while idle does not leak into it). */
  beginCell(): AbortSignal {
    this.controller = new AbortController();
    return this.controller.signal;
  }

  interrupt(): void {
    this.controller.abort(new CellInterruptedError());
  }

  /** Settles like `work`, or rejects with the interrupt as soon as `signal` aborts. */
  static race<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return Promise.race([work, interruption(signal)]);
  }
}

/** Per signal, one listener for all its races (a cell races each wait: Node's listeners are not cheap). */
const interruptions = new WeakMap<AbortSignal, Promise<never>>();

function interruption(signal: AbortSignal): Promise<never> {
  let interrupted = interruptions.get(signal);
  if (!interrupted) {
    interrupted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    interrupted.catch(() => {}); // an interrupt after the cell's last race is no unhandled rejection
    interruptions.set(signal, interrupted);
  }
  return interrupted;
}
