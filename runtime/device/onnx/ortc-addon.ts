// Our binding to ONNX Runtime's C API (native/, built at npm install): the library that
// onnxruntime-node ships, one environment whose intra-op pool every large session shares, and
// synchronous runs that read and write the runtime's own typed arrays (no output copy).
// Missing addon or library, or TPU_KERNEL_ORTC=0: the reason, and the backend keeps
// onnxruntime-node's binding.
import { createRequire } from 'node:module';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ComputeType, StorageArray } from '../../dtype.js';

declare const handle: unique symbol;
export type OrtcSession = { readonly [handle]: 'ortc-session' };

/** A session's input or output: fixed at compile, checked at every run. */
export interface TensorSpec {
  readonly name: string;
  readonly dtype: ComputeType;
  readonly shape: readonly number[];
}

/** What native/addon.cc exports. Every call is synchronous and throws ORT's message. */
export interface OrtcAddon {
  /**
   * The process's first call loads the library, sizes the pool and loads oneDNN's GEMM from
   * `gemmLibrary` ('' for none); later calls return the same. `sgemm`: sessions run
   * tpu_kernel.Sgemm nodes; `gemm` says which GEMM, or why there is none.
   */
  init(libraryPath: string, threads: number, gemmLibrary: string): { version: string; buildInfo: string; threads: number; gemm: string; sgemm: boolean };
  /** `pooled`: the session uses the shared intra-op pool; otherwise it runs on the calling thread alone. */
  createSession(model: Uint8Array, pooled: boolean, inputs: readonly TensorSpec[], outputs: readonly TensorSpec[]): OrtcSession;
  /** ORT writes each output into the given array (Float32Array, Int32Array, BigInt64Array, or Uint8Array for bool). */
  run(session: OrtcSession, inputs: readonly StorageArray[], outputs: readonly StorageArray[]): void;
  releaseSession(session: OrtcSession): void;
  /** 'per session' once an ORT environment made before ours (without the global pool) was found. */
  threadPools(): 'global' | 'per session';
  /** Where the buffer's data starts past a 64-byte cache line (its address mod 64). */
  lineOffset(buffer: ArrayBuffer): number;
}

const here = fileURLToPath(new URL('.', import.meta.url));
// From runtime/device/onnx/ (sources, tests) or dist/runtime/device/onnx/ (built package).
const candidates = [`${here}native/build/Release/ortc.node`, `${here}../../../../runtime/device/onnx/native/build/Release/ortc.node`];

/** libonnxruntime.so.1 inside onnxruntime-node: bin/napi-v<N>/<platform>/<arch>/. */
export function onnxRuntimeLibrary(): string | undefined {
  const pkg = dirname(dirname(createRequire(import.meta.url).resolve('onnxruntime-node')));
  const bin = join(pkg, 'bin');
  if (!existsSync(bin)) return undefined;
  const file = process.platform === 'darwin' ? 'libonnxruntime.dylib' : 'libonnxruntime.so.1';
  for (const napi of readdirSync(bin).sort().reverse()) {
    const path = join(bin, napi, process.platform, process.arch, file);
    if (existsSync(path)) return path;
  }
  return undefined;
}

export type OrtcLoad = { addon: OrtcAddon; version: string; gemm: string; sgemm: boolean } | { reason: string };

/** oneDNN's shared library (Debian's libdnnl2): matmuls run by its GEMM when it loads; TPU_KERNEL_DNNL=0 keeps ORT's. */
function gemmLibrary(): string {
  return process.env.TPU_KERNEL_DNNL === '0' ? '' : 'libdnnl.so.2';
}

/** The addon with the library loaded and its pool sized to `threads`, or why not. */
export function loadOrtc(threads: number): OrtcLoad {
  if (process.env.TPU_KERNEL_ORTC === '0') return { reason: 'TPU_KERNEL_ORTC=0' };
  const path = candidates.find((p) => existsSync(p));
  if (!path) return { reason: 'the ortc addon is not built (npm run build:native needs g++ and Node headers)' };
  const library = onnxRuntimeLibrary();
  if (!library) return { reason: `onnxruntime-node ships no ONNX Runtime library for ${process.platform}/${process.arch}` };
  try {
    const addon = createRequire(import.meta.url)(path) as OrtcAddon;
    const { version, gemm, sgemm } = addon.init(library, threads, gemmLibrary());
    return { addon, version, gemm, sgemm };
  } catch (e) {
    return { reason: `the ortc addon does not load: ${(e as Error).message}` };
  }
}
