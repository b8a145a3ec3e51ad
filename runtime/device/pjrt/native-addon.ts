// The pjrt native addon (native/), loaded lazily: a machine without a C++ toolchain or
// libtpu still runs the CPU backend, and only the TPU features report why they are missing.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

declare const handle: unique symbol;
/** Native objects behind opaque handles; each is freed when its handle is collected. */
export type Handle<Kind extends string> = { readonly [handle]: Kind };
export type PluginHandle = Handle<'plugin'>;
export type TopologyHandle = Handle<'topology'>;
export type ExecutableHandle = Handle<'executable'>;
export type ClientHandle = Handle<'client'>;
export type LoadedExecutableHandle = Handle<'loaded-executable'>;
export type BufferHandle = Handle<'buffer'>;

export type NamedValue = string | number | boolean | number[];
export type NamedValues = Record<string, NamedValue>;

export interface DeviceDescription {
  readonly id: number;
  readonly kind: string;
}

export interface NativeCompiledMemoryStats {
  readonly generatedCodeBytes: number;
  readonly argumentBytes: number;
  readonly outputBytes: number;
  readonly aliasBytes: number;
  readonly tempBytes: number;
  readonly hostGeneratedCodeBytes: number;
  readonly hostArgumentBytes: number;
  readonly hostOutputBytes: number;
  readonly hostAliasBytes: number;
  readonly hostTempBytes: number;
  readonly peakBytes: number;
  readonly totalBytes: number;
}

/** What native/addon.cc exports. Promise-returning calls run on libuv's thread pool. */
export interface PjrtAddon {
  openPlugin(path: string): Promise<PluginHandle>;
  /** Whether the calls started from now on run at idle CPU priority (Linux SCHED_IDLE: only on an otherwise idle core). */
  setIdlePriority(idle: boolean): void;
  pluginInfo(plugin: PluginHandle): { path: string; apiMajor: number; apiMinor: number; attributes: NamedValues };
  createTopology(plugin: PluginHandle, name: string, options: NamedValues): Promise<TopologyHandle>;
  topologyInfo(topology: TopologyHandle): { platformName: string; platformVersion: string; devices: DeviceDescription[] };
  compile(topology: TopologyHandle, code: string, format: 'mlir', compileOptions: Uint8Array): Promise<ExecutableHandle>;
  executableInfo(exe: ExecutableHandle): { name: string; numReplicas: number; numPartitions: number; numOutputs: number };
  costAnalysis(exe: ExecutableHandle): NamedValues;
  memoryStats(exe: ExecutableHandle): NativeCompiledMemoryStats;
  optimizedProgram(exe: ExecutableHandle): { format: string; code: Uint8Array };
  serialize(exe: ExecutableHandle): Uint8Array;
  // TPU hosts: one client per process, never destroyed.
  createClient(plugin: PluginHandle, options: NamedValues): Promise<ClientHandle>;
  clientInfo(client: ClientHandle): { platformVersion: string; devices: DeviceDescription[] };
  compileAndLoad(client: ClientHandle, code: string, format: 'mlir', compileOptions: Uint8Array): Promise<LoadedExecutableHandle>;
  /** `bufferType` is a PJRT_Buffer_Type number; data is dense, major to minor. */
  toDevice(client: ClientHandle, deviceIndex: number, data: ArrayBufferView, bufferType: number, dims: number[]): Promise<BufferHandle>;
  /** The buffer's bytes, dense and major to minor (whatever layout XLA:TPU gave it on the chip). */
  toHost(buffer: BufferHandle): Promise<Uint8Array>;
  /** Frees device memory now (else at garbage collection), or when the transfers and executions using it settle. */
  freeBuffer(buffer: BufferHandle): void;
  /** Releases the executable on the device now (else at garbage collection), or when its executions settle. */
  releaseExecutable(exe: LoadedExecutableHandle): void;
  execute(exe: LoadedExecutableHandle, argumentLists: BufferHandle[][]): Promise<BufferHandle[][]>;
}

const here = fileURLToPath(new URL('.', import.meta.url));
// From runtime/device/pjrt/ (sources, tests) or dist/runtime/device/pjrt/ (built package).
const candidates = [
  `${here}native/build/Release/pjrt.node`,
  `${here}../../../../runtime/device/pjrt/native/build/Release/pjrt.node`,
];

let loaded: { addon: PjrtAddon } | { reason: string } | undefined;

/** The addon, or the reason it is not available. */
export function loadAddon(): { addon: PjrtAddon } | { reason: string } {
  if (loaded) return loaded;
  const path = candidates.find((p) => existsSync(p));
  if (!path) {
    loaded = { reason: 'the pjrt native addon is not built (npm run build:native needs g++ and Node headers)' };
    return loaded;
  }
  try {
    loaded = { addon: createRequire(import.meta.url)(path) as PjrtAddon };
  } catch (e) {
    loaded = { reason: `the pjrt native addon at ${path} does not load: ${(e as Error).message}` };
  }
  return loaded;
}
