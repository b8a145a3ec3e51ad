// The active mode and the switch between modes (allowed at any time, even with work queued:
// the mode left runs its pending work first).
import { assertMode, type Mode, type ModeName } from './mode-type.js';
import { debug, strict } from './eager.js';
import { fused } from './fused.js';
import type { Tensor } from '../tensor.js';
import type { BoundRegion } from '../program/bind-program.js';
import { Refusal } from './refusal.js';

const byName: Record<ModeName, Mode> = { debug, strict, fused };

let active: Mode = byName[process.env.TPU_KERNEL_MODE ? assertMode(process.env.TPU_KERNEL_MODE, 'TPU_KERNEL_MODE') : 'strict'];

export function activeMode(): ModeName {
  return active.name;
}

/** The active mode itself: dispatch, composite ops and in-place updates go through it. */
export function currentMode(): Mode {
  return active;
}

/** Makes `next` the active mode; the mode left runs its pending work first. */
export function enterMode(next: Mode): void {
  if (next !== active) active.leave('mode switch');
  active = next;
}

const switches = new Refusal();

/** Runs fn with tpu.mode(name) and tpu.withMode refused (a compiled function is traced in one mode). */
export function forbidModeSwitchWhile<T>(message: string, fn: () => T): T {
  return switches.during(message, fn);
}

export function setMode(mode: ModeName, source = 'tpu.mode'): void {
  switches.check(source);
  enterMode(byName[assertMode(mode, source)]);
}

/**
 * Runs fn in an execution mode ('fused' or 'strict') and restores the previous one.
 * @example tpu.withMode('strict', () => x.add(1))
 */
export function withMode<T>(mode: ModeName, fn: () => T): T {
  switches.check('tpu.withMode');
  return inMode(byName[assertMode(mode, 'tpu.withMode')], fn);
}

/**
 * Runs fn(arg) in `mode` (tpu.compile traces in a fused mode of its own), then switches back.
 * `arg` lets a hot caller pass a module-level fn instead of a closure made per call.
 */
export function inMode<T, A = undefined>(mode: Mode, fn: (arg: A) => T, arg?: A): T {
  const before = active;
  enterMode(mode);
  let restoreNow = true;
  try {
    const result = fn(arg as A);
    if (result instanceof Promise) {
      restoreNow = false;
      return result.finally(() => enterMode(before)) as T;
    }
    return result;
  } finally {
    if (restoreNow) enterMode(before);
  }
}

/** Runs the active mode's pending region, if it has one (see Region.flush). */
export function flushRegion(
  reason: string, required: readonly Tensor[] = [],
  beforeLaunch?: (bp: BoundRegion, updates: ReadonlyMap<Tensor, Tensor>) => void,
): void {
  active.region?.flush(reason, required, beforeLaunch);
}
