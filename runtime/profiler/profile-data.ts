// The figures of one profile (one notebook cell, or one tpu.profiler.record() span) as
// plain JSON: the `application/vnd.tpu-kernel.profile+json` output, and what every
// renderer reads. Times are milliseconds; timeline times are relative to `startedAt`.
import type { ChipGeneration } from '../device/chips.js';
import type { ProfileSite } from './site.js';
import type { XlaFigures } from '../device/tpu-loop/xla-figures.js';

export const PROFILE_MIME = 'application/vnd.tpu-kernel.profile+json';

export type WarningKind = 'hbm' | 'recompile' | 'sync-in-loop' | 'region-cut' | 'matmul-padding' | 'chip-imbalance' | 'sharding-fallback';

export interface ProfileWarning {
  readonly kind: WarningKind;
  readonly message: string;
  readonly site: ProfileSite;
  /** How many times it happened at that site. */
  readonly count: number;
}

export interface ProgramFigures {
  readonly id: number;
  readonly label: string;
  readonly runs: number;
  /** Device time of its runs in this profile. */
  readonly deviceMs: number;
  readonly flops: number;
  readonly bytes: number;
  /** One run on `chip.name`: XLA:TPU's estimate once it compiled the program, else the roofline's. */
  readonly estimateMs: number;
  /** 'XLA:TPU v5e' or 'roofline estimate'. */
  readonly estimatedBy: string;
  /** Which roof limits the roofline estimate (absent with XLA:TPU's). */
  readonly bound?: 'compute' | 'memory';
  /** XLA:TPU's figures of the program compiled for one chip of `chip.name`, when they have arrived. */
  readonly xla?: XlaFigures;
}

export type SpanKind = 'dispatch' | 'compile' | 'wait' | 'program';

export interface TimelineSpan {
  readonly lane: 'host' | 'device';
  readonly kind: SpanKind;
  readonly start: number;
  readonly end: number;
  readonly label: string;
  /** The chip of a device span, when it is not chip 0 (each chip has its own lane). */
  readonly chip?: number;
}

/** With several chips: each chip's memory, and the collectives between them. */
export interface ChipsFigures {
  readonly memory: readonly { readonly chip: number; readonly liveBytes: number; readonly peakBytes: number; readonly liveTensors: number; readonly capacityBytes: number }[];
  /** Collectives run in the profile (each chip's part counted once per chip), bytes the chips sent each other, and their device time. */
  readonly collectives: { readonly count: number; readonly bytes: number; readonly ms: number; readonly byOp: Readonly<Record<string, { count: number; bytes: number }>> };
  /**
   * The collectives XLA:TPU compiled into the programs the chips ran, each chip's program times
   * its runs on that chip, with their operands' bytes: in all, by collective and chip by chip.
   * Present once XLA:TPU's figures of such a program have arrived (libtpu).
   */
  readonly xlaCollectives?: XlaCollectiveTotals;
}

export interface XlaCollectiveTotals {
  readonly count: number;
  readonly bytes: number;
  readonly byOp: Readonly<Record<string, { count: number; bytes: number }>>;
  readonly perChip: readonly { readonly chip: number; readonly count: number; readonly bytes: number }[];
}

export interface ProfileData {
  readonly version: 1;
  /** 'running' while the cell runs (live updates), 'final' once it ended. */
  readonly state: 'running' | 'final';
  readonly title: string;
  /** The mode at the end, and every mode ops were dispatched in. */
  readonly mode: string;
  readonly modes: readonly string[];
  readonly startedAt: number;
  readonly wallMs: number;
  /**
   * Time of the host in the op dispatch path (checks, shape inference, recording or
   * enqueueing), waits excluded: the first op measured (it counts as itself), 1 in 128 after it
   * measured and scaled to the other ops; never more than the wall time outside device waits.
   */
  readonly hostDispatchMs: number;
  readonly deviceBusyMs: number;
  readonly ops: number;
  readonly programsRun: number;
  readonly compiles: { readonly count: number; readonly ms: number };
  readonly cache: { readonly hits: number; readonly misses: number; readonly hitRate: number | null };
  readonly queueDepth: { readonly now: number; readonly max: number };
  readonly waits: { readonly count: number; readonly ms: number };
  readonly regions: number;
  readonly transfers: {
    readonly toDevice: { readonly count: number; readonly bytes: number };
    readonly toHost: { readonly count: number; readonly bytes: number };
  };
  readonly memory: {
    readonly liveBytes: number;
    readonly peakBytes: number;
    readonly liveTensors: number;
    readonly capacityBytes: number;
    /** "14.9 GiB (v5e)" */
    readonly capacity: string;
  };
  readonly chip: { readonly name: ChipGeneration; readonly peakBf16Flops: number; readonly hbmBytesPerSecond: number };
  readonly programs: readonly ProgramFigures[];
  readonly warnings: readonly ProfileWarning[];
  readonly timeline: { readonly host: readonly TimelineSpan[]; readonly device: readonly TimelineSpan[] };
  /** Present when the session has several chips. */
  readonly chips?: ChipsFigures;
}
