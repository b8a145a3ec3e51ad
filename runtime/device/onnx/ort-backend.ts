// The embedded default backend: programs lowered to ONNX, run by ONNX Runtime on the CPU.
import { COMPUTE_TYPE, ITEMSIZE, narrowToBf16, roundToBf16, widenBf16, type ComputeType, type DType, type StorageArray } from '../../dtype.js';
import { valueOf, type Program } from '../../program/program.js';
import { numel } from '../../shape.js';
import type { Backend, BackendBuffer, BackendOptions } from '../backend.js';
import type { ProgramDescription } from '../protocol.js';
import { lowerToOnnx } from './lower-program.js';
import { checkFailure } from './lowerings/device-checks.js';
import type { DeviceCheck } from '../device-check.js';
import { BufferPool } from './buffer-pool.js';
import { AlignedArrays } from './aligned-arrays.js';
import { isPooledSize } from '../pooled-size.js';
import { sessionFactory, type OrtSession, type OrtSessionFactory } from './ort-session.js';
import type { TensorSpec } from './ortc-addon.js';
import { tinyKernelOf, type TinyKernel } from './tiny-elementwise.js';
import { generateLoop, type GeneratedLoop } from '../loopgen/generate-loop.js';
import { compileKernel, type LoadedKernel } from '../loopgen/native.js';
import { VECTOR_MATH_C } from '../loopgen/vector-math.js';

export interface OrtBuffer extends BackendBuffer {
  readonly data: StorageArray;
}

interface OrtExecutable {
  readonly session: OrtSession;
  /** A generated loop for the program (elementwise or per-row), used instead of the session once compiled; `source`: its C, for %program. */
  loop?: { kernel: LoadedKernel; count: number; unit: number; source: string };
  /** Its C source, while the program waits to be run often enough to be worth a compile. */
  loopSource?: GeneratedLoop;
  runs: number;
  released?: boolean;
  readonly program: Program;
  /** What its device checks say when they fail (lowerings/device-checks.ts). */
  readonly checks: readonly DeviceCheck[];
  /**
   * One array per scalar, refilled each run. A fresh one-value array each run lived in V8's
   * heap, and the addon's pointer to it cost V8 a copy out of the heap (W6 compiled: 12 a run).
   */
  readonly scalarFeeds: StorageArray[];
}


export class OrtBackend implements Backend<OrtExecutable, OrtBuffer> {
  readonly name = 'onnxruntime-cpu';
  private bytesInUse = 0;
  private readonly pool = new BufferPool();
  private buffers = 0;
  private executables = 0;
  private generatedLoops = 0;
  private readonly sessions: OrtSessionFactory;
  private readonly arrays: AlignedArrays;
  private readonly threads: number;

  constructor(options: BackendOptions) {
    this.threads = options.threads;
    this.sessions = sessionFactory(options.threads);
    this.arrays = new AlignedArrays(this.pool, this.sessions.lineOffset);
  }

  async compile(program: Program): Promise<OrtExecutable> {
    const lowered = lowerToOnnx(program, this.sessions.customOps);
    const spec = (name: string, dtype: DType, shape: readonly number[]): TensorSpec => ({ name, dtype: COMPUTE_TYPE[dtype], shape });
    const inputs = [
      ...program.inputs.map((v, i) => spec(lowered.inputNames[i]!, v.dtype, v.shape)),
      ...program.scalars.map((dtype, i) => spec(lowered.scalarNames[i]!, dtype, [])),
    ];
    const outputs = program.outputs.map((id, i) => {
      const v = valueOf(program, id);
      return spec(lowered.outputNames[i]!, v.dtype, v.shape);
    });
    const session = this.sessions.open(lowered.model, !isSmall(program), inputs, outputs);
    this.executables++;
    const scalarFeeds = program.scalars.map((dtype) => offHeap(COMPUTE_TYPE[dtype], 1));
    const exe: OrtExecutable = { session, program, checks: lowered.checks, runs: 0, scalarFeeds };
    const source = generateLoop(program);
    if (source !== undefined && outputElements(program) >= LOOP_AT_ONCE_ELEMENTS) this.buildLoop(exe, source);
    else exe.loopSource = source;
    return exe;
  }

  /** Compiles the program's loop in the background; the session runs it meanwhile. */
  private buildLoop(exe: OrtExecutable, { source, count, unit }: GeneratedLoop): void {
    exe.loopSource = undefined;
    void compileKernel(source).then((kernel) => {
      if (!kernel || exe.released) return;
      exe.loop = { kernel, count, unit, source };
      this.generatedLoops++;
    });
  }

  async release(exe: OrtExecutable): Promise<void> {
    this.executables--;
    exe.released = true;
    if (exe.loop) this.generatedLoops--;
    exe.session.release();
  }

  execute(exe: OrtExecutable, inputs: readonly OrtBuffer[], scalars: readonly number[]): OrtBuffer[] {
    const { program } = exe;
    const tiny = tinyKernelOf(program);
    if (tiny) return this.runTiny(tiny, program, inputs, scalars);
    if (exe.loop) return this.runLoop(exe.loop, program, inputs, scalars);
    if (exe.loopSource !== undefined && ++exe.runs >= HOT_RUNS) this.buildLoop(exe, exe.loopSource);
    // bfloat16 runs as float32 (ORT's CPU kernels have almost no bfloat16).
    const feeds: StorageArray[] = inputs.map((buf) => (buf.dtype === 'bfloat16' ? widenBf16(buf.data as Uint16Array) : buf.data));
    program.scalars.forEach((dtype, i) => feeds.push(setScalar(exe.scalarFeeds[i]!, dtype, Number(scalars[i]))));
    // Pooled outputs: ORT writes the results into them.
    const computed = program.outputs.map((id) => {
      const v = valueOf(program, id);
      return { dtype: v.dtype, data: this.alloc(COMPUTE_TYPE[v.dtype], numel(v.shape), true) };
    });
    try {
      exe.session.run(feeds, computed.map((c) => c.data));
    } catch (e) {
      const text = exe.checks.length ? checkFailure((e as Error).message, exe.checks) : undefined;
      throw text === undefined ? e : new Error(text);
    }
    return computed.map(({ dtype, data }) => {
      if (dtype !== 'bfloat16') return this.track(dtype, data);
      const bits = narrowToBf16(data as Float32Array);
      this.arrays.recycle(data);
      return this.track(dtype, bits);
    });
  }

  /** A generated loop: float32 in and out (the generators admit nothing else). */
  private runLoop(loop: NonNullable<OrtExecutable['loop']>, program: Program, inputs: readonly OrtBuffer[], scalars: readonly number[]): OrtBuffer[] {
    const outputs = program.outputs.map((id) => this.alloc('float32', numel(valueOf(program, id).shape), true) as Float32Array);
    loop.kernel.run(inputs.map((b) => b.data as Float32Array), Float32Array.from(scalars), outputs, loop.count, this.threads, loop.unit);
    return outputs.map((data) => this.track('float32', data));
  }

  private runTiny(tiny: TinyKernel, program: Program, inputs: readonly OrtBuffer[], scalars: readonly number[]): OrtBuffer[] {
    const out = this.alloc('float32', numel(program.nodes[0]!.shape), false) as Float32Array;
    tiny(inputs.map((b) => b.data as Float32Array), scalars, out);
    return [this.track('float32', out)];
  }

  describe(exe: OrtExecutable): ProgramDescription {
    const { program } = exe;
    if (tinyKernelOf(program)) {
      const { op, shape } = program.nodes[0]!;
      return { title: 'run by a JS loop on the device thread (a tiny elementwise op: no ONNX Runtime call)', text: `${op} of ${numel(shape)} elements` };
    }
    if (exe.loop) {
      const text = exe.loop.source.replace(VECTOR_MATH_C, '/* the vector math of device/loopgen/vector-math.ts (tk_tanh, tk_erf, tk_erf_block, tk_exp_neg) */');
      return { title: `a generated C loop run by the backend on ${this.threads} threads (device/loopgen)`, text };
    }
    return { title: `ONNX graph run by the backend (${this.name})`, text: lowerToOnnx(program, this.sessions.customOps).text };
  }

  toDevice(dtype: DType, data: StorageArray): OrtBuffer {
    return this.track(dtype, this.arrays.placed(data));
  }

  toHost(buffer: OrtBuffer): StorageArray {
    return buffer.data;
  }

  free(buffer: OrtBuffer): void {
    this.arrays.recycle(buffer.data);
    this.bytesInUse -= buffer.length * ITEMSIZE[buffer.dtype];
    this.buffers--;
  }

  memoryStats() {
    return {
      bytesInUse: this.bytesInUse,
      buffers: this.buffers,
      executables: this.executables,
      generatedLoops: this.generatedLoops,
      binding: this.sessions.binding,
      pool: this.pool.stats(),
    };
  }

  /** `native`: written by native code (ONNX Runtime, a generated loop), else by a JS loop. */
  private alloc(dtype: ComputeType, n: number, native: boolean): StorageArray {
    const Type = STORAGE_TYPE[dtype];
    if (native || isPooledSize(n * Type.BYTES_PER_ELEMENT)) return this.arrays.make(Type, n);
    // A small array of its own. V8 keeps the smallest (up to 64 bytes) in its heap, cheap for a
    // JS loop; native code gets a pointer to such an array only after V8 copies it out.
    return new Type(n);
  }

  private track(dtype: DType, data: StorageArray): OrtBuffer {
    this.bytesInUse += data.length * ITEMSIZE[dtype];
    this.buffers++;
    return { dtype, length: data.length, data };
  }
}

const SMALL_ELEMENTS = 1 << 15;
/**
 * A generated loop beats ONNX Runtime at any size (no kernel launch per node, no intermediate
 * buffers), but costs a compile: programs this large get one at once, smaller ones once they
 * ran HOT_RUNS times (a loop's region program, not a one-off).
 */
const LOOP_AT_ONCE_ELEMENTS = 1 << 14;
const HOT_RUNS = 3;

function outputElements(program: Program): number {
  return numel(valueOf(program, program.outputs[0]!).shape);
}

/** Work small enough for one thread: every value small and every matmul cheap. */
function isSmall(program: Program): boolean {
  return program.nodes.every((n) => {
    const size = numel(n.shape);
    if (size >= SMALL_ELEMENTS) return false;
    if (n.op !== 'matmul') return true;
    const a = valueOf(program, n.inputs[0]!).shape;
    return size * (a[a.length - 1] ?? 1) < SMALL_ELEMENTS * 16;
  }) && program.inputs.every((v) => numel(v.shape) < SMALL_ELEMENTS);
}

const STORAGE_TYPE = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array } as const;

/** An array of n values outside V8's heap (an ArrayBuffer's memory is). */
function offHeap(type: ComputeType, n: number): StorageArray {
  const Type = STORAGE_TYPE[type];
  return new Type(new ArrayBuffer(n * Type.BYTES_PER_ELEMENT));
}

/**
 * `feed` holding a run-time scalar of `dtype` (int64 scalars are exact integers within 2^53;
 * a bfloat16 one rounded, as every bfloat16 value a program reads is).
 */
function setScalar(feed: StorageArray, dtype: DType, v: number): StorageArray {
  if (dtype === 'int64') (feed as BigInt64Array)[0] = BigInt(Math.trunc(v));
  else feed[0] = dtype === 'bfloat16' ? roundToBf16(v) : v;
  return feed;
}
