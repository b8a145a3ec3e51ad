// interrupt_request, on the IO worker: raise SIGINT in this process. A SIGINT
// that lands while the main thread is busy but not inside vm's breakOnSigint
// scope (still compiling the cell, say) only queues for the main thread's JS
// listener, which a synchronous loop never lets run (or is dropped when vm
// swaps the listeners out). So while the interrupted request still runs and no
// listener has taken the signal, it is repeated until one hits the
// breakOnSigint watchdog, within a bound. Repeats are kept this few because
// Node has short windows (vm entering and leaving a breakOnSigint run) in
// which any SIGINT ends the process.
import type { RunningRequest } from './running-request.js';

const REPEAT_EVERY_MS = 100;
const REPEAT_FOR_MS = 5000;

export function interruptSignaller(running: RunningRequest, raise = () => process.kill(process.pid, 'SIGINT')): () => void {
  let repeating: NodeJS.Timeout | undefined;
  return function interrupt() {
    clearInterval(repeating);
    const target = running.running();
    running.aim(target);
    raise();
    if (target === 0) return; // nothing runs: one signal, as from outside
    const until = Date.now() + REPEAT_FOR_MS;
    repeating = setInterval(() => {
      const taken = running.running() !== target || !running.unclaimed(target);
      if (taken || Date.now() > until) return clearInterval(repeating);
      running.aim(target);
      raise();
    }, REPEAT_EVERY_MS);
  };
}
