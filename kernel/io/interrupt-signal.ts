// interrupt_request, on the IO worker. The main thread is told by message (it
// settles a cell that awaits and cancels its timers, device work and input());
// blocking device waits are woken; and a synchronous loop of cell code is
// stopped by SIGINT through vm's breakOnSigint, raised only once this thread has
// claimed a run of cell code (RunningRequest), never at a moment when SIGINT
// would end the process. A loop that runs outside any run (in a microtask, after
// an await inside an async function) keeps the main thread from ever reading the
// message: past a grace period, if the cell's code has started (the kernel is not
// compiling it), it is stopped through V8's inspector.
import type { RunningRequest } from './running-request.js';

const POLL_MS = 2;
/** Device waits clear a wake that came before them: repeat it while the request runs. */
const WAKE_EVERY_MS = 100;
const GIVE_UP_AFTER_MS = 5000;
/** How long the main thread may leave the interrupt message unread before its JavaScript is terminated. */
const UNREAD_LIMIT_MS = 1000;

export interface InterruptEffects {
  /** Posts the interrupt for request `id` to the main thread. */
  tell(id: number): void;
  wakeDeviceWaits(): void;
  raiseSigint(): void;
  /** Stops the cell code that keeps the main thread from reading the interrupt, for as long as `unread()`. */
  terminateStuckCellCode(unread: () => boolean): void;
}

export function interruptSignaller(running: RunningRequest, effects: InterruptEffects): () => void {
  let polling: NodeJS.Timeout | undefined;
  return function interrupt() {
    clearInterval(polling);
    const target = running.running();
    if (target === 0) return; // nothing runs: nothing to stop
    effects.tell(target);
    const unread = () => running.running() === target && !running.hasSeenInterrupt(target);
    const start = Date.now();
    let wokenAt = -Infinity;
    let terminated = false;
    const tick = () => {
      const now = Date.now();
      if (running.running() !== target || now - start > GIVE_UP_AFTER_MS) return clearInterval(polling);
      if (now - wokenAt >= WAKE_EVERY_MS) {
        effects.wakeDeviceWaits();
        wokenAt = now;
      }
      if (running.claimRun()) {
        clearInterval(polling);
        try {
          effects.raiseSigint();
        } catch {
          running.releaseRun();
        }
      } else if (!terminated && now - start >= UNREAD_LIMIT_MS && unread() && running.cellCodeRan(target)) {
        terminated = true;
        effects.terminateStuckCellCode(unread);
      }
    };
    // The worker's sockets keep it alive while it serves; once they are closed (shutdown),
    // an interrupt still polling must not keep it from exiting.
    polling = setInterval(tick, POLL_MS).unref();
    tick();
  };
}
