// Bringing one tensor into device memory, whatever the mode that recorded it.
import { bindProgram } from '../program/bind-program.js';
import { isScalar, type Tensor } from '../tensor.js';
import { COLLECTIVE_PRIMITIVES } from '../program/collective-nodes.js';
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
  if (!t._buf) {
    checkRecomputable(t, reason);
    launch(bindProgram([t], regionSite(null, materialize)));
  }
}

/**
 * A recipe recomputed later runs on its own chip: a collective in it would wait for peers that
 * never come. Regions write collectives out, so one is left only when its region did not run
 * (an error cut it): the value is lost, and the error says so instead of waiting.
 */
export function checkRecomputable(t: Tensor, what: string): void {
  const seen = new Set<Tensor>();
  const walk = (v: Tensor): void => {
    if (v._buf || !v._node || seen.has(v)) return;
    seen.add(v);
    if (COLLECTIVE_PRIMITIVES.has(v._node.op.name)) {
      throw new Error(`${what}: ${t.describe()} needs the result of ${v._node.op.name} on chip ${v.chip}, whose program did not run ` +
        '(an error stopped it); a collective cannot run again on one chip: call it again on every chip');
    }
    for (const x of v._node.inputs) if (!isScalar(x)) walk(x);
  };
  walk(t);
}
