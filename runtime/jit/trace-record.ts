// What a call traced by tpu.compile must redo or check on each replay (the JS body does not
// run again): recorded, in order, while the body runs.
// - effects: JS state the body advances every call (an optimizer's step count);
// - live reads: scalar operands from live numbers, re-read at their place among the effects;
// - guards: JS values that decided the trace's structure (momentum on or off): a replay
//   whose guard reads a different value traces again;
// - uploads: tensors the body created on the host (tpu.rand for a dropout mask, constants):
//   made again on each replay, so random numbers advance exactly as in eager execution.
import type { WeakScalar } from '../tensor.js';
import type { Tensor } from '../tensor.js';

export type ReplayAction = { readonly effect: () => void } | { readonly read: WeakScalar };

export interface Guard {
  readonly what: string;
  readonly read: () => unknown;
  readonly value: unknown;
}

export interface TraceRecord {
  readonly actions: ReplayAction[];
  readonly guards: Guard[];
  /** Tensors the body made from host values, and how to make each again. */
  readonly uploads: Map<Tensor, () => Tensor>;
}

let current: TraceRecord | null = null;

/** Runs fn while recording; returns its result and the record (null on a throw). */
export function recordTrace<T>(fn: () => T): [T, TraceRecord] {
  const outer = current;
  const record: TraceRecord = { actions: [], guards: [], uploads: new Map() };
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

export function noteUpload(made: Tensor, remake: () => Tensor): void {
  current?.uploads.set(made, remake);
}

/** Bumped when a module's tensor or submodule property is replaced, or its training flag changes. */
let replacements = 0;
export function noteReplacement(): void {
  replacements++;
}
export function replacementCount(): number {
  return replacements;
}
