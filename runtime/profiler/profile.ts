// A profile as a value: cells display it (Symbol.for('Jupyter.display') gives text/plain,
// text/html, the JSON figures, and with `timeline` the SVG timeline), scripts read
// `.data` or print it.
import { PROFILE_MIME, type ProfileData } from './profile-data.js';
import { renderHtml } from './render-html.js';
import { renderTimelineSvg } from './render-svg.js';
import { renderText } from './render-text.js';

export interface ProfileRenderOptions {
  /** Adds the SVG timeline (inline in the HTML, and as image/svg+xml). */
  timeline?: boolean;
}

export class Profile {
  constructor(readonly data: ProfileData, private readonly options: ProfileRenderOptions = {}) {}

  [Symbol.for('Jupyter.display')](): Record<string, unknown> {
    const bundle: Record<string, unknown> = {
      'text/plain': renderText(this.data),
      'text/html': renderHtml(this.data, this.options),
      [PROFILE_MIME]: this.toJSON(),
    };
    if (this.options.timeline) bundle['image/svg+xml'] = this.timelineSvg();
    return bundle;
  }

  timelineSvg(): string {
    return renderTimelineSvg(this.data);
  }

  toJSON(): ProfileData {
    return JSON.parse(JSON.stringify(this.data)) as ProfileData;
  }

  toString(): string {
    return renderText(this.data);
  }
}
