// Errors of asynchronous device work surface at the next sync point, naming the program,
// and the line that called it when call sites were captured (else the line that first
// compiled it). Launch sites are kept in a ring indexed by launch number: no allocation
// per launch.
import type { Site } from '../call-site.js';
import type { FailureRoot, Progress } from './protocol.js';

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

// One failure on one chip fails its collectives' peers too (their parts could not run), and
// whatever read their results: it is thrown once, at the first sync point that meets any of
// them, and its copies pending on the other chips are dropped. Keys: chip:launch of the root.
const reported = new Set<string>();
const rootKey = (r: FailureRoot) => `${r.chip}:${r.launch}`;
/** What each program is, for naming the root of a failure met on another chip (program ids are shared by the chips). */
const labels = new Map<number, string>();

/** How each failure read at its root: what a later read of a value it failed says. */
const rootTexts = new Map<string, string>();

/** Where a failure met on `chip` began, when elsewhere. */
function beganAt(root: FailureRoot, chip: number, launch: number): string {
  if (root.chip === chip && root.launch === launch) return '';
  return ` (the error began in ${labels.get(root.program) ?? `program ${root.program}`} on chip ${root.chip})`;
}

/**
 * A read of a value that failed (`message` from the device) on `chip`: the failure is thrown
 * once, its pending copies on every chip are dropped; the text names its op, line and chip.
 */
export function failureText(root: FailureRoot, message: string, chip: number): string {
  reported.add(rootKey(root));
  if (root.chip === chip) return rootTexts.get(rootKey(root)) ?? message;
  return message + beganAt(root, chip, -1);
}

/** A new session numbers its launches afresh. */
export function forgetReportedFailures(): void {
  reported.clear();
  rootTexts.clear();
}

export class ErrorAttribution {
  private readonly launchSites: (Site | null)[] = new Array(SITE_RING).fill(null);
  /** What each program is, and the line that first compiled it (captured on a miss only). */
  private readonly programInfo = new Map<number, { label: string; compiledAt: () => string }>();
  /** Evicted programs, forgotten once the launches queued before the eviction are done: [program, launch] pairs. */
  private releasing: number[] = [];
  private errors: { text: string; root: string }[] = [];
  /** Launches after `doneUpTo` up to `lastLaunch` are in flight: only their sites need settling. */
  private lastLaunch = 0;
  private doneUpTo = 0;

  /** `chip`: named in errors when the session has `several` chips. */
  constructor(private readonly chip = 0, private readonly several = false) {}

  compiled(program: number, label: string, compiledAt: () => string): void {
    this.programInfo.set(program, { label, compiledAt });
    labels.set(program, label);
  }

  launched(launch: number, site: Site | null): void {
    this.launchSites[launch % SITE_RING] = site;
    if (launch > this.lastLaunch) this.lastLaunch = launch;
  }

  /** Sites of launches in flight as text from now on (see Site.settle): only those, not the whole ring. */
  settleSites(): void {
    const from = Math.max(this.doneUpTo + 1, this.lastLaunch - SITE_RING + 1);
    for (let l = from; l <= this.lastLaunch; l++) this.launchSites[l % SITE_RING]?.settle();
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
      const on = this.several ? `chip ${this.chip}` : 'the device';
      const text = `${label} failed on ${on} (${where}): ${e.message}${beganAt(e.root, this.chip, e.launch)}`;
      if (e.root.chip === this.chip && e.root.launch === e.launch) rootTexts.set(rootKey(e.root), text);
      this.errors.push({ text, root: rootKey(e.root) });
    }
    for (let l = doneBefore + 1; l <= msg.upTo; l++) this.launchSites[l % SITE_RING] = null;
    if (msg.upTo > this.doneUpTo) this.doneUpTo = msg.upTo;
    this.forgetReleased(Math.max(doneBefore, msg.upTo));
  }

  /** Throws the first device error recorded since the last sync point, if any. */
  throwPending(): void {
    if (this.errors.length === 0) return;
    const fresh = this.errors.filter((e) => !reported.has(e.root));
    this.errors = [];
    if (fresh.length === 0) return;
    for (const e of fresh) reported.add(e.root);
    const [first, ...rest] = fresh.map((e) => e.text);
    const more = rest.length ? `\n(${rest.length} later device error${rest.length > 1 ? 's' : ''} suppressed)` : '';
    throw new DeviceError(first + more);
  }

  private forgetReleased(doneUpTo: number): void {
    const r = this.releasing;
    if (r.length === 0) return;
    this.releasing = [];
    for (let i = 0; i < r.length; i += 2) {
      if (r[i + 1]! <= doneUpTo) {
        this.programInfo.delete(r[i]!);
        labels.delete(r[i]!);
      }
      else this.releasing.push(r[i]!, r[i + 1]!);
    }
  }
}
