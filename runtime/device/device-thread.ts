// The device thread: owns the backend, device buffers and executables, and runs commands
// strictly in order. Replies go out on a dedicated port and bump a shared counter so the
// host can block on them (Atomics.wait + receiveMessageOnPort) at synchronous sync points.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { DType, StorageArray } from '../dtype.js';
import type { Backend, BackendBuffer } from './backend.js';
import { OrtBackend } from './onnx/ort-backend.js';
import { TpuBackend } from './pjrt/tpu-backend.js';
import { decodeBatch, type CollectiveTiming, type Command, type DeviceError, type DeviceMessage, type DeviceThreadData, type FailureRoot, type HostMessage, type Progress, type Reply } from './protocol.js';
import { SIGNAL_DEAD, SIGNAL_READY } from './signal.js';
import { hasCollective } from '../program/collective-nodes.js';
import { IciLinks } from './ici/links.js';
import { compileSegmented, failedOf, PartlyRun, runSegmented, SegmentedExecutable, skipCollectives } from './ici/segmented-program.js';
import { Failed } from './ici/links.js';
import type { Program } from '../program/program.js';

const { threads, backend: backendName, signal, port, chip, ici } = workerData as DeviceThreadData;
const links = ici ? new IciLinks(chip, ici) : null;
const counter = new Int32Array(signal);
type Executable = unknown;
const backend: Backend<Executable, BackendBuffer> = backendName === 'tpu' ? await openTpu() : new OrtBackend({ threads });

/** The TPU backend, or the one line saying why not, handed to the host, and this thread ends. */
async function openTpu(): Promise<Backend<Executable, BackendBuffer>> {
  try {
    return (await TpuBackend.open()) as Backend<Executable, BackendBuffer>;
  } catch (e) {
    send({ t: 'startFailed', message: (e as Error).message });
    Atomics.store(counter, SIGNAL_DEAD, 1);
    Atomics.notify(counter, 0);
    process.exit(0);
  }
}

const buffers = new Map<number, BackendBuffer | Failure>();
const programs = new Map<number, Promise<Executable>>();
/** The programs holding collectives: a launch that cannot run them still meets its peers (skipCollectives). */
const collectivePrograms = new Map<number, Program>();
let queue: Command[] = [];
let head = 0;
let running = false;
/**
 * Set by 'stop', the reply owed once no call into ONNX Runtime is running. Node aborts the
 * process when it tears this thread down inside such a call (the binding's Napi::Error cannot
 * be thrown into a terminating thread), so the host waits for this reply before exiting.
 */
let stopReply = 0;
let profiling = false;
let doneUpTo = 0;
let timings: number[] = [];
let compiles: number[] = [];
let errors: DeviceError[] = [];
let collectives: CollectiveTiming[] = [];

/** Why a buffer holds no value: its producing launch failed or was cancelled; `root`: where that failure began. */
class Failure {
  constructor(readonly message: string, readonly root: FailureRoot) {}
}

function send(msg: DeviceMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(msg, transfer);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
}

/** The doneUpTo last sent: a progress message with nothing new would only wake the host. */
let sentUpTo = 0;

/** The progress not sent yet (null: nothing new), taken to be sent. */
function takeProgress(): Progress | null {
  if (doneUpTo === sentUpTo && errors.length === 0 && timings.length === 0 && compiles.length === 0 && collectives.length === 0) return null;
  sentUpTo = doneUpTo;
  const msg: Progress = { t: 'progress', upTo: doneUpTo };
  if (timings.length) msg.timings = timings;
  if (compiles.length) msg.compiles = compiles;
  if (errors.length) msg.errors = errors;
  if (collectives.length) msg.collectives = collectives;
  timings = [];
  compiles = [];
  errors = [];
  collectives = [];
  return msg;
}

function flushProgress(): void {
  const progress = takeProgress();
  if (progress) send(progress);
}

/**
 * A reply, carrying the progress not sent yet: the host handles it first (a waiter names a
 * failed launch by it), and one message instead of two wakes it once (a fence after a
 * training step: ~10-20 µs of the host's time).
 */
function reply(msg: Reply, transfer: ArrayBuffer[] = []): void {
  const progress = takeProgress();
  if (progress) msg.progress = progress;
  send(msg, transfer);
}

function bufferOrFailure(id: number): BackendBuffer | Failure {
  return buffers.get(id) ?? new Failure(`buffer ${id} does not exist on the device (freed?)`, { chip, launch: 0, program: 0 });
}

function fail(outs: readonly number[], failure: Failure): void {
  for (const o of outs) buffers.set(o, failure);
}

async function exec(cmd: Extract<Command, { t: 'exec' }>): Promise<void> {
  const start = profiling ? performance.timeOrigin + performance.now() : 0;
  const self: FailureRoot = { chip, launch: cmd.launch, program: cmd.program };
  const collective = collectivePrograms.get(cmd.program);
  const inputs: BackendBuffer[] = [];
  for (const id of cmd.ins) {
    const b = bufferOrFailure(id);
    if (b instanceof Failure) {
      if (collective) skipCollectives(collective, new Failed(b.message, b.root), chip, links);
      fail(cmd.outs, b);
      if (cmd.reply !== undefined) send({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
      return;
    }
    inputs.push(b);
  }
  let started = false;
  try {
    const exe = await programs.get(cmd.program)!;
    started = true;
    const outs = exe instanceof SegmentedExecutable
      ? await runSegmented(exe, backend, inputs, cmd.scalars, self, links, profiling ? collectives : null)
      : await backend.execute(exe, inputs, cmd.scalars);
    outs.forEach((b, i) => buffers.set(cmd.outs[i]!, b));
    if (profiling) timings.push(cmd.launch, cmd.program, start, performance.timeOrigin + performance.now());
    if (cmd.reply !== undefined) {
      const nonFinite: number[] | undefined = cmd.check ? [] : undefined;
      if (nonFinite) for (let i = 0; i < outs.length; i++) if (hasNonFinite(outs[i]!.dtype, await backend.toHost(outs[i]!))) nonFinite.push(i);
      reply({ t: 'reply', reply: cmd.reply, nonFinite });
    }
  } catch (thrown) {
    const e = thrown instanceof PartlyRun ? thrown.error : thrown;
    const message = e instanceof Error ? e.message : String(e);
    const failed = failedOf(e, self);
    // A program that failed to compile never met its peers: it does now.
    if (!started && collective) skipCollectives(collective, failed, chip, links);
    fail(cmd.outs, new Failure(message, failed.root));
    if (thrown instanceof PartlyRun) thrown.outputs.forEach((b, i) => b && buffers.set(cmd.outs[i]!, b));
    errors.push({ launch: cmd.launch, program: cmd.program, message, root: failed.root });
    if (cmd.reply !== undefined) {
      reply({ t: 'reply', reply: cmd.reply, error: message, root: failed.root }); // with the error's launch, handled first
    }
  }
}

/** An in-place update whose new value failed keeps the old one (the user's tensor is not lost). */
async function restore(cmd: Extract<Command, { t: 'restore' }>): Promise<void> {
  const now = buffers.get(cmd.buffer);
  const old = buffers.get(cmd.from);
  if (!(now instanceof Failure) || old === undefined || old instanceof Failure) return;
  buffers.set(cmd.buffer, backend.toDevice(old.dtype, (await backend.toHost(old)).slice()));
}

async function releaseExecutable(exe: Executable): Promise<void> {
  if (!(exe instanceof SegmentedExecutable)) return backend.release(exe);
  for (const step of exe.steps) if (step.kind === 'part') await backend.release(step.exe);
}

function hasNonFinite(dtype: DType, d: StorageArray): boolean {
  if (dtype !== 'float32' && dtype !== 'bfloat16') return false;
  if (dtype === 'float32') {
    for (let i = 0; i < d.length; i++) if (!Number.isFinite(d[i]!)) return true;
  } else {
    const bits = d as Uint16Array;
    for (let i = 0; i < bits.length; i++) if ((bits[i]! & 0x7f80) === 0x7f80) return true;
  }
  return false;
}

async function run(cmd: Command): Promise<void> {
  switch (cmd.t) {
    case 'compile': {
      const t0 = performance.now();
      // A program with collectives runs in parts between them (device/ici/).
      const segmented = hasCollective(cmd.ir.nodes);
      const p = segmented ? compileSegmented(cmd.ir, backend) : backend.compile(cmd.ir);
      programs.set(cmd.program, p);
      if (segmented) collectivePrograms.set(cmd.program, cmd.ir);
      p.then(() => compiles.push(cmd.program, performance.timeOrigin + t0, performance.now() - t0), () => {});
      await p.catch(() => {}); // the failure surfaces at the executions that use it
      return;
    }
    case 'release': {
      // Executions of it queued before this command have run: the executable can go.
      const p = programs.get(cmd.program);
      programs.delete(cmd.program);
      collectivePrograms.delete(cmd.program);
      await p?.then((exe) => releaseExecutable(exe), () => {});
      return;
    }
    case 'exec':
      await exec(cmd);
      doneUpTo = Math.max(doneUpTo, cmd.launch);
      return;
    case 'upload':
      buffers.set(cmd.buffer, backend.toDevice(cmd.dtype, cmd.data));
      return;
    case 'restore':
      return restore(cmd);
    case 'download': {
      const b = bufferOrFailure(cmd.buffer);
      if (b instanceof Failure) reply({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
      else {
        const data = (await backend.toHost(b)).slice();
        reply({ t: 'reply', reply: cmd.reply, data }, [data.buffer as ArrayBuffer]);
      }
      return;
    }
    case 'check': {
      const b = bufferOrFailure(cmd.buffer);
      if (b instanceof Failure) reply({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
      else reply({ t: 'reply', reply: cmd.reply, nonFinite: hasNonFinite(b.dtype, await backend.toHost(b)) ? [0] : [] });
      return;
    }
    case 'free': {
      const b = buffers.get(cmd.buffer);
      if (b && !(b instanceof Failure)) backend.free(b);
      buffers.delete(cmd.buffer);
      return;
    }
    case 'fence':
      reply({ t: 'reply', reply: cmd.reply });
      return;
    case 'stats':
      reply({ t: 'reply', reply: cmd.reply, stats: { programs: programs.size, ...backend.memoryStats() } });
      return;
    case 'profile':
      profiling = cmd.on;
      return;
  }
}

const TURN_EVERY_MS = 2;
/** Commands that may run long: a turn of the event loop goes before them (cancel and stop are read there). */
const SLOW_COMMANDS = new Set<Command['t']>(['exec', 'compile']);
let lastTurn = 0;

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  lastTurn = performance.now();
  let sinceProgress = 0;
  while (head < queue.length) {
    const cmd = queue[head++]!;
    if (head > 1024) {
      queue = queue.slice(head);
      head = 0;
    }
    await run(cmd);
    // Backend calls are synchronous: without a turn of the event loop now and then, a
    // 'cancel' or 'stop' message would wait for the whole queue. The turn is taken before a
    // launch or a compile only: a fence's reply after a long program then leaves at once
    // (W4's fused step: reply back to the host 0.17-0.22 ms after its program, 0.12-0.15 without
    // the turn; test/bench/w4-breakdown.bench.mjs).
    if (performance.now() - lastTurn > TURN_EVERY_MS && head < queue.length && SLOW_COMMANDS.has(queue[head]!.t)) {
      await new Promise(setImmediate);
      lastTurn = performance.now();
    }
    if (++sinceProgress >= 64) {
      flushProgress();
      sinceProgress = 0;
    }
  }
  flushProgress();
  running = false;
  if (stopReply) send({ t: 'reply', reply: stopReply });
}

function cancelQueued(): void {
  const pending = queue.slice(head);
  const kept = pending.filter((c) => c.t !== 'exec');
  for (const c of pending) {
    if (c.t !== 'exec') continue;
    fail(c.outs, new Failure('cancelled before it ran (tpu.cancelPending)', { chip, launch: c.launch, program: c.program }));
    if (c.reply !== undefined) send({ t: 'reply', reply: c.reply, error: 'cancelled' });
    doneUpTo = Math.max(doneUpTo, c.launch);
  }
  queue = kept;
  head = 0;
}

Atomics.store(counter, SIGNAL_READY, 1);

parentPort!.on('message', (msg: HostMessage) => {
  if (stopReply) return;
  if (msg.t === 'stop') {
    stopReply = msg.reply;
    queue = [];
    head = 0;
    if (!running) send({ t: 'reply', reply: stopReply });
    return;
  }
  if (msg.t === 'cancel') {
    cancelQueued();
    return;
  }
  for (const c of decodeBatch(msg.stream, msg.objects)) queue.push(c);
  void drain();
});

// Lets a host blocked in a synchronous wait notice that this thread is gone.
process.on('uncaughtException', (e) => {
  console.error('tpu-kernel device thread failed:', e);
  Atomics.store(counter, SIGNAL_DEAD, 1);
  Atomics.notify(counter, 0);
  process.exit(1);
});
