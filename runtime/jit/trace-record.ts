// What a call traced by tpu.compile must redo or check on each replay (the JS body does not
// run again): recorded, in order, while the body runs.
// - effects: JS state the body advances every call (an optimizer's step count);
// - live reads: scalar operands from live numbers, re-read at their place among the effects;
// - guards: JS values that decided the trace's structure (momentum on or off): a replay
//   whose guard reads a different value traces again;
// - uploads: tensors the body created on the host (tpu.rand for a dropout mask, constants):
//   made again on each replay at their place among the effects (a tpu.manualSeed in the body
//   is an effect), so random numbers advance exactly as in eager execution;
// - index checks: index tensors from outside the body whose host-known values were checked in
//   range (host-known-indices.ts), so the trace's index ops cannot fail on the device: each
//   replay checks its own tensors' values first (a replay whose values are not known on the
//   host traces again).
import type { WeakScalar } from '../tensor.js';
import type { Tensor } from '../tensor.js';

export type ReplayAction = { readonly effect: () => void } | { readonly read: WeakScalar } | { readonly upload: Tensor };

export interface Guard {
  readonly what: string;
  readonly read: () => unknown;
  readonly value: unknown;
}

/** An index tensor the trace checked on the host, and the check to run on a replay's tensor in its place. */
export interface IndexCheck {
  readonly tensor: Tensor;
  /** Throws when a value is out of range; false when the values are not known on the host. */
  readonly check: (t: Tensor) => boolean;
}

export interface TraceRecord {
  readonly actions: ReplayAction[];
  readonly guards: Guard[];
  /** Tensors the body made from host values, and how to make each again. */
  readonly uploads: Map<Tensor, () => Tensor>;
  readonly indexChecks: IndexCheck[];
  /**
   * Leaves whose gradient the body's backward() made anew, and whether a replay adds it to
   * the leaf's gradient then (none was emptied in the body first: eager backward() without
   * zeroGrad() accumulates) or replaces it (the body's zeroGrad() ran first).
   */
  readonly freshGrads: Map<Tensor, boolean>;
  /** Leaves whose gradient the body emptied (zeroGrad(), `p.grad = null`). */
  readonly clearedGrads: Set<Tensor>;
}

let current: TraceRecord | null = null;

/** Runs fn while recording; returns its result and the record (null on a throw). */
export function recordTrace<T>(fn: () => T): [T, TraceRecord] {
  const outer = current;
  const record: TraceRecord = { actions: [], guards: [], uploads: new Map(), indexChecks: [], freshGrads: new Map(), clearedGrads: new Set() };
  current = record;
  try {
    return [fn(), record];
  } finally {
    current = outer;
  }
}

export function tracing(): boolean {
  return current !== null;
}

/** Registers JS work the body did once that every replayed call must do too. */
export function onEachCall(effect: () => void): void {
  current?.actions.push({ effect });
}

/** Returns read(); while tracing, a replay where read() gives another value traces again. */
export function guard<T>(what: string, read: () => T): T {
  const value = read();
  current?.guards.push({ what, read, value });
  return value;
}

export function noteLiveRead(scalar: WeakScalar): void {
  current?.actions.push({ read: scalar });
}

export function noteGradCleared(leaf: Tensor): void {
  current?.clearedGrads.add(leaf);
}

/** backward() gave `leaf` a gradient where it had none. */
export function noteFreshGrad(leaf: Tensor): void {
  current?.freshGrads.set(leaf, !current.clearedGrads.has(leaf));
}

export function noteUpload(made: Tensor, remake: () => Tensor): void {
  if (current === null) return;
  current.uploads.set(made, remake);
  current.actions.push({ upload: made });
}

/**
 * While tracing: whether the index tensor `t`, checked on the host, can be checked again on
 * each replay (it comes from outside the body; one the body uploads is made again inside the
 * replay, too late to trace anew), and if so the check is recorded. Out of a trace: true.
 */
export function recheckOnReplay(t: Tensor, check: (t: Tensor) => boolean): boolean {
  if (current === null) return true;
  if (current.uploads.has(t)) return false;
  current.indexChecks.push({ tensor: t, check });
  return true;
}

/** Bumped when a module's tensor or submodule property is replaced, or its training flag changes. */
let replacements = 0;
export function noteReplacement(): void {
  replacements++;
}
export function replacementCount(): number {
  return replacements;
}
