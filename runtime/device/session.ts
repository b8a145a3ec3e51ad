// The host side of the TPU session: owns the device thread, names device buffers and
// programs, accounts memory, and turns sync points into requests the device thread answers.
// Batching (command-batch.ts), waiting (waits.ts) and naming the call behind a device error
// (device-errors.ts) are its parts.
import { MessageChannel, receiveMessageOnPort, SHARE_ENV, Worker, type MessagePort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { numel, type Shape } from '../shape.js';
import type { DType, StorageArray } from '../dtype.js';
import type { Program } from '../program/program.js';
import { emit, onProfilingToggle, profiling } from '../profiler/events.js';
import { DeviceBuffer, MemoryAccount } from './memory.js';
import { ReclaimingRegistry } from './gc-pressure.js';
import { YoungTensors, youngWeakAddon } from './young-tensors.js';
import { isPooledSize } from './pooled-size.js';
import type { Command, DeviceMessage, DeviceStats, DeviceThreadData, HostMessage, IciEnd, ProgramDescription, Progress, Reply } from './protocol.js';
import { settings } from './settings.js';
import { userFrameLater, type Site } from '../call-site.js';
import { CommandBatch } from './command-batch.js';
import { CancelledError, DeviceError, ErrorAttribution, failureText, MAX_IN_FLIGHT } from './device-errors.js';
import { SIGNAL, SIGNAL_DEAD, SIGNAL_READY } from './signal.js';
import { START_TIMEOUT_MS, Waits } from './waits.js';
import { backendName } from './backend-choice.js';
import { TpuUnavailableError } from './pjrt/tpu-client.js';

export class DeviceSession {
  readonly memory: MemoryAccount;
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly counter = new Int32Array(SIGNAL);
  private readonly batch = new CommandBatch(() => this.postBatch());
  /** Programs compiled on this chip's device thread (program ids are shared by all chips). */
  private readonly compiled = new Set<number>();
  private readonly errors: ErrorAttribution;
  private readonly waits = new Waits({
    post: () => this.postBatch(),
    drain: () => this.drainPort(),
    port: () => this.port,
    closed: () => this.closed,
  });
  private closed = false;
  /** The reply the device thread owes once it has stopped (0: not asked yet), and whether it came. */
  private stopReply = 0;
  private stopped = false;
  private nextBuffer = 1;
  private nextLaunch = 1;
  private nextReply = 1;
  private doneUpTo = 0;
  /** Batches posted to the device thread, and how many of them the last fence that came back covered. */
  private batchesPosted = 0;
  private batchesFenced = 0;
  /** Tensors given a buffer since the last batch: registered with the finalizer then, unless already disposed. */
  private youngOwners: object[] = [];
  private youngBuffers: DeviceBuffer[] = [];
  // A collected tensor's buffer may still be read by a recipe or a pending region (they pin
  // it, modes/recipes.ts): it is then freed by the last unpin, as a dispose() would be.
  private readonly finalizer = new ReclaimingRegistry<DeviceBuffer>((b) => this.collected(b));
  /** Pooled-size buffers freed since the batch's last post (free). */
  private pendingFrees: number[] = [];
  /** Watches young tensors, to free a chain's temporaries after a scavenge (undefined until its addon is built, or without one). */
  private young: YoungTensors | undefined;
  /** The most launches queued or running at once since a recording last reset it (the profiler's max queue depth). */
  queueHigh = 0;
  /** Host<->device traffic in bytes. */
  bytesToDevice = 0;
  bytesToHost = 0;
  /** Device-side timings of programs, host clock (ms), while profiling. */
  private readonly clockOffset = performance.timeOrigin;

  /**
   * `chip`: which emulated chip this session is; `ici`: its links to the other chips (collectives),
   * null for a single chip.
   */
  constructor(readonly chip = 0, private readonly ici: IciEnd | null = null) {
    this.errors = new ErrorAttribution(chip, ici !== null);
    const backend = backendName();
    if (backend === 'tpu') this.startOrThrow();
    this.memory = new MemoryAccount(settings.capacityBytes(), settings.capacityLabel, chip, () => {
      this.registerYoung();
      this.errors.settleSites();
      if (!this.finalizer.reclaimNow()) return false;
      this.young?.sweep(); // after the full collection
      return true;
    });
    void youngWeakAddon().then((addon) => {
      if (!addon) return;
      this.young = new YoungTensors(addon, (b) => this.collected(b), (owner, b) => this.finalizer.register(owner, b), () => this.errors.settleSites());
    });
    onProfilingToggle((on) => this.batch.object({ t: 'profile', on }));
    if (profiling.on) this.batch.object({ t: 'profile', on: true });
  }

  // ---- buffers -------------------------------------------------------------

  allocate(dtype: DType, shape: Shape, origin: string): DeviceBuffer {
    this.memory.capacityBytes = settings.capacityBytes();
    return this.memory.allocate(this.nextBuffer++, dtype, shape, numel(shape), origin);
  }

  /** Throws out-of-memory unless `bytes` more fit on this chip now (allocates nothing). */
  reserve(bytes: number, what: string, origin: string): void {
    this.memory.capacityBytes = settings.capacityBytes();
    this.memory.reserve(bytes, what, origin);
  }

  upload(buffer: DeviceBuffer, data: StorageArray): void {
    this.bytesToDevice += data.byteLength;
    if (profiling.on) emit({ kind: 'transfer', time: performance.now(), direction: 'toDevice', bytes: data.byteLength });
    this.batch.object({ t: 'upload', buffer: buffer.id, dtype: buffer.dtype, data }, data.buffer as ArrayBuffer);
  }

  /**
   * An in-place update: `buffer` (the new value) takes a copy of `old` on the device if the launch
   * computing it fails, so an error ahead of an optimizer step leaves the parameters as they were.
   */
  keepOnFailure(buffer: DeviceBuffer, old: DeviceBuffer): void {
    this.batch.restore(buffer.id, old.id);
  }

  /**
   * Frees `buffer` on the device. A pooled size's free waits for the batch to go out, where it
   * is placed right after the last command of the batch naming the buffer: a chain's
   * temporaries, disposed by `tpu.scope` or `dispose()` or found dead by the young tensors'
   * sweep, come back to the device's pool within the batch, while in cache, as PyTorch's
   * reference counts free a temporary after its last reader (W2 in a scope: the frees at the
   * step's end cycled the device through a step's worth of cold buffers). Smaller buffers, which
   * the pool leaves to V8, are freed in place: placing the thousands a loop of tiny ops drops
   * cost more than their reuse could give.
   */
  free(buffer: DeviceBuffer): void {
    if (!this.memory.release(buffer)) return;
    if (!isPooledSize(buffer.bytes)) this.batch.free(buffer.id);
    else {
      this.pendingFrees.push(buffer.id);
      this.batch.postSoon();
    }
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
    for (let i = 0; i < owners.length; i++) {
      const b = buffers[i]!;
      if (b.freed) continue;
      if (this.young) this.young.watch(owners[i]!, b);
      else this.finalizer.register(owners[i]!, b);
    }
    owners.length = 0;
    buffers.length = 0;
  }

  /** A tensor was garbage-collected: its buffer is freed, now or by its last unpin. */
  private collected(b: DeviceBuffer): void {
    if (b.pins > 0) b.disposeRequested = true;
    else this.free(b);
  }

  // ---- programs --------------------------------------------------------------

  /** Sends program `id` (numbered by the program cache, shared by the chips) to compile. */
  compile(program: Program, label: string, id: number): void {
    this.errors.compiled(id, label, userFrameLater(this.compile));
    this.batch.object({ t: 'compile', program: id, ir: program });
    this.compiled.add(id);
  }

  /** Compiles program `id` here unless this chip has it already (a program runs on the chips that use it). */
  ensureCompiled(id: number, cache: { get(id: number): { program: Program } | undefined }, bp: { label(): string }): void {
    if (!this.compiled.has(id)) this.compile(cache.get(id)!.program, bp.label(), id);
  }

  /** The program was evicted from the cache: its executable is freed after the launches queued so far. */
  releaseProgram(id: number): void {
    if (!this.compiled.delete(id)) return;
    this.batch.object({ t: 'release', program: id });
    this.errors.released(id, this.nextLaunch - 1);
  }

  /** Sends the commands batched so far (a collective's peers must not wait for commands still on the host). */
  post(): void {
    this.postBatch();
  }

  /** Enqueues one execution; with `check`, returns the reply id to wait on. */
  execute(
    program: number, ins: readonly DeviceBuffer[], outs: readonly DeviceBuffer[], scalars: readonly number[],
    site: Site | null, check = false,
  ): number | undefined {
    this.makeRoom();
    const launch = this.nextLaunch++;
    if (launch - this.doneUpTo > this.queueHigh) this.queueHigh = launch - this.doneUpTo;
    this.errors.launched(launch, site);
    const reply = check ? this.nextReply++ : 0;
    this.batch.exec(program, launch, ins, outs, scalars, reply);
    return check ? reply : undefined;
  }

  /**
   * Waits while the device queue is full (a long loop without sync points). Several chips'
   * programs wait here before any is enqueued: an interrupt during the wait must not leave a
   * collective's peers enqueued without it.
   */
  makeRoom(): void {
    if (this.nextLaunch - this.doneUpTo <= MAX_IN_FLIGHT) return;
    const drained = () => this.nextLaunch - this.doneUpTo <= MAX_IN_FLIGHT / 2;
    this.waits.until(drained, 'device queue full', 'dispatch was interrupted while the device queue was full');
  }

  /** Launches queued or running on the device. */
  queueDepth(): number {
    return this.nextLaunch - 1 - this.doneUpTo;
  }

  // ---- sync points -----------------------------------------------------------

  downloadSync(buffer: DeviceBuffer, reason: string): StorageArray {
    const reply = this.request({ t: 'download', buffer: buffer.id, reply: 0 });
    return this.received(this.waits.sync(reply, reason));
  }

  async download(buffer: DeviceBuffer, reason: string): Promise<StorageArray> {
    const reply = this.request({ t: 'download', buffer: buffer.id, reply: 0 });
    return this.received(await this.waits.async(reply, reason));
  }

  /** `profiled` false: no wait event (chips after the first of a sync over all chips). */
  fenceSync(reason: string, profiled = true): void {
    if (this.fenced()) return this.throwPendingErrors();
    const reply = this.request({ t: 'fence', reply: 0 });
    const covers = this.batchesPosted;
    this.check(this.waits.sync(reply, reason, profiled));
    this.batchesFenced = Math.max(this.batchesFenced, covers);
  }

  async fence(reason: string, profiled = true): Promise<void> {
    if (this.fenced()) return this.throwPendingErrors();
    const reply = this.request({ t: 'fence', reply: 0 });
    const covers = this.batchesPosted;
    this.check(await this.waits.async(reply, reason, profiled));
    this.batchesFenced = Math.max(this.batchesFenced, covers);
  }

  /**
   * Nothing was queued since a fence came back: a new one would find the device idle. Every
   * cell ends with a sync, and a cell without tensor work would otherwise wake the device thread
   * and wait for its answer.
   */
  private fenced(): boolean {
    return this.batchesFenced === this.batchesPosted && this.batch.empty && this.pendingFrees.length === 0;
  }

  /** Keeps a checked execution's reply until waitChecked asks for it (a collective waited for after its peers' launch). */
  holdReply(reply: number): void {
    this.waits.hold(reply);
  }

  /** Waits for a checked execution (debug mode); returns the indices of non-finite outputs. */
  waitChecked(reply: number, reason: string): number[] {
    const r = this.waits.sync(reply, reason);
    if (r.error !== undefined) this.check(r);
    return r.nonFinite ?? [];
  }

  /** Waits for the buffer's value; whether it holds NaN or Inf (debug mode's check of a composed op's result). */
  hasNonFiniteSync(buffer: DeviceBuffer, reason: string): boolean {
    const r = this.waits.sync(this.request({ t: 'check', buffer: buffer.id, reply: 0 }), reason);
    this.check(r);
    return r.nonFinite!.length > 0;
  }

  /** Throws the first device error recorded since the last sync point, if any. */
  throwPendingErrors(): void {
    this.errors.throwPending();
  }

  /** The device thread's figures once the work queued so far ran. */
  async deviceStats(): Promise<DeviceStats> {
    const r = await this.waits.async(this.request({ t: 'stats', reply: 0 }), 'tpu.deviceStats');
    this.check(r);
    return r.stats!;
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
    this.waits.failAll('\0cancelled');
    return queued;
  }

  private received(r: Reply): StorageArray {
    this.check(r);
    this.bytesToHost += r.data!.byteLength;
    if (profiling.on) emit({ kind: 'transfer', time: performance.now(), direction: 'toHost', bytes: r.data!.byteLength });
    return r.data!;
  }

  private check(r: Reply): void {
    if (r.error === '\0cancelled') throw new CancelledError('the wait was cancelled (tpu.cancelPending)');
    this.throwPendingErrors();
    if (r.error === undefined) return;
    throw new DeviceError(r.root ? failureText(r.root, r.error, this.chip) : r.error);
  }

  /** How the device thread runs compiled program `id` now, once the work queued so far ran (undefined: not compiled on this chip, or the backend does not say). */
  describeProgram(id: number): ProgramDescription | undefined {
    const r = this.waits.sync(this.request({ t: 'describe', program: id, reply: 0 }), 'tpu.profiler.lastProgram');
    this.check(r);
    return r.description;
  }

  private request(cmd: Extract<Command, { t: 'download' | 'check' | 'fence' | 'stats' | 'describe' }>): number {
    cmd.reply = this.nextReply++;
    this.batch.object(cmd);
    this.postBatch();
    return cmd.reply;
  }

  // ---- the device thread -----------------------------------------------------

  private drainPort(): void {
    for (let m = receiveMessageOnPort(this.port!); m; m = receiveMessageOnPort(this.port!)) {
      this.onMessage(m.message as DeviceMessage);
    }
  }

  private onMessage(msg: DeviceMessage): void {
    if (msg.t === 'startFailed') return; // startOrThrow took it
    if (msg.t === 'reply') {
      if (msg.progress) this.progressed(msg.progress);
      if (msg.reply === this.stopReply) this.stopped = true;
      this.waits.resolve(msg);
      return;
    }
    this.progressed(msg);
  }

  private progressed(msg: Progress): void {
    this.errors.progress(msg, this.doneUpTo);
    this.doneUpTo = Math.max(this.doneUpTo, msg.upTo);
    if (!profiling.on) return;
    const t = msg.timings ?? [];
    for (let i = 0; i < t.length; i += 4) {
      emit({ kind: 'execute', launch: t[i]!, program: t[i + 1]!, start: t[i + 2]! - this.clockOffset, end: t[i + 3]! - this.clockOffset, chip: this.chip });
    }
    for (const c of msg.collectives ?? []) {
      emit({ kind: 'collective', chip: this.chip, op: c.op, bytes: c.bytes, start: c.start - this.clockOffset, end: c.end - this.clockOffset });
    }
    const c = msg.compiles ?? [];
    for (let i = 0; i < c.length; i += 3) emit({ kind: 'compile', program: c[i]!, time: c[i + 1]! - this.clockOffset, ms: c[i + 2]! });
  }

  private postBatch(): void {
    this.registerYoung();
    // A sweep (a scavenge, ~0.3 ms) pays before the post when a later launch of the batch may
    // reuse what it frees (a strict chain's temporaries); before a lone launch (a fused step)
    // it would only delay the launch: it then runs while the device works, and what it frees
    // goes out in a batch of its own.
    const sweepFirst = this.batch.launches > 1;
    if (sweepFirst) this.young?.sweepIfDue();
    if (this.pendingFrees.length) {
      this.batch.freeAfterLastUse(this.pendingFrees);
      this.pendingFrees = [];
    }
    const batch = this.batch.take();
    if (batch && !this.closed) {
      this.start().postMessage(batch.msg, batch.transfers);
      this.batchesPosted++;
    }
    if (!sweepFirst) this.young?.sweepIfDue();
    this.memory.collectIfDue();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { port1, port2 } = new MessageChannel();
    const data: DeviceThreadData = { threads: settings.threads(), backend: backendName(), signal: SIGNAL, port: port2, chip: this.chip, ici: this.ici };
    const transferList: (MessagePort)[] = [port2];
    if (this.ici) for (const p of this.ici.ports) if (p) transferList.push(p);
    Atomics.store(this.counter, SIGNAL_DEAD, 0);
    Atomics.store(this.counter, SIGNAL_READY, 0);
    // A worker inherits the main thread's options, V8 flags (--expose-gc) included; only --input-type,
    // valid for the main entry alone, makes an explicit list necessary, and Node refuses V8 flags
    // in one (they are process-wide anyway): then the thread gets none.
    // SHARE_ENV: libtpu reads the settings libtpu.ts puts in process.env from the C environment.
    const spawn = (execArgv?: string[]) => new Worker(new URL('./device-thread.js', import.meta.url), { workerData: data, transferList, execArgv, env: SHARE_ENV });
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
      this.waits.failAll(`the device thread failed: ${e.message}`);
    });
    this.worker.unref();
    this.port = port1;
    port1.on('message', (m: DeviceMessage) => this.onMessage(m));
    port1.unref();
    return this.worker;
  }

  /**
   * A TPU session opens its chips at once, so a host without them fails here, at the first
   * op, with the client's one line (TpuUnavailableError), not later at some value read.
   */
  private startOrThrow(): void {
    this.start();
    const deadline = performance.now() + START_TIMEOUT_MS;
    while (Atomics.load(this.counter, SIGNAL_READY) === 0 && Atomics.load(this.counter, SIGNAL_DEAD) === 0) {
      if (performance.now() > deadline) throw new TpuUnavailableError(`the TPU backend did not start within ${START_TIMEOUT_MS / 1000} s`);
      Atomics.wait(this.counter, 0, Atomics.load(this.counter, 0), 50);
    }
    if (Atomics.load(this.counter, SIGNAL_READY) !== 0) return;
    this.closed = true;
    let m;
    while ((m = receiveMessageOnPort(this.port!))) {
      const msg = m.message as DeviceMessage;
      if (msg.t === 'startFailed') throw new TpuUnavailableError(msg.message);
    }
    throw new TpuUnavailableError('the TPU backend failed to start (see stderr)');
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

  /**
   * At process exit, before Node terminates the device thread (every ending but a fatal
   * signal): blocks until the thread has left ONNX Runtime for good. Queued work is dropped.
   */
  stopForExit(): void {
    if (!this.worker || this.closed) return;
    try {
      const reply = this.requestStop();
      if (!this.stopped) this.waits.sync(reply, 'process exit');
    } catch {
      // The thread died, or an interrupt came: either way nothing more is waited for.
    }
    this.closed = true;
    this.waits.failAll('the process is exiting');
    this.memory.loseAll();
  }

  /** Ends the device thread (used by %reset and by the kernel's shutdown). Buffers are gone afterwards. */
  async close(): Promise<void> {
    if (this.worker && !this.closed) {
      this.cancelPending();
      const reply = this.requestStop();
      if (!this.stopped) await this.waits.async(reply, 'tpu.reset');
    }
    this.closed = true;
    this.waits.failAll('the TPU session was reset');
    this.memory.loseAll();
    const w = this.worker;
    this.worker = null;
    this.port?.close();
    if (w) await w.terminate();
  }
}
