// The `tpu` namespace: what a notebook cell (or a Node script) writes.
import { performance } from 'node:perf_hooks';
import * as creation from './creation.js';
import { functional } from './tpu-functions.js';
import { manualSeed } from './random.js';
import { scope } from './scope.js';
import { activeMode, currentMode, setMode, withMode } from './modes/mode.js';
import { syncDevice, syncDeviceBlocking } from './modes/sync.js';
import './modes/values.js';
import './views/inplace-ops.js';
import { closeSession, currentSession } from './device/current.js';
import { programCache } from './program/program-cache.js';
import { interruptBuffer, interruptWake } from './device/signal.js';
import type { DeviceStats } from './device/protocol.js';
import { settings, type DeviceOptions } from './device/settings.js';
import type { ModeName } from './modes/mode-type.js';
import type { MemoryInfo } from './device/memory.js';
import { matmulPrecision, setMatmulPrecision, type MatmulPrecision } from './ops/matmul.js';
import { emit, profiling } from './profiler/events.js';
import { profiler } from './profiler/api.js';
import { setCallSites } from './call-site.js';
import { training } from './training.js';
import { tpuCompilerSummary, type TpuCompilerSummary } from './device/tpu-loop/compiler-summary.js';

function mode(): ModeName;
function mode(m: ModeName): ModeName;
function mode(m?: ModeName): ModeName {
  if (m !== undefined) setMode(m);
  return activeMode();
}

export interface DeviceInfo {
  readonly backend: string;
  readonly chip: string;
  readonly capacityBytes: number;
  readonly capacity: string;
  readonly threads: number;
  /** Compiled programs kept before the least recently used is evicted. */
  readonly programCacheSize: number;
  readonly mode: ModeName;
  readonly matmulPrecision: MatmulPrecision;
  /** The TPU compiler beside the executor (`backend`): XLA:TPU through libtpu, or why none. */
  readonly tpuCompiler: TpuCompilerSummary;
}

export const tpu = {
  ...creation,
  ...functional,
  ...training,
  manualSeed,
  scope,
  mode,
  withMode,
  setMatmulPrecision,
  /** Profiles: tpu.profiler.record(), .last(), .lastProgram(), .exportTrace(path) (see runtime/profiler/api.ts). */
  profiler,
  /** Call sites for device errors: true records every strict op (several µs each), 'auto' (default) the ops that may fail on the device, false none. */
  setCallSites,

  /** Sync point: runs the pending fused region and waits for all queued device work. */
  sync(): Promise<void> {
    return syncDevice();
  },

  /** Like sync(), blocking the thread. */
  syncBlocking(): void {
    syncDeviceBlocking();
  },

  memory(): MemoryInfo {
    const m = currentSession().memory;
    m.capacityBytes = settings.capacityBytes();
    return m.info();
  },

  /** The n largest live tensors' buffers: bytes, shape, dtype and the op that made them. */
  largestTensors(n = 10) {
    return currentSession().memory.largest(n);
  },

  /** Chip generation and HBM capacity: tpu.setDevice({ chip: 'v4' }) or { hbmBytes }. */
  setDevice(options: DeviceOptions): DeviceInfo {
    settings.set(options);
    programCache().trim();
    return tpu.device();
  },

  device(): DeviceInfo {
    return {
      backend: 'onnxruntime-cpu',
      chip: settings.chip(),
      capacityBytes: settings.capacityBytes(),
      capacity: settings.capacityLabel(),
      threads: settings.threads(),
      programCacheSize: settings.programCacheSize(),
      mode: activeMode(),
      matmulPrecision: matmulPrecision(),
      tpuCompiler: tpuCompilerSummary(),
    };
  },

  /** A compiled program by id (the `program` of profiler events): IR, label, hash. */
  program(id: number) {
    return programCache().get(id);
  },

  /** Counters for the profiler and %program. */
  stats() {
    const s = currentSession();
    const c = programCache();
    return {
      programsCompiled: c.misses,
      cacheHits: c.hits,
      cacheMisses: c.misses,
      programsCached: c.size(),
      programsEvicted: c.evictions,
      queueDepth: s.queueDepth(),
      pendingOps: currentMode().region?.size() ?? 0,
      bytesToDevice: s.bytesToDevice,
      bytesToHost: s.bytesToHost,
      lastProgram: c.last,
    };
  },

  /** The device thread's own figures (executables, buffers, bytes) once the work queued so far ran. */
  deviceStats(): Promise<DeviceStats> {
    return currentSession().deviceStats();
  },

  /**
   * For an interrupt: drops the pending fused region and queued executions that have not
   * started, rejects pending waits. Materialized tensors are kept; tensors whose work was
   * dropped keep their recipe (fused) or become unreadable (strict).
   */
  cancelPending(): { droppedOps: number; droppedLaunches: number } {
    const droppedOps = currentMode().region?.drop() ?? 0;
    const droppedLaunches = currentSession().cancelPending();
    if (profiling.on) emit({ kind: 'region', time: performance.now(), reason: 'cancelled', nodes: droppedOps, outputs: 0 });
    return { droppedOps, droppedLaunches };
  },

  /**
   * The shared buffer a kernel hands to its control thread once, so that thread can
   * interrupt a blocking wait on the main thread with interruptWaits(buffer).
   */
  interruptBuffer,
  /** The same as data ({ buffer, flag, notify }): a kernel's control thread wakes the waits without loading the runtime. */
  interruptWake,

  /** A new TPU session: every device buffer is freed (%reset). */
  async reset(): Promise<MemoryInfo> {
    currentMode().region?.drop();
    const before = tpu.memory();
    await closeSession();
    return before;
  },
};

export type Tpu = typeof tpu;
