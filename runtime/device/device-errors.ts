// Errors of asynchronous device work surface at the next sync point, naming the program,
// and the line that called it when call sites were captured (else the line that first
// compiled it). Launch sites are kept in a ring indexed by launch number: no allocation
// per launch.
import type { Site } from '../call-site.js';
import type { DeviceMessage } from './protocol.js';

export class DeviceError extends Error {
  override name = 'DeviceError';
}
export class CancelledError extends Error {
  override name = 'CancelledError';
}

/** Launches in flight before dispatch waits for the device (bounds the queue in long loops). */
export const MAX_IN_FLIGHT = 16384;
/** Ring size for call sites of launches in flight (> MAX_IN_FLIGHT + 1). */
const SITE_RING = 32768;

type Progress = Extract<DeviceMessage, { t: 'progress' }>;

export class ErrorAttribution {
  private readonly launchSites: (Site | null)[] = new Array(SITE_RING).fill(null);
  /** What each program is, and the line that first compiled it (captured on a miss only). */
  private readonly programInfo = new Map<number, { label: string; compiledAt: () => string }>();
  /** Evicted programs, forgotten once the launches queued before the eviction are done: [program, launch] pairs. */
  private releasing: number[] = [];
  private errors: string[] = [];

  compiled(program: number, label: string, compiledAt: () => string): void {
    this.programInfo.set(program, { label, compiledAt });
  }

  launched(launch: number, site: Site | null): void {
    this.launchSites[launch % SITE_RING] = site;
  }

  /** Sites of launches in flight as text from now on (see Site.settle). */
  settleSites(): void {
    for (const site of this.launchSites) site?.settle();
  }

  /** `program` was released after launch `lastLaunch`: forgotten once that launch is done. */
  released(program: number, lastLaunch: number): void {
    this.releasing.push(program, lastLaunch);
  }

  /** The device reported launches up to `msg.upTo` done (after `doneBefore`), with their errors. */
  progress(msg: Progress, doneBefore: number): void {
    for (const e of msg.errors ?? []) {
      const site = this.launchSites[e.launch % SITE_RING];
      const info = this.programInfo.get(e.program);
      const label = info?.label ?? `program ${e.program}`;
      const where = site
        ? `called at ${site.format()}`
        : `first compiled at ${info ? info.compiledAt() : 'an unknown line'}; tpu.setCallSites(true) names the exact call`;
      this.errors.push(`${label} failed on the device (${where}): ${e.message}`);
    }
    for (let l = doneBefore + 1; l <= msg.upTo; l++) this.launchSites[l % SITE_RING] = null;
    this.forgetReleased(Math.max(doneBefore, msg.upTo));
  }

  /** Throws the first device error recorded since the last sync point, if any. */
  throwPending(): void {
    if (this.errors.length === 0) return;
    const [first, ...rest] = this.errors;
    this.errors = [];
    const more = rest.length ? `\n(${rest.length} later device error${rest.length > 1 ? 's' : ''} suppressed)` : '';
    throw new DeviceError(first + more);
  }

  private forgetReleased(doneUpTo: number): void {
    const r = this.releasing;
    if (r.length === 0) return;
    this.releasing = [];
    for (let i = 0; i < r.length; i += 2) {
      if (r[i + 1]! <= doneUpTo) this.programInfo.delete(r[i]!);
      else this.releasing.push(r[i]!, r[i + 1]!);
    }
  }
}
