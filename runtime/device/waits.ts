// Waiting for the device thread's replies: blocking the main thread (Atomics.wait on the
// shared reply counter, messages read with receiveMessageOnPort) or asynchronously (the
// port's listener). A blocking wait gives up when the device thread died or never started,
// and throws CancelledError when another thread asked for an interrupt (signal.ts).
import { performance } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import { emit, profiling, waitSite } from '../profiler/events.js';
import { CancelledError, DeviceError } from './device-errors.js';
import type { Reply } from './protocol.js';
import { SIGNAL, SIGNAL_DEAD, SIGNAL_INTERRUPT, SIGNAL_READY } from './signal.js';

export const START_TIMEOUT_MS = 20_000;
const WAIT_SLICE_MS = 50;

/** What waiting needs of the session. */
export interface WaitLink {
  /** Sends the commands batched so far (a wait must not wait for commands still on the host). */
  post(): void;
  /** Handles the device thread's messages that have arrived. */
  drain(): void;
  /** The port the replies come through (referenced while an asynchronous wait is pending). */
  port(): MessagePort | null;
  /** A closed session's device thread answers nothing: waiting on it would never end. */
  closed(): boolean;
}

export class Waits {
  private readonly counter = new Int32Array(SIGNAL);
  private readonly waiting = new Map<number, (r: Reply) => void>();
  /** Replies kept when they come before their wait begins (debug mode waits for a collective only once its peers are launched). */
  private readonly held = new Set<number>();
  private readonly unclaimed = new Map<number, Reply>();
  private asyncWaits = 0;

  constructor(private readonly link: WaitLink) {}

  /** Blocks the thread until the reply comes. */
  /** `profiled` false: no wait event (the other chips of a sync over all chips: one event for it). */
  sync(reply: number, reason: string, profiled = true): Reply {
    const early = this.claim(reply);
    if (early) return early;
    this.checkOpen();
    let result: Reply | undefined;
    this.waiting.set(reply, (r) => (result = r));
    this.link.post();
    const start = this.block(() => result !== undefined, () => {
      this.waiting.delete(reply);
      return new CancelledError(`the wait (${reason}) was interrupted`);
    });
    if (profiling.on && profiled) this.emitWait(start, reason);
    return result!;
  }

  async async(reply: number, reason: string, profiled = true): Promise<Reply> {
    const early = this.claim(reply);
    if (early) return early;
    this.checkOpen();
    const start = performance.now();
    // Captured before the first await, while the caller's frames are still on the stack.
    const site = profiling.on && profiled ? waitSite(Waits.prototype.async) : '';
    const r = await new Promise<Reply>((resolve) => {
      this.waiting.set(reply, resolve);
      if (this.asyncWaits++ === 0) this.link.port()!.ref();
    });
    if (--this.asyncWaits === 0) this.link.port()?.unref();
    if (profiling.on && profiled) this.emitWait(start, reason, site);
    return r;
  }

  /** Blocks until `done()` (the device queue drained enough to dispatch more); `interrupted`: the error an interrupt throws. */
  until(done: () => boolean, reason: string, interrupted: string): void {
    this.link.post();
    const start = this.block(done, () => new CancelledError(interrupted));
    if (profiling.on) this.emitWait(start, reason);
  }

  /** The reply `reply` is kept if it comes before its wait (others nobody waits for are dropped). */
  hold(reply: number): void {
    this.held.add(reply);
  }

  /** A reply came: its waiter resumes, or a held reply waits for its waiter. */
  resolve(msg: Reply): void {
    const resolve = this.waiting.get(msg.reply);
    this.waiting.delete(msg.reply);
    if (resolve) resolve(msg);
    else if (this.held.has(msg.reply)) this.unclaimed.set(msg.reply, msg);
  }

  private claim(reply: number): Reply | undefined {
    this.held.delete(reply);
    const r = this.unclaimed.get(reply);
    this.unclaimed.delete(reply);
    return r;
  }

  /** Every pending wait ends with `message` as its error. */
  failAll(message: string): void {
    this.held.clear();
    this.unclaimed.clear();
    for (const [reply, resolve] of this.waiting) {
      this.waiting.delete(reply);
      resolve({ t: 'reply', reply, error: message });
    }
  }

  private block(done: () => boolean, interrupted: () => Error): number {
    const start = performance.now();
    Atomics.store(this.counter, SIGNAL_INTERRUPT, 0); // an interrupt that reached no wait is stale
    while (!done()) {
      const seen = Atomics.load(this.counter, 0);
      this.link.drain();
      if (done()) break;
      this.checkAlive(start);
      if (Atomics.exchange(this.counter, SIGNAL_INTERRUPT, 0) !== 0) throw interrupted();
      Atomics.wait(this.counter, 0, seen, WAIT_SLICE_MS);
    }
    return start;
  }

  private checkOpen(): void {
    if (this.link.closed()) throw new DeviceError('the TPU session is closed (tpu.reset() or the process is exiting)');
  }

  private checkAlive(waitStart: number): void {
    if (Atomics.load(this.counter, SIGNAL_DEAD) !== 0) throw new DeviceError('the device thread died (see stderr); tpu.reset() starts a new session');
    if (Atomics.load(this.counter, SIGNAL_READY) === 0 && performance.now() - waitStart > START_TIMEOUT_MS) {
      throw new DeviceError(`the device thread did not start within ${START_TIMEOUT_MS / 1000} s (see stderr)`);
    }
  }

  /** `site`: the waiting caller's line, while the recording's budget of wait sites lasts (events.ts). */
  private emitWait(start: number, reason: string, site = waitSite(Waits.prototype.emitWait)): void {
    const end = performance.now();
    profiling.waitedMs += end - start;
    emit({ kind: 'wait', start, end, reason, site });
  }
}
