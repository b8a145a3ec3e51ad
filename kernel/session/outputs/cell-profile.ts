// The profile of one cell (%profile summary | live | timeline): a runtime recording from
// the start of the cell to its end-of-cell sync. `live` shows one display at once and
// updates it in place (update_display_data, same display id) a few times a second —
// from a timer while the cell awaits, and from the runtime's events while a synchronous
// loop holds the thread — then replaces it with the final profile. `summary` shows only
// the final one; `timeline` is live with the SVG timeline (host and device lanes).
// A cell that ends within the first update period without touching the device (a
// magic, plain JavaScript) shows no profile at all.
import { randomUUID } from 'node:crypto';
import { JUPYTER_DISPLAY, type MimeBundle } from '../../language-session.js';
import type { CellSourceMaps } from '../cells/cell-source-maps.js';
import type { Send } from './ordered-outputs.js';
import type { ProfileMode } from './profile-mode.js';
import type { TensorRuntime } from '../tensor-runtime.js';

/** Live updates at most this often. */
export const LIVE_UPDATE_MS = 250;

type Recording = ReturnType<TensorRuntime['profiler']['record']>;
export type SiteMapper = NonNullable<NonNullable<Parameters<TensorRuntime['profiler']['record']>[0]>['mapSite']>;

export class CellProfile {
  private readonly displayId = randomUUID();
  private readonly recording: Recording;
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
  ) {
    const live = mode !== 'summary';
    this.recording = runtime.profiler.record({
      title,
      mapSite,
      timeline: mode === 'timeline',
      onEvent: live ? () => this.maybeUpdate() : undefined,
    });
    if (!live) return;
    this.timer = setInterval(() => this.maybeUpdate(), LIVE_UPDATE_MS);
    this.timer.unref();
  }

  /** The cell ended (its device work synced, or it failed): the final profile. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearInterval(this.timer);
    const data = this.recording.stop().data;
    const active = data.ops + data.programsRun + data.compiles.count + data.transfers.toDevice.count + data.transfers.toHost.count > 0;
    if (this.shown || active) this.publish(true);
  }

  private maybeUpdate(): void {
    if (this.finished) return;
    const now = performance.now();
    if (now - this.lastUpdate < LIVE_UPDATE_MS) return;
    this.lastUpdate = now;
    this.publish(false);
  }

  private publish(final: boolean): void {
    const profile = final ? this.recording.stop() : this.recording.snapshot();
    const bundle = (profile as unknown as { [JUPYTER_DISPLAY](): MimeBundle })[JUPYTER_DISPLAY]();
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
