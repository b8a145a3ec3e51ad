// The host side of the TPU session: owns the device thread, names device buffers, batches
// commands to the device, accounts memory, and waits at sync points (asynchronously, or
// blocking with Atomics.wait + receiveMessageOnPort). Errors of asynchronous work are
// kept here and thrown at the next sync point, naming the op and where it was called.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { numel, type Shape } from '../shape.js';
import type { DType, StorageArray } from '../dtype.js';
import type { Program } from '../compiler/program.js';
import { emit, onProfilingToggle, profiling, waitSite } from '../profiler/events.js';
import { DeviceBuffer, MemoryAccount } from './memory.js';
import { CommandEncoder, type Command, type DeviceMessage, type DeviceStats, type DeviceThreadData, type HostMessage } from './protocol.js';
import { settings } from './settings.js';
import { userFrameLater, type Site } from '../call-site.js';

export class DeviceError extends Error {
  override name = 'DeviceError';
}
export class CancelledError extends Error {
  override name = 'CancelledError';
}

type Reply = Extract<DeviceMessage, { t: 'reply' }>;

/**
 * Shared words: [0] replies posted (the host waits on it), [1] device thread died,
 * [2] device thread ready, [3] interrupt requested. One buffer per process, so a thread
 * given it once (the kernel's control thread) can interrupt waits of every session.
 */
const SIGNAL = new SharedArrayBuffer(16);
export const SIGNAL_DEAD = 1;
export const SIGNAL_READY = 2;
export const SIGNAL_INTERRUPT = 3;
const START_TIMEOUT_MS = 20_000;

/** The buffer behind requestInterrupt (see interruptWaits). */
export function interruptBuffer(): SharedArrayBuffer {
  return SIGNAL;
}

/**
 * From any thread holding interruptBuffer(): makes a blocking wait on the main thread
 * throw CancelledError (then call tpu.cancelPending() on the main thread).
 */
export function interruptWaits(buffer: SharedArrayBuffer): void {
  const words = new Int32Array(buffer);
  Atomics.store(words, SIGNAL_INTERRUPT, 1);
  Atomics.notify(words, 0);
}

/** What interruptWaits does, as data, for a thread that does not load the runtime: set word `flag` to 1, wake word `notify`. */
export function interruptWake(): { buffer: SharedArrayBuffer; flag: number; notify: number } {
  return { buffer: SIGNAL, flag: SIGNAL_INTERRUPT, notify: 0 };
}
const BATCH_LIMIT = 256;
/** Launches in flight before dispatch waits for the device (bounds the queue in long loops). */
const MAX_IN_FLIGHT = 16384;
const WAIT_SLICE_MS = 50;
/** Call sites of launches in flight, by launch number modulo its size (> MAX_IN_FLIGHT + 1). */
const SITE_RING = 32768;

export class DeviceSession {
  readonly memory: MemoryAccount;
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly signal = SIGNAL;
  private readonly counter = new Int32Array(SIGNAL);
  private batch = new CommandEncoder();
  private transfers: ArrayBuffer[] = [];
  private flushScheduled = false;
  private closed = false;
  /** The reply the device thread owes once it has stopped (0: not asked yet), and whether it came. */
  private stopReply = 0;
  private stopped = false;
  private nextBuffer = 1;
  private nextProgram = 1;
  private nextLaunch = 1;
  private nextReply = 1;
  private doneUpTo = 0;
  /** Where each launch in flight was called (null when call sites are off): a ring, no per-launch allocation. */
  private readonly launchSites: (Site | null)[] = new Array(SITE_RING).fill(null);
  /** What each program is, and the line that first compiled it (captured on a miss only). */
  private readonly programInfo = new Map<number, { label: string; compiledAt: () => string }>();
  /** Evicted programs, forgotten here once the launches queued before the eviction are done: [program, launch] pairs. */
  private releasing: number[] = [];
  /** Tensors given a buffer since the last batch: registered with the finalizer then, unless already disposed. */
  private youngOwners: object[] = [];
  private youngBuffers: DeviceBuffer[] = [];
  private readonly waiting = new Map<number, (r: Reply) => void>();
  private asyncWaits = 0;
  private deviceErrors: string[] = [];
  private readonly finalizer = new FinalizationRegistry<DeviceBuffer>((b) => this.free(b));
  /** The most launches queued or running at once since a recording last reset it (the profiler's max queue depth). */
  queueHigh = 0;
  /** Host<->device traffic in bytes. */
  bytesToDevice = 0;
  bytesToHost = 0;
  /** Device-side timings of programs, host clock (ms), while profiling. */
  private readonly clockOffset = performance.timeOrigin;

  constructor() {
    this.memory = new MemoryAccount(settings.capacityBytes(), settings.capacityLabel);
    onProfilingToggle((on) => this.enqueue({ t: 'profile', on }));
    if (profiling.on) this.enqueue({ t: 'profile', on: true });
  }

  // ---- buffers -------------------------------------------------------------

  allocate(dtype: DType, shape: Shape, origin: string): DeviceBuffer {
    this.memory.capacityBytes = settings.capacityBytes();
    return this.memory.allocate(this.nextBuffer++, dtype, shape, numel(shape), origin);
  }

  upload(buffer: DeviceBuffer, data: StorageArray): void {
    this.bytesToDevice += data.byteLength;
    if (profiling.on) emit({ kind: 'transfer', time: performance.now(), direction: 'toDevice', bytes: data.byteLength });
    this.transfers.push(data.buffer as ArrayBuffer);
    this.enqueue({ t: 'upload', buffer: buffer.id, dtype: buffer.dtype, data });
  }

  free(buffer: DeviceBuffer): void {
    if (!this.memory.release(buffer)) return;
    this.batch.free(buffer.id);
    this.scheduled();
  }

  /**
   * The safety net: a buffer whose tensor is garbage-collected gets freed. Registering
   * costs more than a strict dispatch and most tensors of a loop are disposed at once, so
   * tensors are registered when the batch goes out, if they still hold their buffer.
   */
  track(owner: object, buffer: DeviceBuffer): void {
    this.youngOwners.push(owner);
    this.youngBuffers.push(buffer);
  }

  private registerYoung(): void {
    const owners = this.youngOwners;
    const buffers = this.youngBuffers;
    for (let i = 0; i < owners.length; i++) if (!buffers[i]!.freed) this.finalizer.register(owners[i]!, buffers[i]!);
    owners.length = 0;
    buffers.length = 0;
  }

  // ---- programs --------------------------------------------------------------

  compile(program: Program, label: string): number {
    const id = this.nextProgram++;
    this.programInfo.set(id, { label, compiledAt: userFrameLater(this.compile) });
    this.enqueue({ t: 'compile', program: id, ir: program });
    return id;
  }

  /** The program was evicted from the cache: its executable is freed after the launches queued so far. */
  releaseProgram(id: number): void {
    this.enqueue({ t: 'release', program: id });
    this.releasing.push(id, this.nextLaunch - 1);
  }

  /** Enqueues one execution; with `check`, returns the reply id to wait on. */
  execute(
    program: number, ins: readonly DeviceBuffer[], outs: readonly DeviceBuffer[], scalars: readonly number[],
    site: Site | null, check = false,
  ): number | undefined {
    if (this.nextLaunch - this.doneUpTo > MAX_IN_FLIGHT) this.throttle();
    const launch = this.nextLaunch++;
    if (launch - this.doneUpTo > this.queueHigh) this.queueHigh = launch - this.doneUpTo;
    this.launchSites[launch % SITE_RING] = site;
    const reply = check ? this.nextReply++ : 0;
    this.batch.exec(program, launch, ins, outs, scalars, reply);
    this.scheduled();
    return check ? reply : undefined;
  }

  /** Blocks until the device has caught up to half the in-flight limit. */
  private throttle(): void {
    this.postBatch();
    const start = performance.now();
    Atomics.store(this.counter, SIGNAL_INTERRUPT, 0); // an interrupt that reached no wait is stale
    while (this.nextLaunch - this.doneUpTo > MAX_IN_FLIGHT / 2) {
      const seen = Atomics.load(this.counter, 0);
      this.drainPort();
      if (this.nextLaunch - this.doneUpTo <= MAX_IN_FLIGHT / 2) break;
      this.checkAlive(start);
      if (Atomics.exchange(this.counter, SIGNAL_INTERRUPT, 0) !== 0) throw new CancelledError('dispatch was interrupted while the device queue was full');
      Atomics.wait(this.counter, 0, seen, WAIT_SLICE_MS);
    }
    if (profiling.on) this.emitWait(start, 'device queue full');
  }

  /** Launches queued or running on the device. */
  queueDepth(): number {
    return this.nextLaunch - 1 - this.doneUpTo;
  }

  // ---- sync points -----------------------------------------------------------

  downloadSync(buffer: DeviceBuffer, reason: string): StorageArray {
    const reply = this.request({ t: 'download', buffer: buffer.id, reply: 0 });
    return this.received(this.waitSync(reply, reason));
  }

  async download(buffer: DeviceBuffer, reason: string): Promise<StorageArray> {
    const reply = this.request({ t: 'download', buffer: buffer.id, reply: 0 });
    return this.received(await this.waitAsync(reply, reason));
  }

  fenceSync(reason: string): void {
    this.check(this.waitSync(this.request({ t: 'fence', reply: 0 }), reason));
  }

  async fence(reason: string): Promise<void> {
    this.check(await this.waitAsync(this.request({ t: 'fence', reply: 0 }), reason));
  }

  /**
   * At process exit, before Node terminates the device thread (every ending but a fatal
   * signal): blocks until the thread has left ONNX Runtime for good. Queued work is dropped.
   */
  stopForExit(): void {
    if (!this.worker || this.closed) return;
    try {
      const reply = this.requestStop();
      if (!this.stopped) this.waitSync(reply, 'process exit');
    } catch {
      // The thread died, or an interrupt came: either way nothing more is waited for.
    }
    this.closed = true;
    this.failAllWaits('the process is exiting');
    this.memory.loseAll();
  }

  /** Waits for a checked execution (debug mode); returns the indices of non-finite outputs. */
  waitChecked(reply: number, reason: string): number[] {
    const r = this.waitSync(reply, reason);
    if (r.error !== undefined) this.throwPendingErrors();
    return r.nonFinite ?? [];
  }

  /** Throws the first device error recorded since the last sync point, if any. */
  throwPendingErrors(): void {
    if (this.deviceErrors.length === 0) return;
    const [first, ...rest] = this.deviceErrors;
    this.deviceErrors = [];
    const more = rest.length ? `\n(${rest.length} later device error${rest.length > 1 ? 's' : ''} suppressed)` : '';
    throw new DeviceError(first + more);
  }

  /**
   * For an interrupt: rejects pending waits, drops executions not yet started (their
   * outputs become unreadable), keeps every materialized tensor and every upload.
   */
  cancelPending(): number {
    // The device thread drops every queued execution, including this batch's.
    const queued = this.queueDepth();
    this.postBatch();
    if (this.worker) this.worker.postMessage({ t: 'cancel' });
    this.failAllWaits('\0cancelled');
    return queued;
  }

  // ---- plumbing --------------------------------------------------------------

  private received(r: Reply): StorageArray {
    this.check(r);
    this.bytesToHost += r.data!.byteLength;
    if (profiling.on) emit({ kind: 'transfer', time: performance.now(), direction: 'toHost', bytes: r.data!.byteLength });
    return r.data!;
  }

  private check(r: Reply): void {
    if (r.error === '\0cancelled') throw new CancelledError('the wait was cancelled (tpu.cancelPending)');
    this.throwPendingErrors();
    if (r.error !== undefined) throw new DeviceError(r.error);
  }

  /** The device thread's figures once the work queued so far ran. */
  async deviceStats(): Promise<DeviceStats> {
    const r = await this.waitAsync(this.request({ t: 'stats', reply: 0 }), 'tpu.deviceStats');
    this.check(r);
    return r.stats!;
  }

  private request(cmd: Extract<Command, { t: 'download' | 'fence' | 'stats' }>): number {
    cmd.reply = this.nextReply++;
    this.enqueue(cmd);
    this.postBatch();
    return cmd.reply;
  }

  private waitSync(reply: number, reason: string): Reply {
    this.checkOpen();
    const start = performance.now();
    let result: Reply | undefined;
    this.waiting.set(reply, (r) => (result = r));
    this.postBatch();
    Atomics.store(this.counter, SIGNAL_INTERRUPT, 0);
    while (result === undefined) {
      const seen = Atomics.load(this.counter, 0);
      this.drainPort();
      if (result !== undefined) break;
      this.checkAlive(start);
      if (Atomics.exchange(this.counter, SIGNAL_INTERRUPT, 0) !== 0) {
        this.waiting.delete(reply);
        throw new CancelledError(`the wait (${reason}) was interrupted`);
      }
      Atomics.wait(this.counter, 0, seen, WAIT_SLICE_MS);
    }
    if (profiling.on) this.emitWait(start, reason);
    return result;
  }

  /** A closed session's device thread answers nothing: waiting on it would never end. */
  private checkOpen(): void {
    if (this.closed) throw new DeviceError('the TPU session is closed (tpu.reset() or the process is exiting)');
  }

  private checkAlive(waitStart: number): void {
    if (Atomics.load(this.counter, SIGNAL_DEAD) !== 0) throw new DeviceError('the device thread died (see stderr); tpu.reset() starts a new session');
    if (Atomics.load(this.counter, SIGNAL_READY) === 0 && performance.now() - waitStart > START_TIMEOUT_MS) {
      throw new DeviceError(`the device thread did not start within ${START_TIMEOUT_MS / 1000} s (see stderr)`);
    }
  }

  private async waitAsync(reply: number, reason: string): Promise<Reply> {
    this.checkOpen();
    const start = performance.now();
    // Captured before the first await, while the caller's frames are still on the stack.
    const site = profiling.on ? waitSite(this.waitAsync) : '';
    const r = await new Promise<Reply>((resolve) => {
      this.waiting.set(reply, resolve);
      if (this.asyncWaits++ === 0) this.port!.ref();
    });
    if (--this.asyncWaits === 0) this.port?.unref();
    if (profiling.on) this.emitWait(start, reason, site);
    return r;
  }

  /** `site`: the waiting caller's line, while the recording's budget of wait sites lasts (events.ts). */
  private emitWait(start: number, reason: string, site = waitSite(this.emitWait)): void {
    const end = performance.now();
    profiling.waitedMs += end - start;
    emit({ kind: 'wait', start, end, reason, site });
  }

  private drainPort(): void {
    for (let m = receiveMessageOnPort(this.port!); m; m = receiveMessageOnPort(this.port!)) {
      this.onMessage(m.message as DeviceMessage);
    }
  }

  private onMessage(msg: DeviceMessage): void {
    if (msg.t === 'reply') {
      if (msg.reply === this.stopReply) this.stopped = true;
      const resolve = this.waiting.get(msg.reply);
      this.waiting.delete(msg.reply);
      resolve?.(msg);
      return;
    }
    for (const e of msg.errors ?? []) {
      const site = this.launchSites[e.launch % SITE_RING];
      const info = this.programInfo.get(e.program);
      const label = info?.label ?? `program ${e.program}`;
      const where = site
        ? `called at ${site.format()}`
        : `first compiled at ${info ? info.compiledAt() : 'an unknown line'}; tpu.setCallSites(true) names the exact call`;
      this.deviceErrors.push(`${label} failed on the device (${where}): ${e.message}`);
    }
    for (let l = this.doneUpTo + 1; l <= msg.upTo; l++) this.launchSites[l % SITE_RING] = null;
    this.doneUpTo = Math.max(this.doneUpTo, msg.upTo);
    this.forgetReleased();
    if (!profiling.on) return;
    const t = msg.timings ?? [];
    for (let i = 0; i < t.length; i += 4) {
      emit({ kind: 'execute', launch: t[i]!, program: t[i + 1]!, start: t[i + 2]! - this.clockOffset, end: t[i + 3]! - this.clockOffset });
    }
    const c = msg.compiles ?? [];
    for (let i = 0; i < c.length; i += 3) emit({ kind: 'compile', program: c[i]!, time: c[i + 1]! - this.clockOffset, ms: c[i + 2]! });
  }

  private forgetReleased(): void {
    const r = this.releasing;
    if (r.length === 0) return;
    this.releasing = [];
    for (let i = 0; i < r.length; i += 2) {
      if (r[i + 1]! <= this.doneUpTo) this.programInfo.delete(r[i]!);
      else this.releasing.push(r[i]!, r[i + 1]!);
    }
  }

  private enqueue(cmd: Command): void {
    this.batch.object(cmd);
    this.scheduled();
  }

  private scheduled(): void {
    if (this.batch.count >= BATCH_LIMIT) this.postBatch();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.postBatch());
    }
  }

  private postBatch(): void {
    this.flushScheduled = false;
    this.registerYoung();
    if (this.batch.count === 0 || this.closed) return;
    const msg = this.batch.take();
    const transfers = this.transfers;
    this.transfers = [];
    if (msg.t === 'batch') transfers.push(msg.stream.buffer as ArrayBuffer);
    this.start().postMessage(msg, transfers);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { port1, port2 } = new MessageChannel();
    const data: DeviceThreadData = { threads: settings.threads(), signal: this.signal, port: port2 };
    Atomics.store(this.counter, SIGNAL_DEAD, 0);
    Atomics.store(this.counter, SIGNAL_READY, 0);
    // A worker inherits the main thread's options, V8 flags (--expose-gc) included; only --input-type,
    // valid for the main entry alone, makes an explicit list necessary, and Node refuses V8 flags
    // in one (they are process-wide anyway): then the thread gets none.
    const spawn = (execArgv?: string[]) => new Worker(new URL('./device-thread.js', import.meta.url), { workerData: data, transferList: [port2], execArgv });
    const entryOnly = (a: string) => a.startsWith('--input-type');
    try {
      this.worker = spawn(process.execArgv.some(entryOnly) ? process.execArgv.filter((a) => !entryOnly(a)) : undefined);
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
      this.worker = spawn([]);
    }
    this.worker.on('error', (e) => {
      if (this.closed) return; // the shared signal now belongs to the next session
      Atomics.store(this.counter, SIGNAL_DEAD, 1);
      this.failAllWaits(`the device thread failed: ${e.message}`);
    });
    this.worker.unref();
    this.port = port1;
    port1.on('message', (m: DeviceMessage) => this.onMessage(m));
    port1.unref();
    return this.worker;
  }

  private failAllWaits(message: string): void {
    for (const [reply, resolve] of this.waiting) {
      this.waiting.delete(reply);
      resolve({ t: 'reply', reply, error: message });
    }
  }

  /**
   * Asks the device thread to stop: it drops its queue and ignores later messages, and the
   * returned reply comes once its running program is done. Terminating the thread while it is
   * inside ONNX Runtime aborts the whole process.
   */
  private requestStop(): number {
    if (this.stopReply === 0) {
      this.stopReply = this.nextReply++;
      this.worker!.postMessage({ t: 'stop', reply: this.stopReply } satisfies HostMessage);
    }
    return this.stopReply;
  }

  /** Ends the device thread (used by %reset and by the kernel's shutdown). Buffers are gone afterwards. */
  async close(): Promise<void> {
    if (this.worker && !this.closed) {
      this.cancelPending();
      const reply = this.requestStop();
      if (!this.stopped) await this.waitAsync(reply, 'tpu.reset');
    }
    this.closed = true;
    this.failAllWaits('the TPU session was reset');
    this.memory.loseAll();
    const w = this.worker;
    this.worker = null;
    this.port?.close();
    if (w) await w.terminate();
  }
}
