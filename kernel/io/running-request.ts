// What the main thread is running, shared with the IO worker through a
// SharedArrayBuffer so that interrupts reach the right request safely: which
// shell request (a cell, mostly) runs, which request the worker's latest SIGINT
// was raised for, and whether the main thread is inside a vm breakOnSigint run.

const RUNNING = 0; // id of the shell request in progress, 0 when none
const AIMED = 1; // id the IO worker's latest SIGINT was raised for, 0 once a listener took it
const IN_RUN = 2; // depth of breakOnSigint vm runs in progress
const RUN_SEQ = 3; // count of breakOnSigint vm runs started

export class RunningRequest {
  private lastId = 0;
  private readonly slots: Int32Array;
  /** IO worker: the run it saw last, and since when. */
  private seenRun = { seq: -1, since: 0 };

  constructor(readonly buffer = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT)) {
    this.slots = new Int32Array(buffer);
  }

  /** Main thread: a request starts, before its busy status goes out (so an interrupt sent on seeing busy finds it). */
  begin(): void {
    this.lastId = (this.lastId % 0x7fffffff) + 1;
    Atomics.store(this.slots, RUNNING, this.lastId);
  }

  /** Main thread: the request has ended. */
  end(): void {
    const ended = Atomics.exchange(this.slots, RUNNING, 0);
    // Forget the worker's aim at this request once any of its signals still queued has
    // reached the listener (that happens in the next poll phase, before the second check
    // phase), so that a later SIGINT from outside is not taken for one of them.
    setImmediate(() => setImmediate(() => Atomics.compareExchange(this.slots, AIMED, ended, 0)));
  }

  /** Main thread: a breakOnSigint vm run starts (before vm swaps the SIGINT listeners out) or has ended (after they are back). */
  enterRun(): void {
    Atomics.add(this.slots, RUN_SEQ, 1);
    Atomics.add(this.slots, IN_RUN, 1);
  }

  leaveRun(): void {
    Atomics.sub(this.slots, IN_RUN, 1);
  }

  /** The id of the request in progress, 0 when none. */
  running(): number {
    return Atomics.load(this.slots, RUNNING);
  }

  /**
   * IO worker: whether a SIGINT raised now is caught. Entering and leaving a breakOnSigint
   * run, vm briefly leaves SIGINT at its default action (the process ends): it is safe
   * outside runs (the listener is installed) and once a run has lasted `settleMs`.
   */
  safeToSignal(settleMs: number): boolean {
    if (Atomics.load(this.slots, IN_RUN) === 0) return true;
    const seq = Atomics.load(this.slots, RUN_SEQ);
    if (seq !== this.seenRun.seq) this.seenRun = { seq, since: Date.now() };
    return Date.now() - this.seenRun.since >= settleMs;
  }

  /** IO worker: whether its latest SIGINT, raised for `id`, was not taken by the listener. */
  unclaimed(id: number): boolean {
    return Atomics.load(this.slots, AIMED) === id;
  }

  /** IO worker: the SIGINT about to be raised is meant for request `id`. */
  aim(id: number): void {
    Atomics.store(this.slots, AIMED, id);
  }

  /**
   * Main thread, in the SIGINT listener: whether this signal should interrupt.
   * A signal from outside (no aim) always does; one of the IO worker's only if
   * the request it was raised for is still the one running.
   */
  claimSignal(): boolean {
    const aimed = Atomics.exchange(this.slots, AIMED, 0);
    return aimed === 0 || aimed === this.running();
  }
}
