import { userFrame } from '../call-site.js';

// Profiler events. Emitted from the one dispatch path (modes/dispatch.ts), the program
// cache, the region builder and the device session. Times are host milliseconds
// (performance.now() of the main thread); device times are converted to that clock.
// With nobody subscribed, emitting costs one boolean test at each site (`profiling.on`).
// The per-op events (dispatch, cache) carry no time and the dispatch event is one reused
// object: reading the clock costs ~0.1-0.2 µs here, as much as a whole fused dispatch,
// so the recorder reads it for a sample of ops only.

export type ProfileEvent =
  /** One op entering the mode: the same object every time, valid only during the call. */
  | { kind: 'dispatch'; op: string; operands: readonly { readonly shape: readonly number[] }[]; mode: string }
  | { kind: 'cache'; program: number; hash: string; hit: boolean; changed?: string; nodes: number }
  /** `time`: when the compile started (host clock). */
  | { kind: 'compile'; time: number; program: number; ms: number }
  | { kind: 'execute'; program: number; launch: number; start: number; end: number }
  /** `site`: where the host started waiting, "file:line:column" of the sync point's caller ('' when not captured). */
  | { kind: 'wait'; start: number; end: number; reason: string; site: string }
  | { kind: 'transfer'; time: number; direction: 'toDevice' | 'toHost'; bytes: number }
  | { kind: 'region'; time: number; reason: string; nodes: number; outputs: number };

export type ProfileListener = (event: ProfileEvent) => void;

const listeners = new Set<ProfileListener>();
const toggles = new Set<(on: boolean) => void>();

/**
 * Read `profiling.on` before building an event object: keeps idle overhead to one test.
 * `waitSites`: how many more waits may capture their caller's line (a stack capture costs
 * 50-100 µs on these machines); recordings set it, the device session spends it.
 */
export const profiling = { on: false, waitSites: 0 };

/** The caller's line for a wait event, while the budget lasts ('' after). */
export function waitSite(skip: Function): string {
  if (profiling.waitSites <= 0) return '';
  profiling.waitSites--;
  return userFrame(skip);
}

export function emit(event: ProfileEvent): void {
  for (const l of listeners) l(event);
}

/** Subscribes to every event; returns the unsubscribe function. */
export function subscribe(listener: ProfileListener): () => void {
  listeners.add(listener);
  setOn(true);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) setOn(false);
  };
}

/** Lets the device session learn when to record device timings; returns the unsubscribe function. */
export function onProfilingToggle(fn: (on: boolean) => void): () => void {
  toggles.add(fn);
  return () => void toggles.delete(fn);
}

function setOn(on: boolean): void {
  if (profiling.on === on) return;
  profiling.on = on;
  for (const t of toggles) t(on);
}
