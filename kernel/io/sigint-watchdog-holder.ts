// A watchdog holder (sigint-watchdog-hold.ts): sits in a breakOnSigint run until released.
// A SIGINT that reaches it (no cell code ran) is passed to the main thread, and it enters again.

import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { RunningRequest } from './running-request.js';
import { IN_RUN, OPEN, READY, RELEASED, SIGINT } from './sigint-watchdog-hold.js';

const { runningRequest, words } = workerData as { runningRequest: SharedArrayBuffer; words: Int32Array };
const running = new RunningRequest(runningRequest);
let counted = false;
/** Runs inside the run, once this thread's watchdog is registered. */
(globalThis as Record<string, unknown>).__tpu_hold = () => {
  running.holderAfter();
  counted = true;
  Atomics.add(words, IN_RUN, 1);
  Atomics.notify(words, IN_RUN);
  Atomics.wait(words, RELEASED, 0);
};
const hold = new vm.Script('__tpu_hold()', { filename: 'tpu-kernel-sigint-hold' });

// Booted: the main thread opens the way once both holders are here (sigint-watchdog-hold.ts).
parentPort!.postMessage(READY);
Atomics.wait(words, OPEN, 0);
while (Atomics.load(words, RELEASED) === 0) {
  running.holderBefore();
  let interrupted = false;
  try {
    hold.runInThisContext({ breakOnSigint: true });
  } catch {
    interrupted = true; // only a SIGINT ends the run by throwing
  }
  running.holderAfter();
  if (counted) (counted = false), Atomics.sub(words, IN_RUN, 1), Atomics.notify(words, IN_RUN);
  if (interrupted) parentPort!.postMessage(SIGINT);
}
