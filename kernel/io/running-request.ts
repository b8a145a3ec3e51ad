// What the main thread is running, shared with the IO worker through a
// SharedArrayBuffer so that interrupts reach the right request safely: which
// shell request (a cell, mostly) runs, and whether cell code is running inside
// vm's breakOnSigint scope right now.
//
// Why the second: entering and leaving a breakOnSigint run, Node's vm leaves
// SIGINT at its default action (the process ends) for a moment, so a SIGINT
// may only be raised while the run's watchdog surely listens. The session
// calls `during(body)` from inside each run; the IO worker claims the run
// (IN_RUN -> SIGNALLING) before it raises SIGINT, and a run that ends while
// claimed does not leave: it waits for the signal's termination, which the
// watchdog delivers at once. So no SIGINT of the kernel's own ever meets the
// default action.
import type { SigintGate } from '../language-session.js';

const RUNNING = 0; // id of the shell request in progress, 0 when none
const RUN_STATE = 1; // OUTSIDE, IN_RUN or SIGNALLING
const INTERRUPT_SEEN = 2; // id of the last request whose interrupt message the main thread handled
const WAKE = 3; // never written: the slot a claimed run waits on
const CODE_RAN = 4; // id of the last request whose cell code started running
const WATCHDOG_TURN = 5; // FREE, MAIN or HOLDER: who is registering a SIGINT watchdog (sigint-watchdog-hold.ts)

const OUTSIDE = 0;
const IN_RUN = 1;
const SIGNALLING = 2;

const FREE = 0;
const MAIN = 1;
const HOLDER = 2;
/** A claimed run is terminated within microseconds; past this, something is wrong: go on. */
const CLAIMED_RUN_LIMIT_MS = 5000;

export class RunningRequest implements SigintGate {
  private lastId = 0;
  private readonly slots: Int32Array;

  constructor(readonly buffer = new SharedArrayBuffer(6 * Int32Array.BYTES_PER_ELEMENT)) {
    this.slots = new Int32Array(buffer);
  }

  /** Main thread: a request starts, before its busy status goes out (so an interrupt sent on seeing busy finds it). */
  begin(): void {
    this.lastId = (this.lastId % 0x7fffffff) + 1;
    Atomics.store(this.slots, RUNNING, this.lastId);
  }

  /** Main thread: the request has ended. */
  end(): void {
    Atomics.store(this.slots, RUNNING, 0);
  }

  /** The id of the request in progress, 0 when none. */
  running(): number {
    return Atomics.load(this.slots, RUNNING);
  }

  /**
   * Main thread, before a breakOnSigint run: waits while a watchdog holder re-enters its own run
   * (microseconds), so the main thread's watchdog is registered after the holders' and Node's
   * watchdog thread hands it a SIGINT first.
   */
  before(): void {
    for (let turn; (turn = Atomics.compareExchange(this.slots, WATCHDOG_TURN, FREE, MAIN)) === HOLDER;) Atomics.wait(this.slots, WATCHDOG_TURN, HOLDER, 1);
  }

  /** A watchdog holder, before it enters its run: waits until no main thread run is in progress. */
  holderBefore(): void {
    for (let turn; (turn = Atomics.compareExchange(this.slots, WATCHDOG_TURN, FREE, HOLDER)) !== FREE;) Atomics.wait(this.slots, WATCHDOG_TURN, turn);
  }

  /** A watchdog holder, once its watchdog is registered (inside its run) or its run has failed. */
  holderAfter(): void {
    if (Atomics.compareExchange(this.slots, WATCHDOG_TURN, HOLDER, FREE) === HOLDER) Atomics.notify(this.slots, WATCHDOG_TURN);
  }

  /** Main thread, inside a breakOnSigint run: cell code runs; the IO worker may signal meanwhile. */
  during<T>(body: () => T): T {
    Atomics.store(this.slots, CODE_RAN, this.lastId);
    Atomics.store(this.slots, RUN_STATE, IN_RUN);
    try {
      return body();
    } finally {
      this.leaveRun();
    }
  }

  /** Main thread, once a breakOnSigint run has returned or thrown (a terminated run skips `during`'s finally). */
  after(): void {
    Atomics.store(this.slots, RUN_STATE, OUTSIDE);
    Atomics.store(this.slots, WATCHDOG_TURN, FREE);
    Atomics.notify(this.slots, WATCHDOG_TURN);
  }

  /** Leaves the run unless the IO worker claimed it: then stays until the watchdog terminates it. */
  private leaveRun(): void {
    const until = Date.now() + CLAIMED_RUN_LIMIT_MS;
    while (Atomics.compareExchange(this.slots, RUN_STATE, IN_RUN, OUTSIDE) === SIGNALLING) {
      if (Date.now() > until) return this.after();
      Atomics.wait(this.slots, WAKE, 0, 1);
    }
  }

  /** IO worker: claims the run in progress for a SIGINT; true when cell code runs under vm's watchdog and stays there. */
  claimRun(): boolean {
    return Atomics.compareExchange(this.slots, RUN_STATE, IN_RUN, SIGNALLING) === IN_RUN;
  }

  /** IO worker: a claim whose SIGINT could not be raised is given back. */
  releaseRun(): void {
    Atomics.compareExchange(this.slots, RUN_STATE, SIGNALLING, IN_RUN);
  }

  /** Main thread: the interrupt message for request `id` was handled. */
  interruptSeen(id: number): void {
    Atomics.store(this.slots, INTERRUPT_SEEN, id);
  }

  /** IO worker: whether cell code of request `id` has started running (its compiling and type checks are over). */
  cellCodeRan(id: number): boolean {
    return Atomics.load(this.slots, CODE_RAN) === id;
  }

  /** IO worker: whether the main thread has handled the interrupt message for request `id`. */
  hasSeenInterrupt(id: number): boolean {
    return Atomics.load(this.slots, INTERRUPT_SEEN) === id;
  }
}
