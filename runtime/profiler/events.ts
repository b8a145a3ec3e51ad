import { userFrame } from '../call-site.js';
import type { DType } from '../dtype.js';

// Profiler events. Emitted from the one dispatch path (modes/dispatch.ts), the program
// cache, the region builder and the device session. Times are host milliseconds
// (performance.now() of the main thread); device times are converted to that clock.
// With nobody subscribed, emitting costs one boolean test at each site (`profiling.on`).
// The per-op events (dispatch, cache hit) go only to subscribers that ask for them
// (`profiling.perOp`): a recording reads the runtime's counters instead (ops per mode,
// cache hits) and gets a `sample` event with the host time of 1 op in SAMPLE_EVERY
// (reading the clock costs ~0.1 µs here, as much as a whole fused dispatch).

export type ProfileEvent =
  /** One op entering the mode (per-op subscribers only): the same object every time, valid only during the call. */
  | { kind: 'dispatch'; op: string; operands: readonly { readonly shape: readonly number[] }[]; mode: string }
  /** The host dispatch time of a sampled op (the first after a recording starts, then 1 in SAMPLE_EVERY); `waitMs`: device waits inside it (debug mode). */
  | { kind: 'sample'; op: string; start: number; end: number; waitMs: number }
  /** A matmul's operands (dispatch tells, for ops flagged profilesAsMatmul, so the profiler can warn about tile padding). */
  | { kind: 'matmul'; operands: readonly { readonly shape: readonly number[]; readonly dtype: DType }[] }
  /** A cache miss always; a hit for per-op subscribers only. */
  | { kind: 'cache'; program: number; hash: string; hit: boolean; changed?: string; nodes: number }
  /** `time`: when the compile started (host clock). */
  | { kind: 'compile'; time: number; program: number; ms: number }
  | { kind: 'execute'; program: number; launch: number; start: number; end: number; chip?: number }
  /** A collective on one chip (device thread timing, host clock): bytes it sent to its peers. */
  | { kind: 'collective'; chip: number; op: string; bytes: number; start: number; end: number }
  /** `site`: where the host started waiting, "file:line:column" of the sync point's caller ('' when not captured). */
  | { kind: 'wait'; start: number; end: number; reason: string; site: string }
  | { kind: 'transfer'; time: number; direction: 'toDevice' | 'toHost'; bytes: number }
  | { kind: 'region'; time: number; reason: string; nodes: number; outputs: number }
  /** A DTensor op with no sharding rule ran on replicated inputs (runtime/distributed/sharding-rules.ts). */
  | { kind: 'sharding'; op: string; message: string };

export type ProfileListener = (event: ProfileEvent) => void;

/** Ops between two `sample` events. */
export const SAMPLE_EVERY = 128;

const listeners = new Set<ProfileListener>();
const perOpListeners = new Set<ProfileListener>();
const toggles = new Set<(on: boolean) => void>();

/**
 * Read `profiling.on` before building an event object: keeps idle overhead to one test.
 * `waitSites`: how many more waits may capture their caller's line (a stack capture costs
 * 50-100 µs on these machines); recordings set it, the device session spends it.
 * `perOp`: someone wants the per-op events. `untilSample`: ops until the next `sample` event.
 * `waitedMs`: host wait time so far (a sample subtracts the waits inside its op).
 */
export const profiling = { on: false, perOp: false, waitSites: 0, untilSample: 1, waitedMs: 0 };

/** The caller's line for a wait event, while the budget lasts ('' after). */
export function waitSite(skip: Function): string {
  if (profiling.waitSites <= 0) return '';
  profiling.waitSites--;
  return userFrame(skip);
}

export function emit(event: ProfileEvent): void {
  for (const l of listeners) l(event);
}

/** A per-op event (dispatch, cache hit): only to the subscribers that asked for them. */
export function emitPerOp(event: ProfileEvent): void {
  for (const l of perOpListeners) l(event);
}

/**
 * Subscribes to the events (with `perOp: false`, not to the per-op dispatch and
 * cache-hit events: what a recording does); returns the unsubscribe function.
 */
export function subscribe(listener: ProfileListener, options: { perOp?: boolean } = {}): () => void {
  listeners.add(listener);
  if (options.perOp !== false) perOpListeners.add(listener);
  profiling.perOp = perOpListeners.size > 0;
  setOn(true);
  return () => {
    listeners.delete(listener);
    perOpListeners.delete(listener);
    profiling.perOp = perOpListeners.size > 0;
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
