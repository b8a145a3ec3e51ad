// Records one profile: subscribes to the runtime's profiler events and the dispatch path
// from start to stop, and turns what it saw into ProfileData at any moment (live updates)
// and once more at the end.
import { performance } from 'node:perf_hooks';
import { addApplyHook, type ApplyHook } from '../modes/dispatch.js';
import { activeMode } from '../modes/mode.js';
import { currentSession, programCache } from '../device/current.js';
import { CHIPS } from '../device/chips.js';
import { settings } from '../device/settings.js';
import type { DeviceSession } from '../device/session.js';
import { profiling, subscribe, type ProfileEvent } from './events.js';
import { Profile, type ProfileRenderOptions } from './profile.js';
import type { ProfileData, ProgramFigures } from './profile-data.js';
import { programCost, roofline, type ProgramCost } from './roofline.js';
import type { SiteMapper } from './site.js';
import { Timeline } from './timeline.js';
import { WarningBook } from './warnings.js';

/** Ops whose dispatch is timed: the first, then 1 in SAMPLE_EVERY (a clock read costs as much as a fused dispatch). */
export const SAMPLE_EVERY = 32;
/** Waits whose line is captured per recording (enough to see a loop; later ones count at the last line). */
const WAIT_SITES = 16;
/** `onEvent` is called once per this many events. */
const EVENTS_PER_CALLBACK = 16;

export interface RecordOptions extends ProfileRenderOptions {
  /** Shown as the profile's heading, e.g. "cell 3". */
  title?: string;
  /** Called every few profiler events while recording (live displays throttle their updates here). */
  onEvent?: () => void;
  /** Turns stack frames into the lines the user typed (the kernel maps cell frames). */
  mapSite?: SiteMapper;
}

let lastProfile: Profile | undefined;

/** The last profile a recording finished (undefined before the first). */
export function lastProfileRecorded(): Profile | undefined {
  return lastProfile;
}

export class ProfileRecording {
  readonly startedAt = performance.now();
  private readonly session: DeviceSession = currentSession();
  private readonly peak = this.session.memory.watchPeak();
  private readonly timeline = new Timeline(this.startedAt);
  private readonly warnings: WarningBook;
  private readonly modes = new Set<string>();
  private readonly runs = new Map<number, { runs: number; deviceMs: number }>();
  private readonly costs = new Map<number, ProgramCost>();
  private ops = 0;
  private lastMode = '';
  private dispatchStart = -1;
  /** Dispatch time of the sampled ops, and how many were sampled. */
  private sampledMs = 0;
  private sampled = 0;
  private events = 0;
  /** Waits inside the dispatch of the current op (debug mode): not dispatch time. */
  private waitInDispatch = 0;
  private deviceBusyMs = 0;
  private programsRun = 0;
  private compileCount = 0;
  private compileMs = 0;
  private hits = 0;
  private misses = 0;
  private maxQueue = 0;
  private waitCount = 0;
  private waitMs = 0;
  private regions = 0;
  private readonly toDevice = { count: 0, bytes: 0 };
  private readonly toHost = { count: 0, bytes: 0 };
  private readonly unsubscribe: () => void;
  private readonly removeHook: () => void;
  private stopped: Profile | undefined;

  constructor(private readonly options: RecordOptions = {}) {
    this.warnings = new WarningBook(options.mapSite);
    profiling.waitSites = WAIT_SITES;
    const onEvent = options.onEvent;
    this.unsubscribe = subscribe(onEvent
      ? (e) => {
        this.on(e);
        if (++this.events % EVENTS_PER_CALLBACK === 0) onEvent();
      }
      : (e) => this.on(e));
    this.removeHook = addApplyHook(this.dispatched);
  }

  /** The figures so far (state 'running'). */
  snapshot(): Profile {
    return this.stopped ?? new Profile(this.data('running'), this.options);
  }

  /** Ends the recording (call after the work is synced); the final profile, also tpu.profiler.last(). */
  stop(): Profile {
    if (this.stopped) return this.stopped;
    this.unsubscribe();
    this.removeHook();
    this.stopped = new Profile(this.data('final'), this.options);
    this.peak.close();
    lastProfile = this.stopped;
    return this.stopped;
  }

  private readonly dispatched: ApplyHook = (op) => {
    if (this.dispatchStart < 0) return;
    const now = performance.now();
    this.sampledMs += now - this.dispatchStart - this.waitInDispatch;
    this.sampled++;
    this.waitInDispatch = 0;
    this.timeline.add('host', 'dispatch', this.dispatchStart, now, op.name);
    this.dispatchStart = -1;
  };

  private on(e: ProfileEvent): void {
    switch (e.kind) {
      case 'dispatch':
        if (this.ops++ % SAMPLE_EVERY === 0) this.dispatchStart = performance.now();
        if (e.mode !== this.lastMode) {
          this.modes.add(e.mode);
          this.lastMode = e.mode;
        }
        if (e.mode === 'fused') this.warnings.fusedOp();
        if (e.op === 'matmul') this.warnings.matmulOperands(e.operands);
        return;
      case 'cache':
        if (e.hit) this.hits++;
        else {
          this.misses++;
          if (e.changed) this.warnings.recompiled(e.changed, this.label(e.program));
        }
        // This launch is about to join the queue.
        this.maxQueue = Math.max(this.maxQueue, this.session.queueDepth() + 1);
        return;
      case 'compile':
        this.compileCount++;
        this.compileMs += e.ms;
        this.timeline.add('host', 'compile', e.time, e.time + e.ms, `compile ${this.label(e.program)}`);
        return;
      case 'execute': {
        this.programsRun++;
        this.deviceBusyMs += e.end - e.start;
        const r = this.runs.get(e.program) ?? { runs: 0, deviceMs: 0 };
        r.runs++;
        r.deviceMs += e.end - e.start;
        this.runs.set(e.program, r);
        this.timeline.add('device', 'program', e.start, e.end, this.label(e.program));
        return;
      }
      case 'wait':
        this.waitCount++;
        this.waitMs += e.end - e.start;
        if (this.dispatchStart >= 0) this.waitInDispatch += e.end - e.start;
        this.timeline.add('host', 'wait', e.start, e.end, `wait (${e.reason})`);
        this.warnings.waited(e.reason, e.site, e.end - e.start);
        return;
      case 'transfer': {
        const t = e.direction === 'toDevice' ? this.toDevice : this.toHost;
        t.count++;
        t.bytes += e.bytes;
        return;
      }
      case 'region':
        this.regions++;
        this.warnings.regionCut(e.reason, e.nodes);
        return;
    }
  }

  private label(program: number): string {
    return programCache().entry(program)?.label ?? `program ${program}`;
  }

  private cost(program: number): ProgramCost {
    let c = this.costs.get(program);
    if (!c) {
      const entry = programCache().entry(program);
      c = entry ? programCost(entry.program) : { flops: 0, bytes: 0 };
      this.costs.set(program, c);
    }
    return c;
  }

  private data(state: ProfileData['state']): ProfileData {
    const chip = settings.chip();
    const session = currentSession();
    const memory = session.memory.info();
    const programs = [...this.runs].map(([id, r]): ProgramFigures => {
      const cost = this.cost(id);
      const estimate = roofline(cost, chip);
      return { id, label: this.label(id), runs: r.runs, deviceMs: r.deviceMs, ...cost, estimateMs: estimate.ms, bound: estimate.bound };
    });
    const lookups = this.hits + this.misses;
    return {
      version: 1,
      state,
      title: this.options.title ?? 'profile',
      mode: activeMode(),
      modes: [...this.modes],
      startedAt: this.startedAt,
      wallMs: performance.now() - this.startedAt,
      hostDispatchMs: this.sampled ? (this.sampledMs * this.ops) / this.sampled : 0,
      deviceBusyMs: this.deviceBusyMs,
      ops: this.ops,
      programsRun: this.programsRun,
      compiles: { count: this.compileCount, ms: this.compileMs },
      cache: { hits: this.hits, misses: this.misses, hitRate: lookups ? this.hits / lookups : null },
      queueDepth: { now: session.queueDepth(), max: this.maxQueue },
      waits: { count: this.waitCount, ms: this.waitMs },
      regions: this.regions,
      transfers: { toDevice: { ...this.toDevice }, toHost: { ...this.toHost } },
      memory: {
        liveBytes: memory.liveBytes,
        peakBytes: session === this.session ? this.peak.peakBytes : memory.liveBytes,
        liveTensors: memory.liveTensors,
        capacityBytes: settings.capacityBytes(),
        capacity: settings.capacityLabel(),
      },
      chip: { name: chip, peakBf16Flops: CHIPS[chip].peakBf16Flops, hbmBytesPerSecond: CHIPS[chip].hbmBytesPerSecond },
      programs,
      warnings: this.warnings.list(),
      timeline: this.timeline.spans(),
    };
  }
}
