// libtpu loaded once per process through the addon, with the environment it needs on a
// machine without TPU chips, and what the session reports about it (tpu.device()).
import { existsSync } from 'node:fs';
import { loadAddon, type PjrtAddon, type PluginHandle } from './native-addon.js';
import { findLibtpu } from './libtpu-path.js';
import { PjrtError, TpuCompilerUnavailableError } from './errors.js';

export interface Libtpu {
  readonly addon: PjrtAddon;
  readonly plugin: PluginHandle;
  readonly info: TpuCompilerInfo;
}

export interface TpuCompilerInfo {
  readonly available: true;
  readonly libtpuPath: string;
  readonly source: 'TPU_LIBRARY_PATH' | 'python libtpu package';
  /** Version of the `libtpu` Python package, when it was found that way. */
  readonly libtpuVersion?: string;
  /** PJRT C API version the plugin implements, e.g. '0.112'. */
  readonly pjrtApiVersion: string;
  /** StableHLO versions the plugin reads: current and oldest. */
  readonly stablehloVersion?: string;
  readonly stablehloMinimumVersion?: string;
  /** ms to load and initialize the plugin. */
  readonly loadMs: number;
}

export type TpuCompilerStatus = TpuCompilerInfo | { readonly available: false; readonly reason: string };

// On a machine without TPU chips libtpu would ask a cloud metadata server for each of its
// settings (~30 s each) and warn on stderr; these say "no TPU VM here". With no chips to
// guard, several processes (kernels, JAX) may load libtpu at once: without
// ALLOW_MULTIPLE_LIBTPU_LOAD the second fails on /tmp/libtpu_lockfile. A TPU VM keeps its own.
const NO_TPU_HOST_DEFAULTS: Record<string, string> = {
  TPU_SKIP_MDS_QUERY: '1',
  ALLOW_MULTIPLE_LIBTPU_LOAD: '1',
  TPU_WORKER_HOSTNAMES: 'localhost',
  TPU_ACCELERATOR_TYPE: 'v5litepod-4',
};

/** TPU chips show up as /dev/accel* (v4, v5e) or VFIO groups (v5p, v6e). */
export function hasTpuChips(): boolean {
  return existsSync('/dev/accel0') || existsSync('/dev/vfio/0');
}

function prepareEnvironment(): void {
  if (hasTpuChips()) return;
  for (const [name, value] of Object.entries(NO_TPU_HOST_DEFAULTS)) process.env[name] ??= value;
}

function version(v: unknown): string | undefined {
  return Array.isArray(v) ? v.join('.') : undefined;
}

async function open(): Promise<Libtpu> {
  const loaded = loadAddon();
  if ('reason' in loaded) throw new TpuCompilerUnavailableError(`TPU compiler not available: ${loaded.reason}`);
  const location = await findLibtpu();
  if ('reason' in location) throw new TpuCompilerUnavailableError(`TPU compiler not available: ${location.reason}`);
  prepareEnvironment();
  // Without chips libtpu only compiles for the profile's figures, beside the CPU executor:
  // measured, its start and compiles in the background made a session's first 1024³ matmuls
  // 1.5-2x slower (both cores busy with the GEMM) until they were done.
  loaded.addon.setIdlePriority(!hasTpuChips());
  const start = performance.now();
  let plugin: PluginHandle;
  try {
    plugin = await loaded.addon.openPlugin(location.path);
  } catch (e) {
    throw PjrtError.from(e);
  }
  const loadMs = performance.now() - start;
  const p = loaded.addon.pluginInfo(plugin);
  const info: TpuCompilerInfo = {
    available: true,
    libtpuPath: location.path,
    source: location.source,
    libtpuVersion: 'packageVersion' in location ? location.packageVersion : undefined,
    pjrtApiVersion: `${p.apiMajor}.${p.apiMinor}`,
    stablehloVersion: version(p.attributes.stablehlo_current_version),
    stablehloMinimumVersion: version(p.attributes.stablehlo_minimum_version),
    loadMs,
  };
  return { addon: loaded.addon, plugin, info };
}

let opening: Promise<Libtpu> | undefined;
let loaded: TpuCompilerInfo | undefined;

/** The loaded libtpu's description, without waiting (undefined until it has loaded). */
export function loadedTpuCompiler(): TpuCompilerInfo | undefined {
  return loaded;
}

/** libtpu, loaded and initialized on first use (off the main thread); rejects with the reason. */
export function libtpu(): Promise<Libtpu> {
  opening ??= open().then((l) => {
    loaded = l.info;
    return l;
  });
  return opening;
}

/** Which TPU compiler this process uses, or why there is none. Loads libtpu on first call. */
export async function tpuCompilerInfo(): Promise<TpuCompilerStatus> {
  try {
    return (await libtpu()).info;
  } catch (e) {
    return { available: false, reason: (e as Error).message };
  }
}
