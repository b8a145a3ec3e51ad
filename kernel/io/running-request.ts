// Which shell request (a cell, mostly) the main thread is running, shared with
// the IO worker through a SharedArrayBuffer so that interrupts reach the right
// one: the worker repeats its SIGINT for as long as the request it interrupts
// still runs, and the main thread's SIGINT listener ignores a repeat that lands
// after that request has ended.

const RUNNING = 0; // id of the request in progress, 0 when none
const AIMED = 1; // id the IO worker's latest SIGINT was raised for, 0 when none

export class RunningRequest {
  private lastId = 0;
  private readonly slots: Int32Array;

  constructor(readonly buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)) {
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

  /** The id of the request in progress, 0 when none. */
  running(): number {
    return Atomics.load(this.slots, RUNNING);
  }

  /** IO worker: whether its latest SIGINT, raised for `id`, still waits to be taken by the listener. */
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
