// The profile of one cell (%profile summary | live | timeline): a runtime recording from
// the start of the cell to its end-of-cell sync. `live` shows one display at once and
// updates it in place (update_display_data, same display id) a few times a second —
// from a timer while the cell awaits, and from the runtime's events while a synchronous
// loop holds the thread — then replaces it with the final profile. `summary` shows only
// the final one; `timeline` is live with the SVG timeline (host and device lanes);
// `trace` is timeline plus a Chrome trace file of the cell, linked from the final profile.
// A cell that ends within the first update period without touching the device (a
// magic, plain JavaScript) shows no profile at all. XLA:TPU's figures, compiled in the
// background, update the final profile when they arrive.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { JUPYTER_DISPLAY, type MimeBundle } from '../../language-session.js';
import type { CellSourceMaps } from '../cells/cell-source-maps.js';
import type { Send } from './ordered-outputs.js';
import type { ProfileMode } from './profile-mode.js';
import type { TensorRuntime } from '../tensor-runtime.js';

/** Live updates at most this often. */
export const LIVE_UPDATE_MS = 250;

type Recording = ReturnType<TensorRuntime['profiler']['record']>;

/** Where a cell's Chrome trace goes: an absolute path, and the link from the notebook's folder. */
export interface TraceFile {
  path: string;
  href: string;
}
export type SiteMapper = NonNullable<NonNullable<Parameters<TensorRuntime['profiler']['record']>[0]>['mapSite']>;

export class CellProfile {
  private readonly displayId = randomUUID();
  private readonly recording: Recording;
  private readonly runtime: TensorRuntime;
  private readonly timer: NodeJS.Timeout | undefined;
  private lastUpdate = performance.now();
  private shown = false;
  private finished = false;

  constructor(
    runtime: TensorRuntime,
    mode: Exclude<ProfileMode, 'off'>,
    private readonly emit: (send: Send) => void,
    title: string,
    mapSite: SiteMapper,
    private readonly trace?: TraceFile,
  ) {
    const live = mode !== 'summary';
    this.runtime = runtime;
    this.recording = runtime.profiler.record({
      title,
      mapSite,
      timeline: mode === 'timeline' || mode === 'trace',
      onEvent: live ? () => this.maybeUpdate(LIVE_UPDATE_MS) : undefined,
    });
    if (!live) return;
    // The timer may fire a little before a full period by performance.now(): half a
    // period of slack keeps it from skipping every other tick.
    this.timer = setInterval(() => this.maybeUpdate(LIVE_UPDATE_MS / 2), LIVE_UPDATE_MS);
    this.timer.unref();
  }

  /** The cell ended (its device work synced, or it failed): the final profile, and its trace file. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearInterval(this.timer);
    const profile = this.recording.stop();
    const data = profile.data;
    const active = data.ops + data.programsRun + data.compiles.count + data.transfers.toDevice.count + data.transfers.toHost.count > 0;
    if (!this.shown && !active) return;
    if (this.trace && active) {
      await mkdir(path.dirname(this.trace.path), { recursive: true });
      await this.runtime.profiler.exportTrace(this.trace.path, profile);
    }
    const trace = this.trace && active ? this.trace : undefined;
    this.publish(profile, trace);
    // XLA:TPU's figures of the cell's programs come from background compiles: the shown
    // profile is updated when they arrive, without holding the cell.
    void profile.then((done) => {
      const arrived = (d: typeof data) => d.programs.filter((p) => p.xla).length;
      if (arrived(done.data) > arrived(data)) this.publish(done, trace);
    });
  }

  private maybeUpdate(minGapMs: number): void {
    if (this.finished) return;
    const now = performance.now();
    if (now - this.lastUpdate < minGapMs) return;
    this.lastUpdate = now;
    this.publish(this.recording.snapshot());
  }

  private publish(profile: object, trace?: TraceFile): void {
    const bundle = (profile as unknown as { [JUPYTER_DISPLAY](): MimeBundle })[JUPYTER_DISPLAY]();
    if (trace) {
      bundle['text/html'] += `<div style="font-family:monospace;font-size:12px"><a href="${trace.href}" download>Chrome trace: ${trace.href}</a> (open in ui.perfetto.dev or chrome://tracing)</div>`;
      bundle['text/plain'] += `\ntrace: ${trace.path} (Chrome trace: ui.perfetto.dev, chrome://tracing)`;
    }
    const update = this.shown;
    this.emit((publisher) => (update ? publisher.updateDisplay(bundle, {}, this.displayId) : publisher.display(bundle, {}, this.displayId)));
    this.shown = true;
  }
}

/** Frames of the running cell become "line N" with its text; frames of earlier cells keep their name. */
export function cellSiteMapper(maps: CellSourceMaps, displayName: string): SiteMapper {
  return (frame) => {
    const first = maps.mapStack(frame).first;
    if (!first) return undefined;
    const where = first.displayName === displayName ? `line ${first.line}` : `${first.displayName}:${first.line}:${first.column}`;
    return { where, line: first.line, text: first.source.split('\n')[first.line - 1] };
  };
}
