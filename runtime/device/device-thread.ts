// The device thread: owns the backend, device buffers and executables, and runs commands
// strictly in order. Replies go out on a dedicated port and bump a shared counter so the
// host can block on them (Atomics.wait + receiveMessageOnPort) at synchronous sync points.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
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
type ExecCommand = Extract<Command, { t: 'exec' }>;
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
/** The programs whose compile finished, by id: a launch of one runs without awaiting it. */
const compiled = new Map<number, Executable>();
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

/**
 * Runs a launch. Synchronous when its executable is compiled and the backend's execute returns
 * its buffers at once (ONNX Runtime on the CPU): no promise, await frame or microtask per launch,
 * which were most of this thread's allocations in a strict training loop (~45 KB a step) and
 * its frequent full collections. Otherwise (compiling, segmented, a TPU) the promise it returns.
 */
function exec(cmd: ExecCommand): Promise<void> | undefined {
  const start = profiling ? performance.timeOrigin + performance.now() : 0;
  const inputs: BackendBuffer[] = [];
  for (const id of cmd.ins) {
    const b = bufferOrFailure(id);
    if (b instanceof Failure) {
      const collective = collectivePrograms.get(cmd.program);
      if (collective) skipCollectives(collective, new Failed(b.message, b.root), chip, links);
      fail(cmd.outs, b);
      if (cmd.reply !== undefined) send({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
      return;
    }
    inputs.push(b);
  }
  const exe = compiled.get(cmd.program);
  if (exe === undefined || exe instanceof SegmentedExecutable) return execAsync(cmd, inputs, start);
  let outs: BackendBuffer[] | Promise<BackendBuffer[]>;
  try {
    outs = backend.execute(exe, inputs, cmd.scalars);
  } catch (e) {
    failed(cmd, e, true);
    return;
  }
  if (!Array.isArray(outs)) return outs.then((o) => finished(cmd, o, start), (e: unknown) => failed(cmd, e, true));
  return finished(cmd, outs, start);
}

/** A launch whose program may still be compiling, or runs in parts between collectives. */
async function execAsync(cmd: ExecCommand, inputs: BackendBuffer[], start: number): Promise<void> {
  let started = false;
  try {
    const exe = await programs.get(cmd.program)!;
    started = true;
    const outs = exe instanceof SegmentedExecutable
      ? await runSegmented(exe, backend, inputs, cmd.scalars, rootOf(cmd), links, profiling ? collectives : null)
      : await backend.execute(exe, inputs, cmd.scalars);
    await finished(cmd, outs, start);
  } catch (thrown) {
    failed(cmd, thrown, started);
  }
}

/** Stores a launch's outputs and answers its reply, if any (after a finite check when asked). */
function finished(cmd: ExecCommand, outs: readonly BackendBuffer[], start: number): Promise<void> | undefined {
  for (let i = 0; i < outs.length; i++) buffers.set(cmd.outs[i]!, outs[i]!);
  if (profiling) timings.push(cmd.launch, cmd.program, start, performance.timeOrigin + performance.now());
  if (cmd.reply === undefined) return;
  if (cmd.check) return replyChecked(cmd, outs).catch((e: unknown) => failed(cmd, e, true));
  reply({ t: 'reply', reply: cmd.reply });
}

async function replyChecked(cmd: ExecCommand, outs: readonly BackendBuffer[]): Promise<void> {
  const nonFinite: number[] = [];
  for (let i = 0; i < outs.length; i++) if (hasNonFinite(outs[i]!.dtype, await backend.toHost(outs[i]!))) nonFinite.push(i);
  reply({ t: 'reply', reply: cmd.reply!, nonFinite });
}

function rootOf(cmd: ExecCommand): FailureRoot {
  return { chip, launch: cmd.launch, program: cmd.program };
}

/** A launch that threw: its outputs hold the failure; `started`: its program had compiled. */
function failed(cmd: ExecCommand, thrown: unknown, started: boolean): void {
  const e = thrown instanceof PartlyRun ? thrown.error : thrown;
  const message = e instanceof Error ? e.message : String(e);
  const failure = failedOf(e, rootOf(cmd));
  const collective = collectivePrograms.get(cmd.program);
  // A program that failed to compile never met its peers: it does now.
  if (!started && collective) skipCollectives(collective, failure, chip, links);
  fail(cmd.outs, new Failure(message, failure.root));
  if (thrown instanceof PartlyRun) thrown.outputs.forEach((b, i) => b && buffers.set(cmd.outs[i]!, b));
  errors.push({ launch: cmd.launch, program: cmd.program, message, root: failure.root });
  if (cmd.reply !== undefined) {
    reply({ t: 'reply', reply: cmd.reply, error: message, root: failure.root }); // with the error's launch, handled first
  }
}

/**
 * An in-place update whose new value failed keeps the old one (the user's tensor is not lost).
 * Synchronous when the update ran (every training step's weights): no promise and no await in
 * drain between the step's program and its fence's reply.
 */
function restore(cmd: Extract<Command, { t: 'restore' }>): Promise<void> | undefined {
  const now = buffers.get(cmd.buffer);
  const old = buffers.get(cmd.from);
  if (!(now instanceof Failure) || old === undefined || old instanceof Failure) return;
  return restoreFrom(cmd.buffer, old);
}

async function restoreFrom(buffer: number, old: BackendBuffer): Promise<void> {
  buffers.set(buffer, backend.toDevice(old.dtype, (await backend.toHost(old)).slice()));
}

async function releaseExecutable(exe: Executable): Promise<void> {
  if (!(exe instanceof SegmentedExecutable)) return backend.release(exe);
  for (const step of exe.steps) if (step.kind === 'part') await backend.release(step.exe);
}

async function download(cmd: Extract<Command, { t: 'download' }>): Promise<void> {
  const b = bufferOrFailure(cmd.buffer);
  if (b instanceof Failure) reply({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
  else {
    const data = (await backend.toHost(b)).slice();
    reply({ t: 'reply', reply: cmd.reply, data }, [data.buffer as ArrayBuffer]);
  }
}

async function check(cmd: Extract<Command, { t: 'check' }>): Promise<void> {
  const b = bufferOrFailure(cmd.buffer);
  if (b instanceof Failure) reply({ t: 'reply', reply: cmd.reply, error: b.message, root: b.root });
  else reply({ t: 'reply', reply: cmd.reply, nonFinite: hasNonFinite(b.dtype, await backend.toHost(b)) ? [0] : [] });
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

/** Runs one command; a promise only when it has to wait (a compile, a download, a TPU launch). */
function run(cmd: Command): Promise<void> | undefined {
  switch (cmd.t) {
    case 'compile': {
      const t0 = performance.now();
      // A program with collectives runs in parts between them (device/ici/).
      const segmented = hasCollective(cmd.ir.nodes);
      const p = segmented ? compileSegmented(cmd.ir, backend) : backend.compile(cmd.ir);
      programs.set(cmd.program, p);
      if (segmented) collectivePrograms.set(cmd.program, cmd.ir);
      // The failure surfaces at the executions that use it.
      return p.then((exe) => {
        compiled.set(cmd.program, exe);
        compiles.push(cmd.program, performance.timeOrigin + t0, performance.now() - t0);
      }, () => {});
    }
    case 'release': {
      // Executions of it queued before this command have run: the executable can go.
      const p = programs.get(cmd.program);
      programs.delete(cmd.program);
      compiled.delete(cmd.program);
      collectivePrograms.delete(cmd.program);
      return p?.then((exe) => releaseExecutable(exe), () => {});
    }
    case 'exec': {
      const p = exec(cmd);
      if (!p) {
        doneUpTo = Math.max(doneUpTo, cmd.launch);
        return;
      }
      return p.then(() => {
        doneUpTo = Math.max(doneUpTo, cmd.launch);
      });
    }
    case 'upload':
      buffers.set(cmd.buffer, backend.toDevice(cmd.dtype, cmd.data));
      return;
    case 'restore':
      return restore(cmd);
    case 'download':
      return download(cmd);
    case 'check':
      return check(cmd);
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
    case 'describe': {
      const exe = compiled.get(cmd.program);
      reply({ t: 'reply', reply: cmd.reply, description: exe === undefined ? undefined : backend.describe?.(exe) });
      return;
    }
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
  while (head < queue.length || takeWaiting()) {
    const cmd = queue[head++]!;
    if (head > 1024) {
      queue = queue.slice(head);
      head = 0;
    }
    const pending = run(cmd);
    if (pending) await pending;
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

/** A message from the host: a batch of commands is queued; 'cancel' and 'stop' act at once. */
function received(msg: HostMessage): void {
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
}

/**
 * Takes the messages that came while the queue ran, until one adds commands, without a turn of the event loop; false when
 * none waits. A sync posts its program as soon as it is enqueued and its fence after: the fence
 * then runs in the same drain, and the host gets one message (progress and reply), not two.
 */
function takeWaiting(): boolean {
  while (head >= queue.length) {
    const m = receiveMessageOnPort(parentPort!);
    if (!m) return false;
    received(m.message as HostMessage);
  }
  return true;
}

parentPort!.on('message', (msg: HostMessage) => {
  received(msg);
  void drain();
});

// Lets a host blocked in a synchronous wait notice that this thread is gone.
process.on('uncaughtException', (e) => {
  console.error('tpu-kernel device thread failed:', e);
  Atomics.store(counter, SIGNAL_DEAD, 1);
  Atomics.notify(counter, 0);
  process.exit(1);
});
