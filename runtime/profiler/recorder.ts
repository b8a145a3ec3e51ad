// Records one profile: reads the runtime's counters (ops per mode, cache hits, the queue's
// high-water mark) as differences from the start, subscribes to the rarer profiler events
// (samples of dispatch time, compiles, cache misses, executions, waits, transfers, region
// cuts, matmul operands), and turns both into ProfileData at any moment (live updates) and
// once more at the end. Nothing runs per op but the counters: see events.ts.
import { performance } from 'node:perf_hooks';
import { opsDispatched } from '../modes/stats.js';
import { activeMode } from '../modes/mode.js';
import { chipSessions, currentSession } from '../device/current.js';
import { memoryImbalance } from '../device/chip-memory.js';
import { CHIPS, type ChipGeneration } from '../device/chips.js';
import { settings } from '../device/settings.js';
import { formatBytes } from '../device/memory.js';
import { MODES, type ModeName } from '../modes/mode-type.js';
import type { DeviceSession } from '../device/session.js';
import { programCache, type CompiledEntry, type ProgramCache } from '../program/program-cache.js';
import { profiling, subscribe, type ProfileEvent } from './events.js';
import { Profile, type ProfileRenderOptions } from './profile.js';
import type { ChipsFigures, ProfileData, ProfileWarning, ProgramFigures, XlaCollectiveTotals } from './profile-data.js';
import { tpuInLoop, type XlaResult } from '../device/tpu-loop/tpu-in-loop.js';
import { findLayout, moduleLayouts, type ModuleLayouts } from '../device/tpu-loop/tiled-layout.js';
import { programCost, roofline, type ProgramCost } from './roofline.js';
import { siteLater, type ProfileSite, type SiteMapper } from './site.js';
import { Timeline } from './timeline.js';
import { WarningBook } from './warnings.js';

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

/** Each XLA:TPU module's layouts, parsed once (live profiles list the warnings a few times a second). */
const parsedLayouts = new WeakMap<XlaResult, ModuleLayouts>();

function layoutsOf(result: XlaResult): ModuleLayouts {
  let layouts = parsedLayouts.get(result);
  if (!layouts) {
    layouts = moduleLayouts(result.hloText);
    parsedLayouts.set(result, layouts);
  }
  return layouts;
}

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
  private readonly opsAtStart = { ...opsDispatched };
  private readonly cache: ProgramCache = programCache();
  private readonly hitsAtStart = this.cache.hits;
  /** The session's queue high-water mark before this recording reset it (restored at stop, for an enclosing recording). */
  private readonly queueHighBefore = this.session.queueHigh;
  /** Per program: its runs, their device time, and its runs chip by chip (index: chip). */
  private readonly runs = new Map<number, { runs: number; deviceMs: number; byChip: number[] }>();
  private readonly costs = new Map<number, ProgramCost>();
  /** Programs compiled during the recording, kept so an eviction from the cache does not lose their label and cost. */
  private readonly compiled = new Map<number, CompiledEntry>();
  /** The user's line that compiled each program (read only for a warning about the program). */
  private readonly compileSites = new Map<number, () => ProfileSite>();
  /** Dispatch time of the first op (always sampled, often a cache miss: it counts as itself), then of the 1 in SAMPLE_EVERY after it. */
  private firstSampleMs = -1;
  private sampledMs = 0;
  private sampled = 0;
  private events = 0;
  private deviceBusyMs = 0;
  private programsRun = 0;
  private compileCount = 0;
  private compileMs = 0;
  private misses = 0;
  private waitCount = 0;
  private waitMs = 0;
  private regions = 0;
  private readonly collectives = { count: 0, bytes: 0, ms: 0, byOp: {} as Record<string, { count: number; bytes: number }> };
  private readonly toDevice = { count: 0, bytes: 0 };
  private readonly toHost = { count: 0, bytes: 0 };
  private readonly unsubscribe: () => void;
  private stopped: (Profile & PromiseLike<Profile>) | undefined;

  constructor(private readonly options: RecordOptions = {}) {
    this.warnings = new WarningBook(options.mapSite);
    profiling.waitSites = WAIT_SITES;
    profiling.untilSample = 1; // the first op is timed
    this.session.queueHigh = 0;
    const onEvent = options.onEvent;
    this.unsubscribe = subscribe(onEvent
      ? (e) => {
        this.on(e);
        if (++this.events % EVENTS_PER_CALLBACK === 0) onEvent();
      }
      : (e) => this.on(e), { perOp: false });
  }

  /** The figures so far (state 'running'). */
  snapshot(): Profile {
    return this.stopped ?? new Profile(this.data('running'), this.options);
  }

  /**
   * Ends the recording (call after the work is synced); the final profile, also
   * tpu.profiler.last(). `await` it for the profile with XLA:TPU's figures of every program
   * it ran (compiles in the background: they may arrive after the recording ends).
   */
  stop(): Profile & PromiseLike<Profile> {
    if (this.stopped) return this.stopped;
    this.unsubscribe();
    const final = this.data('final');
    this.peak.close();
    this.session.queueHigh = Math.max(this.session.queueHigh, this.queueHighBefore);
    const ids = [...this.runs.keys()];
    const complete = tpuInLoop.settled(ids).then(() => {
      const chips = final.chips && { ...final.chips, ...this.xlaCollectives() };
      const done = new Profile({ ...final, programs: this.programFigures(), warnings: this.warningList(), ...(chips ? { chips } : {}) }, this.options);
      if (lastProfile === this.stopped) lastProfile = done;
      return done;
    });
    // Only this instance is thenable: the profile it resolves to is not (await would loop).
    this.stopped = Object.defineProperty(new Profile(final, this.options), 'then', {
      value: (ok?: (p: Profile) => unknown, fail?: (e: unknown) => unknown) => complete.then(ok, fail),
    }) as Profile & PromiseLike<Profile>;
    lastProfile = this.stopped;
    return this.stopped;
  }

  /** Calls `listener` when XLA:TPU's figures of a program this recording ran arrive (live profiles redraw). */
  onXlaFigures(listener: () => void): () => void {
    return tpuInLoop.onResult((id) => {
      if (this.runs.has(id)) listener();
    });
  }

  /** Ops dispatched in `mode` since the recording started. */
  private opsIn(mode: ModeName): number {
    return opsDispatched[mode] - this.opsAtStart[mode];
  }

  private on(e: ProfileEvent): void {
    switch (e.kind) {
      case 'sample':
        if (this.firstSampleMs < 0) this.firstSampleMs = e.end - e.start - e.waitMs;
        else {
          this.sampledMs += e.end - e.start - e.waitMs;
          this.sampled++;
        }
        this.timeline.add('host', 'dispatch', e.start, e.end, e.op);
        return;
      case 'matmul':
        this.warnings.matmulOperands(e.operands);
        return;
      case 'cache':
        if (e.hit) return; // hits are counted by the cache
        this.misses++;
        this.remember(e.program);
        this.compileSites.set(e.program, siteLater(this.options.mapSite));
        if (e.changed) this.warnings.recompiled(e.changed, this.label(e.program));
        return;
      case 'compile':
        this.compileCount++;
        this.compileMs += e.ms;
        this.timeline.add('host', 'compile', e.time, e.time + e.ms, `compile ${this.label(e.program)}`);
        return;
      case 'execute': {
        this.programsRun++;
        this.deviceBusyMs += e.end - e.start;
        const r = this.runs.get(e.program) ?? { runs: 0, deviceMs: 0, byChip: [] };
        r.runs++;
        r.deviceMs += e.end - e.start;
        const chip = e.chip ?? 0;
        r.byChip[chip] = (r.byChip[chip] ?? 0) + 1;
        this.runs.set(e.program, r);
        this.timeline.add('device', 'program', e.start, e.end, this.label(e.program), e.chip);
        return;
      }
      case 'collective': {
        const c = this.collectives;
        c.count++;
        c.bytes += e.bytes;
        c.ms += e.end - e.start;
        const op = (c.byOp[e.op] ??= { count: 0, bytes: 0 });
        op.count++;
        op.bytes += e.bytes;
        return;
      }
      case 'wait':
        this.waitCount++;
        this.waitMs += e.end - e.start;
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
        this.warnings.regionCut(e.reason, e.nodes, opsDispatched.fused);
        return;
      case 'sharding':
        this.warnings.shardingFallback(e.message);
        return;
    }
  }

  private remember(program: number): void {
    const entry = programCache().get(program);
    if (entry) this.compiled.set(program, entry);
  }

  private entry(program: number): CompiledEntry | undefined {
    return programCache().get(program) ?? this.compiled.get(program);
  }

  private label(program: number): string {
    return this.entry(program)?.label ?? `program ${program}`;
  }

  private cost(program: number): ProgramCost {
    let c = this.costs.get(program);
    if (!c) {
      const entry = this.entry(program);
      c = entry ? programCost(entry.program) : { flops: 0, bytes: 0 };
      this.costs.set(program, c);
    }
    return c;
  }

  /** An estimate from samples, never more than the host's time outside device waits. */
  private hostDispatchMs(ops: number, wallMs: number): number {
    if (this.firstSampleMs < 0) return 0;
    const perOp = this.sampled ? this.sampledMs / this.sampled : this.firstSampleMs;
    return Math.min(this.firstSampleMs + perOp * Math.max(0, ops - 1), Math.max(0, wallMs - this.waitMs));
  }

  private programFigures(): ProgramFigures[] {
    const chip = settings.chip();
    return [...this.runs].map(([id, r]): ProgramFigures => {
      const cost = this.cost(id);
      const base = { id, label: this.label(id), runs: r.runs, deviceMs: r.deviceMs, ...cost };
      const xla = tpuInLoop.result(id);
      if (xla && xla.chip === chip) {
        return { ...base, estimateMs: xla.figures.optimalSeconds * 1000, estimatedBy: `XLA:TPU ${chip}`, xla: xla.figures };
      }
      const estimate = roofline(cost, chip);
      return { ...base, estimateMs: estimate.ms, estimatedBy: 'roofline estimate', bound: estimate.bound };
    });
  }

  /** XLA:TPU's results for the session's chip of the programs this recording ran, by program id. */
  private xlaResults(): Map<number, XlaResult> {
    const chip = settings.chip();
    const out = new Map<number, XlaResult>();
    for (const id of this.runs.keys()) {
      const xla = tpuInLoop.result(id);
      if (xla && xla.chip === chip) out.set(id, xla);
    }
    return out;
  }

  /** The warnings so far, with a program over the chip's HBM (as XLA:TPU compiled it) first; padding by XLA:TPU's layouts. */
  private warningList(): ProfileWarning[] {
    const chip = settings.chip();
    const capacity = settings.capacityBytes();
    const over: ProfileWarning[] = [];
    const results = this.xlaResults();
    for (const [id, xla] of results) {
      const f = xla.figures;
      const needs = f.peakBytes || f.argumentBytes + f.outputBytes + f.tempBytes;
      if (needs <= capacity) continue;
      over.push({
        kind: 'hbm', site: this.compileSites.get(id)?.() ?? { where: `program ${id}` }, count: 1,
        message: `${this.label(id)} needs ${formatBytes(needs)} (XLA:TPU: arguments ${formatBytes(f.argumentBytes)}, ` +
          `outputs ${formatBytes(f.outputBytes)}, temporaries ${formatBytes(f.tempBytes)}); ${hbmOf(chip)}`,
      });
    }
    const modules = [...results.values()].map(layoutsOf);
    return [...over, ...this.chipWarnings(), ...this.warnings.list((dtype, shape) => findLayout(modules, dtype, shape))];
  }

  /** XLA:TPU's collectives of every chip's programs, times their runs on each chip (absent until some have arrived). */
  private xlaCollectives(): { xlaCollectives?: XlaCollectiveTotals } {
    const byOp: Record<string, { count: number; bytes: number }> = {};
    const perChip = chipSessions().map((s) => ({ chip: s.chip, count: 0, bytes: 0 }));
    let count = 0;
    let bytes = 0;
    for (const [id, xla] of this.xlaResults()) {
      const c = xla.figures.collectives;
      if (!c) continue;
      this.runs.get(id)!.byChip.forEach((runs, chip) => {
        count += c.count * runs;
        bytes += c.bytes * runs;
        perChip[chip]!.count += c.count * runs;
        perChip[chip]!.bytes += c.bytes * runs;
        for (const [op, f] of Object.entries(c.byOp)) {
          const o = (byOp[op] ??= { count: 0, bytes: 0 });
          o.count += f.count * runs;
          o.bytes += f.bytes * runs;
        }
      });
    }
    return count ? { xlaCollectives: { count, bytes, byOp, perChip } } : {};
  }

  /** Each chip's memory (several chips only). */
  private chipMemory(): ChipsFigures['memory'] {
    return chipSessions().map((s) => ({ chip: s.chip, ...s.memory.info(), capacityBytes: settings.capacityBytes() }));
  }

  /** A chip holding far more than the others: the sharding (or a toChip) left it unbalanced. */
  private chipWarnings(): ProfileWarning[] {
    if (settings.chips() < 2) return [];
    const memory = this.chipMemory();
    const heavy = memoryImbalance(memory.map((m) => m.liveBytes));
    if (!heavy) return [];
    return [{
      kind: 'chip-imbalance', site: { where: `chip ${heavy.chip}` }, count: 1,
      message: `chip ${heavy.chip} holds ${formatBytes(heavy.bytes)}, ${(heavy.bytes / heavy.mean).toFixed(1)}× the mean of the ${memory.length} chips ` +
        `(${memory.map((m) => formatBytes(m.liveBytes)).join(' / ')}): shard the large tensors over the mesh, or free what moved there`,
    }];
  }

  private data(state: ProfileData['state']): ProfileData {
    const chip = settings.chip();
    const session = currentSession();
    const memory = session.memory.info();
    const programs = this.programFigures();
    const ops = MODES.reduce((n, m) => n + this.opsIn(m), 0);
    // A tpu.reset() while recording starts a new cache: its hits count from zero.
    const current = programCache();
    const hits = this.cache.hits - this.hitsAtStart + (current === this.cache ? 0 : current.hits);
    const lookups = hits + this.misses;
    this.warnings.settleCut(opsDispatched.fused);
    const wallMs = performance.now() - this.startedAt;
    return {
      version: 1,
      state,
      title: this.options.title ?? 'profile',
      mode: activeMode(),
      modes: MODES.filter((m) => this.opsIn(m) > 0),
      startedAt: this.startedAt,
      wallMs,
      hostDispatchMs: this.hostDispatchMs(ops, wallMs),
      deviceBusyMs: this.deviceBusyMs,
      ops,
      programsRun: this.programsRun,
      compiles: { count: this.compileCount, ms: this.compileMs },
      cache: { hits, misses: this.misses, hitRate: lookups ? hits / lookups : null },
      queueDepth: { now: session.queueDepth(), max: session.queueHigh },
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
      warnings: this.warningList(),
      timeline: this.timeline.spans(),
      ...(settings.chips() > 1 ? { chips: { memory: this.chipMemory(), collectives: { ...this.collectives, byOp: { ...this.collectives.byOp } }, ...this.xlaCollectives() } } : {}),
    };
  }
}

function hbmOf(chip: ChipGeneration): string {
  const set = settings.capacityBytes() !== CHIPS[chip].hbmBytes;
  return `${set ? `the session's ${chip}` : `a ${chip} chip`} has ${formatBytes(settings.capacityBytes())}${set ? ' (set)' : ''}`;
}
