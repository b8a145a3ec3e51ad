// Messages between the host (main thread) and the device thread. Commands travel in
// batches (one postMessage per batch: per-message cost dominates tiny ops).
import type { DType, StorageArray } from '../dtype.js';
import type { Program } from '../program/program.js';
import type { MessagePort } from 'node:worker_threads';

export type Command =
  | { t: 'compile'; program: number; ir: Program }
  /** The program was evicted from the cache: its executable is freed. */
  | { t: 'release'; program: number }
  | { t: 'exec'; program: number; launch: number; ins: number[]; outs: number[]; scalars: number[]; reply?: number; check?: boolean }
  /** An in-place update's new value failed (or was cancelled): the buffer takes a copy of the old value `from` instead. */
  | { t: 'restore'; buffer: number; from: number }
  | { t: 'upload'; buffer: number; dtype: DType; data: StorageArray }
  | { t: 'download'; buffer: number; reply: number }
  /** Replies nonFinite [0] when the buffer holds NaN or Inf (debug mode's check of a composed op's result). */
  | { t: 'check'; buffer: number; reply: number }
  | { t: 'free'; buffer: number }
  | { t: 'fence'; reply: number }
  | { t: 'stats'; reply: number }
  /** Replies how the backend runs the compiled program (%program). */
  | { t: 'describe'; program: number; reply: number }
  | { t: 'profile'; on: boolean };

export type HostMessage =
  /** stream: a short one as an array (cloned), a long one as a Float64Array (transferred): CommandEncoder.take. */
  | { t: 'batch'; stream: Float64Array | number[]; objects: Command[] }
  /** Drops queued executions that have not started; their outputs become "cancelled". */
  | { t: 'cancel' }
  /** Ends all work: the thread drops its queue, replies once nothing of it runs, and ignores later messages. */
  | { t: 'stop'; reply: number };

/** Progress: every launch ≤ upTo has finished; timings only while profiling; compiles as (program, start, ms) triples. */
export type Progress = { t: 'progress'; upTo: number; timings?: number[]; compiles?: number[]; errors?: DeviceError[]; collectives?: CollectiveTiming[] };
/** The answer to a command that asked for one, with the progress not sent before it (handled first). */
export type Reply = { t: 'reply'; reply: number; data?: StorageArray; nonFinite?: number[]; error?: string; root?: FailureRoot; stats?: DeviceStats; description?: ProgramDescription; progress?: Progress };

/** How a backend runs one compiled program: a title and its text (an ONNX graph, a generated loop's C). */
export interface ProgramDescription {
  readonly title: string;
  readonly text: string;
}

export type DeviceMessage =
  | Reply
  | Progress
  /** The backend could not start (TPU_KERNEL_BACKEND=tpu on a host without chips): one line; the thread ends. */
  | { t: 'startFailed'; message: string };

/** One collective's run on a chip: bytes it sent, start and end (ms since the epoch). */
export interface CollectiveTiming {
  readonly op: string;
  readonly bytes: number;
  readonly start: number;
  readonly end: number;
}

export interface DeviceError {
  readonly launch: number;
  readonly program: number;
  readonly message: string;
  /** Where the failure began: this launch, or a peer's whose collective this one could not run. */
  readonly root: FailureRoot;
}

/** The launch (on its chip, of its program) where a device failure began: one failure, reported once. */
export interface FailureRoot {
  readonly chip: number;
  readonly launch: number;
  readonly program: number;
}

/** What the device thread holds (tpu.deviceStats()). */
export interface DeviceStats {
  /** Compiled programs it keeps, and the backend's live executables. */
  readonly programs: number;
  readonly executables: number;
  readonly buffers: number;
  readonly bytesInUse: number;
  /** Executables running as a generated loop (device/loopgen) instead of ONNX Runtime. */
  readonly generatedLoops?: number;
  /** The onnx backend's binding to ONNX Runtime: 'ortc (ONNX Runtime 1.30.0, global thread pool)', or 'onnxruntime-node (<why not ours>)'. */
  readonly binding?: string;
  /** Reuse of freed buffers (onnx/buffer-pool.ts): pooled sizes handed out again, made afresh, held free. */
  readonly pool?: { readonly reused: number; readonly fresh: number; readonly pooledBytes: number };
}
import type { BackendName } from './backend-choice.js';

export interface DeviceThreadData {
  readonly threads: number;
  readonly backend: BackendName;
  readonly signal: SharedArrayBuffer;
  readonly port: MessagePort;
  /** Which emulated chip the thread is. */
  readonly chip: number;
  /** Its links to the other chips, null for a single chip. */
  readonly ici: IciEnd | null;
}

/**
 * One chip's end of the emulated inter-chip interconnect: a port to every other chip (null at its
 * own index) and the shared words: one per chip, a sender bumps to wake its receiver, then one
 * set when the session closes.
 */
export interface IciEnd {
  readonly ports: readonly (MessagePort | null)[];
  readonly signal: SharedArrayBuffer;
  /** TPU_KERNEL_PEER_TIMEOUT_MS (default 60 s): the wait for a peer that never comes. */
  readonly peerTimeoutMs: number;
}

// Executions, frees and restores (the commands every op or in-place update sends) travel as
// numbers in one Float64Array per batch, transferred without copying; rarer commands travel
// as objects, their place in the stream marked by OBJECT.
const EXEC = 1;
const FREE = 2;
const OBJECT = 3;
const RESTORE = 4;

/**
 * The longest stream posted as an array of numbers, cloned, rather than a new Float64Array
 * transferred: allocating and transferring an ArrayBuffer cost both threads more for a short
 * batch (40 numbers: main thread 1.3-1.7 µs a post against 2.2-4.3,
 * both threads 2.7-3.9 against 4.9-8.8), and less for a long one (2,000 numbers: 31-41 µs
 * against 5-6).
 */
const CLONED_STREAM_MAX = 128;

export class CommandEncoder {
  /**
   * The stream being written, kept from batch to batch: a fresh array grown by push for each
   * batch was ~4 KiB of a W6 strict step's allocations; a batch copies out only its length.
   */
  private stream = new Float64Array(1024);
  private length = 0;
  /** freeAfterLastUse's output, swapped with the stream; its map of buffers to offsets and its order. */
  private spare = new Float64Array(0);
  private readonly after = new Map<number, number>();
  private readonly order: number[] = [];
  objects: Command[] = [];
  count = 0;

  exec(
    program: number, launch: number, ins: readonly { id: number }[], outs: readonly { id: number }[],
    scalars: readonly number[], reply: number,
  ): void {
    const s = this.room(7 + ins.length + outs.length + scalars.length);
    let n = this.length;
    s[n++] = EXEC;
    s[n++] = program;
    s[n++] = launch;
    s[n++] = reply;
    s[n++] = ins.length;
    for (let i = 0; i < ins.length; i++) s[n++] = ins[i]!.id;
    s[n++] = outs.length;
    for (let i = 0; i < outs.length; i++) s[n++] = outs[i]!.id;
    s[n++] = scalars.length;
    for (let i = 0; i < scalars.length; i++) s[n++] = scalars[i]!;
    this.length = n;
    this.count++;
  }

  free(buffer: number): void {
    const s = this.room(2);
    s[this.length++] = FREE;
    s[this.length++] = buffer;
    this.count++;
  }

  /**
   * Frees each buffer right after the last command of this batch that names it (or at the
   * batch's start), instead of at its end: the device's pool then hands it to the next
   * launches of this very batch while it is still in cache, as PyTorch's reference counts free
   * a temporary after its last reader. For buffers nothing can launch with any more (their
   * tensors were disposed or collected).
   */
  freeAfterLastUse(buffers: readonly number[]): void {
    const n = buffers.length;
    if (n === 0) return;
    const s = this.stream;
    // Kept from call to call, as the stream: a Set, a Map, a closure, pairs and a new stream
    // per call were a few µs of every fused step's cut (W6).
    const after = this.after; // buffer -> the stream offset its free goes to (0: the batch's start)
    after.clear();
    for (let j = 0; j < n; j++) after.set(buffers[j]!, 0);
    const length = this.length;
    let o = 0;
    for (let i = 0; i < length; ) {
      const code = s[i++];
      if (code === FREE) i++;
      else if (code === OBJECT) {
        const cmd = this.objects[o++]!;
        if ('buffer' in cmd && after.has(cmd.buffer)) after.set(cmd.buffer, i); // upload, download, check
      } else if (code === RESTORE) {
        i += 2;
        if (after.has(s[i - 2]!)) after.set(s[i - 2]!, i);
        if (after.has(s[i - 1]!)) after.set(s[i - 1]!, i);
      } else {
        // program, launch, reply, then three counted lists: inputs, outputs, scalars
        const ins = i + 3;
        const outs = ins + 1 + s[ins]!;
        const scalars = outs + 1 + s[outs]!;
        const end = scalars + 1 + s[scalars]!;
        for (let k = ins + 1; k < scalars; k++) if (k !== outs && after.has(s[k]!)) after.set(s[k]!, end);
        i = end;
      }
    }
    // the buffers by offset, in their order where equal (an insertion sort: a handful a batch)
    const order = this.order;
    order.length = n;
    for (let j = 0; j < n; j++) {
      const offset = after.get(buffers[j]!)!;
      let k = j;
      for (; k > 0 && after.get(buffers[order[k - 1]!]!)! > offset; k--) order[k] = order[k - 1]!;
      order[k] = j;
    }
    const size = Math.max(s.length, length + 2 * n);
    const out = this.spare.length >= size ? this.spare : new Float64Array(size);
    let w = 0;
    let from = 0;
    for (let j = 0; j < n; j++) {
      const b = buffers[order[j]!]!;
      const offset = after.get(b)!;
      out.set(s.subarray(from, offset), w);
      w += offset - from;
      from = offset;
      out[w++] = FREE;
      out[w++] = b;
    }
    out.set(s.subarray(from, length), w);
    // take() copies the stream out, so the old one is free to be the next call's output
    this.spare = s;
    this.stream = out;
    this.length = w + length - from;
    this.count += n;
  }

  restore(buffer: number, from: number): void {
    const s = this.room(3);
    s[this.length++] = RESTORE;
    s[this.length++] = buffer;
    s[this.length++] = from;
    this.count++;
  }

  object(cmd: Command): void {
    this.room(1)[this.length++] = OBJECT;
    this.objects.push(cmd);
    this.count++;
  }

  take(): HostMessage {
    const n = this.length;
    let stream: Float64Array | number[];
    if (n <= CLONED_STREAM_MAX) {
      // pushed, so the array is packed (a holey one is cloned key by key)
      stream = [];
      for (let i = 0; i < n; i++) stream.push(this.stream[i]!);
    } else stream = this.stream.slice(0, n);
    const msg: HostMessage = { t: 'batch', stream, objects: this.objects };
    this.length = 0;
    this.objects = [];
    this.count = 0;
    return msg;
  }

  /** The stream, with room for `n` more numbers. */
  private room(n: number): Float64Array {
    if (this.length + n > this.stream.length) {
      const grown = new Float64Array(Math.max(2 * this.stream.length, this.length + n));
      grown.set(this.stream.subarray(0, this.length));
      this.stream = grown;
    }
    return this.stream;
  }
}

/** The list of numbers at `at`: its length, then its items (a module-level function: no closure per command). */
function listAt(stream: ArrayLike<number>, at: number): number[] {
  const n = stream[at]!;
  const xs: number[] = new Array(n);
  for (let k = 0; k < n; k++) xs[k] = stream[at + 1 + k]!;
  return xs;
}

export function decodeBatch(stream: ArrayLike<number>, objects: readonly Command[]): Command[] {
  const out: Command[] = [];
  let o = 0;
  for (let i = 0; i < stream.length; ) {
    const code = stream[i++];
    if (code === OBJECT) out.push(objects[o++]!);
    else if (code === FREE) out.push({ t: 'free', buffer: stream[i++]! });
    else if (code === RESTORE) {
      out.push({ t: 'restore', buffer: stream[i]!, from: stream[i + 1]! });
      i += 2;
    }
    else {
      const program = stream[i++]!;
      const launch = stream[i++]!;
      const reply = stream[i++]!;
      const ins = listAt(stream, i);
      i += ins.length + 1;
      const outs = listAt(stream, i);
      i += outs.length + 1;
      const scalars = listAt(stream, i);
      i += scalars.length + 1;
      const cmd: Command = { t: 'exec', program, launch, ins, outs, scalars };
      if (reply) {
        cmd.reply = reply;
        cmd.check = true;
      }
      out.push(cmd);
    }
  }
  return out;
}
