// Profiler events. Emitted from the one dispatch path (modes/dispatch.ts), the program
// cache, the region builder and the device session. Times are host milliseconds
// (performance.now() of the main thread); device times are converted to that clock.
// With nobody subscribed, emitting costs one boolean test at each site (`profiling.on`).

export type ProfileEvent =
  /** One op call; ms is its host time (in debug mode: including the run on the device). */
  | { kind: 'dispatch'; time: number; ms: number; op: string; shapes: readonly (readonly number[])[]; dtype: string; mode: string; site: () => string }
  | { kind: 'cache'; time: number; program: number; hash: string; hit: boolean; changed?: string; nodes: number }
  | { kind: 'compile'; time: number; program: number; ms: number }
  | { kind: 'execute'; program: number; launch: number; start: number; end: number }
  | { kind: 'wait'; start: number; end: number; reason: string; site: () => string }
  | { kind: 'transfer'; time: number; direction: 'toDevice' | 'toHost'; bytes: number }
  | { kind: 'region'; time: number; reason: string; nodes: number; outputs: number };

export type ProfileListener = (event: ProfileEvent) => void;

const listeners = new Set<ProfileListener>();
const toggles = new Set<(on: boolean) => void>();

/** Read `profiling.on` before building an event object: keeps idle overhead to one test. */
export const profiling = { on: false };

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

/** Lets the device session learn when to record device timings. */
export function onProfilingToggle(fn: (on: boolean) => void): void {
  toggles.add(fn);
}

function setOn(on: boolean): void {
  if (profiling.on === on) return;
  profiling.on = on;
  for (const t of toggles) t(on);
}
