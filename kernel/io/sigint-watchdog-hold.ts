// Keeps Node's SIGINT watchdog thread running once the kernel has started. Node starts that
// thread (and points SIGINT at it) when the first vm run with breakOnSigint begins, and joins
// it when the last one ends: every step of a cell paid a thread start and join (0.2-0.5 ms,
// more on a busy machine). Two worker threads each sit in a breakOnSigint run of their own, so
// the count never drops to zero and a step only registers its watchdog (microseconds).
//
// Node hands a SIGINT to the watchdog registered last: the main thread's while a cell's code
// runs (RunningRequest.before keeps a holder from registering after it), else a holder's,
// which leaves its run, tells the main thread (the kernel interrupts, as its SIGINT listener
// did) and enters again; the other holder keeps the thread meanwhile. A SIGINT listener on
// `process` takes SIGINT from the watchdog thread for good (removing one resets SIGINT to its
// default), so the holders take over from the kernel's listener inside a breakOnSigint run of
// the main thread (which points SIGINT at the watchdog thread); a listener a cell adds later
// ends the hold, and Node's per-run handling (listeners moved aside during a run) applies again.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

const HOLDERS = 2;
/** Words of the holders' shared state. */
export const RELEASED = 0;
export const IN_RUN = 1;
export const OPEN = 2;
const WAIT_MS = 2000;
/** Message of a holder: booted, waiting for OPEN. */
export const READY = 'ready';
/** Message of a holder: a SIGINT reached it. */
export const SIGINT = 'sigint';

export class SigintWatchdogHold {
  private released = false;
  private ready = 0;

  private constructor(
    private readonly words: Int32Array,
    private readonly workers: Worker[],
    private readonly listener: () => void,
    private readonly onRelease: () => void,
  ) {}

  /**
   * Starts the holders, which take over SIGINT from `listener` (the kernel's, on `process`) once
   * booted; undefined where there is no built worker script (the kernel runs from TypeScript
   * sources). `onRelease`: the hold ended (the kernel's listener is back).
   */
  static start(runningRequest: SharedArrayBuffer, listener: () => void): SigintWatchdogHold | undefined {
    const script = new URL('./sigint-watchdog-holder.js', import.meta.url);
    if (!existsSync(fileURLToPath(script))) return undefined;
    const words = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
    const workers: Worker[] = [];
    const hold = new SigintWatchdogHold(words, workers, listener, () => process.on('SIGINT', listener));
    for (let i = 0; i < HOLDERS; i++) {
      const worker = new Worker(script, { workerData: { runningRequest, words } });
      worker.on('message', (message) => (message === READY ? hold.holderReady() : listener()));
      // A holder that failed leaves the other alone: Node's per-run handling takes over.
      worker.on('error', () => hold.release());
      worker.unref(); // never keeps the kernel alive
      workers.push(worker);
    }
    return hold;
  }

  /** Both holders booted: inside a run of this thread (so SIGINT goes to the watchdog thread), they enter theirs. */
  private holderReady(): void {
    if (++this.ready < HOLDERS || this.released) return;
    if (process.listeners('SIGINT').some((l) => l !== this.listener)) return this.release();
    process.off('SIGINT', this.listener);
    const words = this.words;
    const open = () => {
      Atomics.store(words, OPEN, 1);
      Atomics.notify(words, OPEN);
      const until = performance.now() + WAIT_MS;
      for (let inRun = Atomics.load(words, IN_RUN); inRun < HOLDERS && performance.now() < until; inRun = Atomics.load(words, IN_RUN)) {
        Atomics.wait(words, IN_RUN, inRun, until - performance.now());
      }
    };
    new vm.Script('open()', { filename: 'tpu-kernel-sigint-hold-open' }).runInNewContext({ open }, { breakOnSigint: true });
    if (Atomics.load(words, IN_RUN) < HOLDERS) this.release();
  }

  /** Before each run of cell code: a SIGINT listener on `process` ends the hold (see above). */
  beforeRun(): void {
    if (!this.released && Atomics.load(this.words, OPEN) === 1 && process.listenerCount('SIGINT') > 0) this.release();
  }

  /** The holders leave their runs; waits (bounded) until they have, so the next run starts Node's watchdog itself. */
  release(): void {
    if (this.released) return;
    this.released = true;
    Atomics.store(this.words, RELEASED, 1);
    Atomics.notify(this.words, RELEASED);
    Atomics.store(this.words, OPEN, 1);
    Atomics.notify(this.words, OPEN);
    const until = performance.now() + WAIT_MS;
    for (let inRun = Atomics.load(this.words, IN_RUN); inRun > 0 && performance.now() < until; inRun = Atomics.load(this.words, IN_RUN)) {
      Atomics.wait(this.words, IN_RUN, inRun, until - performance.now());
    }
    for (const worker of this.workers) worker.removeAllListeners('message');
    if (!process.listeners('SIGINT').includes(this.listener)) this.onRelease();
  }
}
