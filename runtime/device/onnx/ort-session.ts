// One compiled ONNX model, run synchronously into arrays the caller allocated: through our
// ortc addon (ORT reads and writes those arrays) or, without it, onnxruntime-node's binding.
import ort from 'onnxruntime-node';
// The package's synchronous session (declared in its binding.d.ts): InferenceSession.run
// wraps the same call in a setImmediate and promises, several µs per op; the device thread
// runs one program at a time anyway.
import { binding, initOrt, type Binding } from 'onnxruntime-node/dist/binding.js';
import type { StorageArray } from '../../dtype.js';
import { loadOrtc, type OrtcAddon, type TensorSpec } from './ortc-addon.js';
import type { LowerOptions } from './lower-program.js';

export interface OrtSession {
  /** Inputs and outputs in the specs' order; the outputs are written in place. */
  run(inputs: readonly StorageArray[], outputs: readonly StorageArray[]): void;
  release(): void;
}

export interface OrtSessionFactory {
  /** Which binding runs sessions, and why when it is not ours. */
  readonly binding: string;
  /** Which of our custom nodes (tpu_kernel.*, through the ortc addon) sessions run. */
  readonly customOps: LowerOptions;
  /** `pooled`: the session may use the intra-op pool (large programs); otherwise one thread. */
  open(model: Uint8Array, pooled: boolean, inputs: readonly TensorSpec[], outputs: readonly TensorSpec[]): OrtSession;
  /** Where a buffer's data starts past a 64-byte cache line, when the binding can tell (ortc). */
  readonly lineOffset?: (buffer: ArrayBuffer) => number;
}

export function sessionFactory(threads: number): OrtSessionFactory {
  const ortc = loadOrtc(threads);
  if ('addon' in ortc) return ortcFactory(ortc.addon, ortc.version, ortc.gemm, ortc.sgemm);
  // Only now: ORT keeps one environment per process, and ortc's must be the first to have the global pool.
  initOrt();
  return nodeFactory(threads, `onnxruntime-node (${ortc.reason})`);
}

function ortcFactory(addon: OrtcAddon, version: string, gemm: string, sgemm: boolean): OrtSessionFactory {
  return {
    get binding() {
      return `ortc (ONNX Runtime ${version}, ${addon.threadPools()} thread pool; matmul GEMM: ${gemm})`;
    },
    customOps: { sgemm, axpy: true, softmax: true, select: true },
    lineOffset: (buffer) => addon.lineOffset(buffer),
    open(model, pooled, inputs, outputs) {
      const session = addon.createSession(model, pooled, inputs, outputs);
      return {
        run: (ins, outs) => addon.run(session, ins, outs),
        release: () => addon.releaseSession(session),
      };
    },
  };
}

const RUN_OPTIONS = {};

function nodeFactory(threads: number, name: string): OrtSessionFactory {
  const base = {
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // A failing kernel comes back to the runtime as an error naming the op and its call;
    // ONNX Runtime's own log line about it (stderr, outside the notebook) would only repeat it.
    logSeverityLevel: 4,
    // Spinning intra-op threads cost 3x op-by-op on 2 cores (measured): off.
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  } as const;
  const parallel: ort.InferenceSession.SessionOptions = { ...base, intraOpNumThreads: threads };
  // Small programs gain nothing from a thread pool, and creating one per session costs.
  const serial: ort.InferenceSession.SessionOptions = { ...base, intraOpNumThreads: 1 };
  return {
    binding: name,
    customOps: {},
    open(model, pooled, inputs, outputs) {
      const session: Binding.InferenceSession = new binding.InferenceSession();
      session.loadModel(model.buffer as ArrayBuffer, model.byteOffset, model.byteLength, pooled ? parallel : serial);
      const tensors = (specs: readonly TensorSpec[], arrays: readonly StorageArray[]) =>
        Object.fromEntries(specs.map((s, i) => [s.name, new ort.Tensor(s.dtype, arrays[i] as Float32Array, s.shape as number[])]));
      return {
        // Pre-allocated fetches: the binding still copies each output, into the array given.
        run: (ins, outs) => void session.run(tensors(inputs, ins), tensors(outputs, outs), RUN_OPTIONS),
        release: () => session.dispose(),
      };
    },
  };
}
