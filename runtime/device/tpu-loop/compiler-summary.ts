// Which TPU compiler the session uses, answered at once (tpu.device(), %device): libtpu's
// location without loading it, its versions once the background compiles loaded it.
import { settings } from '../settings.js';
import { findLibtpuSync, loadedTpuCompiler } from '../pjrt/index.js';
import { chipTopology, sliceTopology, tpuCompileSwitchedOff, tpuInLoop } from './tpu-in-loop.js';

export interface TpuCompilerSummary {
  /** 'XLA:TPU (libtpu)' when programs are compiled for the chip, else 'none'. */
  readonly compiler: 'XLA:TPU (libtpu)' | 'none';
  /** What it does, or why not: "every program, for v5e:1x1, in the background" (and the slice of a collective program's chips). */
  readonly status: string;
  readonly topology?: string;
  readonly libtpuPath?: string;
  readonly libtpuVersion?: string;
  /** PJRT C API version of the plugin (once it loaded). */
  readonly pjrtApiVersion?: string;
  /** Programs compiled in this process, and found in the disk cache. */
  readonly compiled: number;
  readonly fromDisk: number;
}

export function tpuCompilerSummary(): TpuCompilerSummary {
  const counts = { compiled: tpuInLoop.compiled, fromDisk: tpuInLoop.fromDisk };
  if (tpuCompileSwitchedOff()) return { compiler: 'none', status: 'off (TPU_KERNEL_TPU_COMPILE=off)', ...counts };
  const loaded = loadedTpuCompiler();
  const where = loaded ? { path: loaded.libtpuPath, packageVersion: loaded.libtpuVersion } : findLibtpuSync();
  const reason = tpuInLoop.unavailable ?? ('reason' in where ? where.reason : undefined);
  if (reason !== undefined || 'reason' in where) return { compiler: 'none', status: `unavailable: ${reason}`, ...counts };
  const topology = chipTopology(settings.chip());
  const chips = settings.chips();
  const spmd = chips > 1 ? ` (with collectives: for ${sliceTopology(settings.chip(), chips)}, ${chips} partitions)` : '';
  return {
    compiler: 'XLA:TPU (libtpu)',
    status: `every program, for ${topology}${spmd}, in the background`,
    topology,
    libtpuPath: where.path,
    libtpuVersion: where.packageVersion,
    pjrtApiVersion: loaded?.pjrtApiVersion,
    ...counts,
  };
}
