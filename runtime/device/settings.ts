// Session settings: chip generation, HBM capacity, intra-op threads, program cache size.
// Environment variables give the defaults; tpu.setDevice() changes them at run time.
import { availableParallelism } from 'node:os';
import { assertChip, CHIPS, DEFAULT_CHIP, type ChipGeneration } from './chips.js';
import { formatBytes } from './memory.js';

/** An environment variable's value as a positive integer, or a RangeError naming the variable. */
export function positiveInt(value: string, source: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${source} must be a positive integer; got ${JSON.stringify(value)}`);
  return n;
}

const env = process.env;
let chip: ChipGeneration = env.TPU_KERNEL_CHIP ? assertChip(env.TPU_KERNEL_CHIP, 'TPU_KERNEL_CHIP') : DEFAULT_CHIP;
let hbmOverride: number | undefined = env.TPU_KERNEL_HBM_BYTES
  ? positiveInt(env.TPU_KERNEL_HBM_BYTES, 'TPU_KERNEL_HBM_BYTES')
  : undefined;
const threads = env.TPU_KERNEL_THREADS
  ? positiveInt(env.TPU_KERNEL_THREADS, 'TPU_KERNEL_THREADS')
  : Math.min(availableParallelism(), 4);
let chips = env.TPU_KERNEL_CHIPS ? positiveInt(env.TPU_KERNEL_CHIPS, 'TPU_KERNEL_CHIPS') : 1;
/** How long a chip waits at a collective for a peer that never comes before its collective fails. */
const peerTimeoutMs = env.TPU_KERNEL_PEER_TIMEOUT_MS ? positiveInt(env.TPU_KERNEL_PEER_TIMEOUT_MS, 'TPU_KERNEL_PEER_TIMEOUT_MS') : 60_000;
/** Whether the chip count may change now (no session holds chips): set by device/current.ts. */
let chipsInUse = (): boolean => false;
export function onChipsInUse(check: () => boolean): void {
  chipsInUse = check;
}
// Compiled programs kept (each an ONNX Runtime session on the device thread); beyond it the
// least recently used is evicted and recompiled if used again.
const DEFAULT_PROGRAM_CACHE = 1024;
let programCacheSize = env.TPU_KERNEL_PROGRAM_CACHE
  ? positiveInt(env.TPU_KERNEL_PROGRAM_CACHE, 'TPU_KERNEL_PROGRAM_CACHE')
  : DEFAULT_PROGRAM_CACHE;

export interface DeviceOptions {
  /** TPU generation: v4 (32.0 GiB HBM), v5e (14.9 GiB, default), v5p (88.5 GiB), v6e (29.8 GiB). */
  chip?: ChipGeneration;
  /** Overrides the chip's HBM capacity (bytes); null returns to the chip's. */
  hbmBytes?: number | null;
  /** Compiled programs kept before the least recently used is evicted (default 1024). */
  programCacheSize?: number;
  /** Emulated chips, each with its own device thread, HBM and queue (default TPU_KERNEL_CHIPS or 1). */
  chips?: number;
}

export const settings = {
  chip: () => chip,
  capacityBytes: () => hbmOverride ?? CHIPS[chip].hbmBytes,
  capacityLabel: () => (hbmOverride === undefined ? `${formatBytes(CHIPS[chip].hbmBytes)} (${chip})` : `${formatBytes(hbmOverride)} (${chip}, set)`),
  /** Intra-op threads of each chip's backend: emulated chips share the host's cores. */
  threads: () => (chips > 1 ? Math.max(1, Math.floor(threads / chips)) : threads),
  chips: () => chips,
  peerTimeoutMs: () => peerTimeoutMs,
  programCacheSize: () => programCacheSize,
  set(options: DeviceOptions): void {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`tpu.setDevice: options must be an object like { chip: 'v5e' }; got ${JSON.stringify(options)}`);
    }
    if (options.chips !== undefined && options.chips !== chips) {
      if (!Number.isInteger(options.chips) || options.chips <= 0) {
        throw new RangeError(`tpu.setDevice: chips must be a positive integer; got ${JSON.stringify(options.chips)}`);
      }
      if (chipsInUse()) throw new Error(`tpu.setDevice: the chip count can change only before the first tensor or after \`await tpu.reset()\` (the session runs ${chips} chip${chips > 1 ? 's' : ''}; asked for ${options.chips})`);
      chips = options.chips;
    }
    if (options.chip !== undefined) chip = assertChip(options.chip, 'tpu.setDevice');
    if (options.hbmBytes === null) hbmOverride = undefined;
    else if (options.hbmBytes !== undefined) {
      if (!Number.isInteger(options.hbmBytes) || options.hbmBytes <= 0) {
        throw new RangeError(`tpu.setDevice: hbmBytes must be a positive integer; got ${JSON.stringify(options.hbmBytes)}`);
      }
      hbmOverride = options.hbmBytes;
    }
    if (options.programCacheSize !== undefined) {
      if (!Number.isInteger(options.programCacheSize) || options.programCacheSize <= 0) {
        throw new RangeError(`tpu.setDevice: programCacheSize must be a positive integer; got ${JSON.stringify(options.programCacheSize)}`);
      }
      programCacheSize = options.programCacheSize;
    }
  },
};
