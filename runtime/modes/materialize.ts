// Bringing one tensor into device memory, whatever the mode that recorded it.
import { bindProgram } from '../program/bind-program.js';
import type { Tensor } from '../tensor.js';
import { launch } from './launch.js';
import { regionSite } from '../call-site.js';
import { Refusal } from './refusal.js';

const reads = new Refusal();

/**
 * Runs fn with every read of a tensor value refused (whole-function capture: a branch on
 * a tensor's value cannot be traced). The error says `message`.
 */
export function forbidSyncWhile<T>(message: string, fn: () => T): T {
  return reads.during(message, fn);
}

/** Throws if reading values is forbidden right now (see forbidSyncWhile). */
export function checkSyncAllowed(what: string): void {
  reads.check(what);
}

/** fn's result, and the first read it was refused even if fn caught that error (null: none). */
export function refusedReadsIn<T>(fn: () => T): [T, Error | null] {
  return reads.firstIn(fn);
}

export function materialize(t: Tensor, reason: string): void {
  if (t._buf) return;
  t._node?.region?.flush(reason, [t]);
  // A value used only inside an earlier region: recompute it from its recipe.
  if (!t._buf) launch(bindProgram([t], regionSite(null, materialize)));
}
