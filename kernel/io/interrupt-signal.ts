// interrupt_request, on the IO worker: raise SIGINT in this process, at a safe
// moment. A SIGINT that lands while the main thread is busy outside vm's
// breakOnSigint scope (still compiling the cell, say) only queues for the main
// thread's JS listener, which a synchronous loop never lets run (and vm drops it
// when it swaps the listeners out). So while the interrupted request still runs
// and no listener has taken the signal, it is raised again until vm's watchdog
// takes one, within a bound.
import type { RunningRequest } from './running-request.js';

const POLL_MS = 5;
const REPEAT_EVERY_MS = 100;
const REPEAT_FOR_MS = 5000;
/** How long a breakOnSigint run must have lasted before its watchdog surely listens. */
const RUN_SETTLE_MS = 30;

export function interruptSignaller(running: RunningRequest, raise: () => void = () => process.kill(process.pid, 'SIGINT')): () => void {
  let polling: NodeJS.Timeout | undefined;
  return function interrupt() {
    clearInterval(polling);
    const target = running.running();
    const until = Date.now() + REPEAT_FOR_MS;
    let raisedAt: number | undefined;
    const tick = () => {
      const over = running.running() !== target || Date.now() > until || (raisedAt !== undefined && !running.unclaimed(target));
      if (over) return clearInterval(polling);
      if ((raisedAt !== undefined && Date.now() - raisedAt < REPEAT_EVERY_MS) || !running.safeToSignal(RUN_SETTLE_MS)) return;
      running.aim(target);
      raise();
      raisedAt = Date.now();
      if (target === 0) clearInterval(polling); // nothing runs: one signal, as from outside
    };
    polling = setInterval(tick, POLL_MS);
    tick();
  };
}
