// The figures of one profile (one notebook cell, or one tpu.profiler.record() span) as
// plain JSON: the `application/vnd.tpu-kernel.profile+json` output, and what every
// renderer reads. Times are milliseconds; timeline times are relative to `startedAt`.
import type { ChipGeneration } from '../device/chips.js';
import type { ProfileSite } from './site.js';

export const PROFILE_MIME = 'application/vnd.tpu-kernel.profile+json';

export type WarningKind = 'recompile' | 'sync-in-loop' | 'region-cut' | 'matmul-padding';

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
  /** Roofline estimate of one run on `chip.name`. */
  readonly estimateMs: number;
  readonly bound: 'compute' | 'memory';
}

export type SpanKind = 'dispatch' | 'compile' | 'wait' | 'program';

export interface TimelineSpan {
  readonly lane: 'host' | 'device';
  readonly kind: SpanKind;
  readonly start: number;
  readonly end: number;
  readonly label: string;
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
}
