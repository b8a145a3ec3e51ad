// One chart on screen: its Vega-Lite spec goes out at once (JupyterLab renders it),
// the SVG fallback follows when Vega has drawn it (update_display_data, same display id).
// Changes (a live loss curve) update the display at most every 250 ms; the last
// change always reaches it before the cell ends.
import type { TopLevelSpec } from 'vega-lite';
import { JUPYTER_DISPLAY, type MimeBundle } from '../../language-session.js';
import type { DisplayFunction, DisplayHandle } from '../outputs/display.js';
import { renderSvg } from './svg-fallback.js';
import { VEGA_LITE_MIME } from './vega-lite-specs.js';

export const UPDATE_INTERVAL_MS = 250;

export interface Chart {
  spec(): TopLevelSpec;
  /** The text/plain of the output. */
  summary(): string;
}

/** Shows a ready mime bundle (display() renders values through this method). */
export const shown = (bundle: MimeBundle | Promise<MimeBundle>) => ({ [JUPYTER_DISPLAY]: () => bundle });

export class ChartDisplay {
  readonly handle: DisplayHandle;
  /** Bumped on every change; an SVG is published only for the version it was drawn from. */
  private version = 0;
  private svg: string | undefined;
  private drawing = false;
  private redraw = false;
  private lastSent = 0;
  private trailing: Promise<void> | undefined;

  constructor(
    display: DisplayFunction,
    private readonly track: (work: Promise<unknown>) => void,
    private readonly chart: Chart,
  ) {
    this.handle = display(shown(this.bundle()));
    this.lastSent = Date.now();
    this.draw();
  }

  /** The chart's data changed. */
  changed(): void {
    this.version += 1;
    const wait = this.lastSent + UPDATE_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.publish();
    if (this.trailing) return;
    this.trailing = new Promise<void>((resolve) => setTimeout(() => {
      this.trailing = undefined;
      this.publish();
      resolve();
    }, wait));
    this.track(this.trailing);
  }

  private bundle(): MimeBundle {
    // The newest SVG drawn, also while a newer one is drawn: frontends without Vega-Lite show a recent chart, not text.
    return { [VEGA_LITE_MIME]: this.chart.spec(), ...(this.svg ? { 'image/svg+xml': this.svg } : {}), 'text/plain': this.chart.summary() };
  }

  private publish(): void {
    this.lastSent = Date.now();
    void this.handle.update(shown(this.bundle()));
    this.draw();
  }

  /** Draws the SVG of the current version; changes meanwhile draw again after. */
  private draw(): void {
    if (this.drawing) return void (this.redraw = true);
    this.drawing = true;
    const version = this.version;
    const drawn = renderSvg(this.chart.spec()).then((svg) => {
      this.drawing = false;
      if (version === this.version) {
        this.svg = svg;
        void this.handle.update(shown(this.bundle()));
      }
      if (this.redraw || version !== this.version) (this.redraw = false), this.draw();
    }, (error: unknown) => {
      this.drawing = false;
      throw error;
    });
    this.track(drawn);
  }
}
