// Keeps Node's SIGINT watchdog thread running for the kernel's life. Node starts that
// thread (and points SIGINT at it) when the first vm run with breakOnSigint begins, and joins
// it when the last one ends: every step of a cell paid a thread start and join (0.2-0.5 ms,
// more on a busy machine). Two worker threads each sit in a breakOnSigint run of their own, so
// the count never drops to zero and a step only registers its watchdog (microseconds).
//
// Node hands a SIGINT to the watchdog registered last: the main thread's while a cell's code
// runs (RunningRequest.before keeps a holder from registering after it), else a holder's,
// which leaves its run, tells the main thread (the kernel interrupts as on SIGINT) and enters
// again; the other holder keeps the thread meanwhile. A SIGINT listener on `process` (a cell
// may add one) would take SIGINT from the watchdog thread for good: the holders then leave,
// and Node's per-run handling (which moves listeners aside during a run) applies again.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const HOLDERS = 2;
/** Words of the holders' shared state. */
export const RELEASED = 0;
export const IN_RUN = 1;
const LEAVE_WAIT_MS = 2000;

export class SigintWatchdogHold {
  private released = false;

  private constructor(private readonly words: Int32Array, private readonly workers: Worker[], private readonly onRelease: () => void) {}

  /**
   * Starts the holders (they enter their runs while the kernel starts; nothing waits for them);
   * undefined where there is no built worker script (the kernel runs from TypeScript sources).
   * `onSigint`: a SIGINT came while no cell code ran. `onRelease`: the hold ended.
   */
  static start(runningRequest: SharedArrayBuffer, onSigint: () => void, onRelease: () => void): SigintWatchdogHold | undefined {
    const script = new URL('./sigint-watchdog-holder.js', import.meta.url);
    if (!existsSync(fileURLToPath(script))) return undefined;
    const words = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const workers: Worker[] = [];
    const hold = new SigintWatchdogHold(words, workers, onRelease);
    for (let i = 0; i < HOLDERS; i++) {
      const worker = new Worker(script, { workerData: { runningRequest, words } });
      worker.on('message', onSigint);
      // A holder that failed leaves the other alone: Node's per-run handling takes over.
      worker.on('error', () => hold.release());
      worker.unref(); // never keeps the kernel alive
      workers.push(worker);
    }
    return hold;
  }

  /** Before each run of cell code: a SIGINT listener on `process` ends the hold (see above). */
  beforeRun(): void {
    if (!this.released && process.listenerCount('SIGINT') > 0) this.release();
  }

  /** The holders leave their runs; waits (bounded) until they have, so the next run starts Node's watchdog itself. */
  release(): void {
    if (this.released) return;
    this.released = true;
    Atomics.store(this.words, RELEASED, 1);
    Atomics.notify(this.words, RELEASED);
    const until = performance.now() + LEAVE_WAIT_MS;
    for (let inRun = Atomics.load(this.words, IN_RUN); inRun > 0; inRun = Atomics.load(this.words, IN_RUN)) {
      const left = until - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.words, IN_RUN, inRun, left);
    }
    for (const worker of this.workers) worker.removeAllListeners('message');
    this.onRelease();
  }
}
