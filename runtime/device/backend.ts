// The PJRT-shaped backend interface. The device thread drives exactly this surface, so a
// libtpu/PJRT backend slots in here without touching tensors, modes or the compiler.
import type { DType, StorageArray } from '../dtype.js';
import type { Program } from '../program/program.js';
import type { ProgramDescription } from './protocol.js';

/** A buffer in device memory, owned by the backend. */
export interface BackendBuffer {
  readonly dtype: DType;
  readonly length: number;
}

export interface BackendMemoryStats {
  readonly bytesInUse: number;
  readonly buffers: number;
  readonly executables: number;
  readonly generatedLoops?: number;
  /** The onnx backend's binding to ONNX Runtime: 'ortc (ONNX Runtime 1.30.0, global thread pool)', or 'onnxruntime-node (<why not ours>)'. */
  readonly binding?: string;
  /** Reuse of freed buffers (onnx/buffer-pool.ts): pooled sizes handed out again, made afresh, held free. */
  readonly pool?: { readonly reused: number; readonly fresh: number; readonly pooledBytes: number };
}

export interface Backend<Executable = unknown, Buffer extends BackendBuffer = BackendBuffer> {
  readonly name: string;
  /** Compiles a program once; the executable is reused for every execution. */
  compile(program: Program): Promise<Executable>;
  /** Frees an executable the program cache evicted (no execution of it is queued any more). */
  release(exe: Executable): Promise<void>;
  /**
   * Runs an executable; the promise is its completion event and yields its output buffers. A
   * backend whose work is synchronous (ONNX Runtime on the CPU) returns the buffers themselves:
   * the device thread then runs the launch without a promise.
   */
  execute(exe: Executable, inputs: readonly Buffer[], scalars: readonly number[]): Buffer[] | Promise<Buffer[]>;
  toDevice(dtype: DType, data: StorageArray): Buffer;
  /** The buffer's values (a TPU backend waits for the chip's copy). */
  toHost(buffer: Buffer): StorageArray | Promise<StorageArray>;
  free(buffer: Buffer): void;
  memoryStats(): BackendMemoryStats;
  /** How it runs a compiled program, as it runs it now (%program); undefined: the host's own lowering says it. */
  describe?(exe: Executable): ProgramDescription;
}

export interface BackendOptions {
  /** Intra-op threads of the backend's compute pool. */
  readonly threads: number;
}
