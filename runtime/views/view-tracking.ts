// Views alias their base, as in PyTorch, by functionalization (PyTorch/XLA's model): a view
// remembers its base and how to recompute itself from it; a write through a view becomes a
// functional update of the base (scatter of the new values at the positions the view reads),
// the base takes it in place (modes/assign) and every live view of the base is recomputed.
import { Tensor } from '../tensor.js';
import { filled } from '../ops/constant.js';
import { where } from '../ops/where.js';
import { collectGarbage } from '../device/gc-pressure.js';

/**
 * Views of one base listed before a collection is asked for. A dropped view leaves the list
 * only once collected, and until then every in-place update of the base recomputes it: a
 * training loop makes views of each weight every step (w.T) and few device bytes, so
 * collections paced by device memory came too seldom and each step recorded more ops.
 */
const COLLECT_AT = 64;
/** Views recorded since the last collection asked for here: one collection serves every base. */
let recordedSinceCollect = 0;

interface ViewOf {
  readonly base: Tensor;
  /** Recomputes the view from (a value of) its base. */
  readonly from: (base: Tensor) => Tensor;
  /** expand's views repeat elements: writing through them is an error, as in PyTorch. */
  readonly readOnly: boolean;
}

declare module '../tensor.js' {
  interface Tensor {
    _viewOf?: ViewOf;
    /** The live views of this base (weak: a dropped view is not kept for recomputation). */
    _views?: WeakRef<Tensor>[];
    /** The length of _views at which its dropped entries are next removed. */
    _viewsPruneAt?: number;
  }
}

// View methods call each other (T -> permute, at -> reshape): only the outermost records.
let depth = 0;

/** Runs fn with view methods returning plain tensors (values made for the runtime's own use). */
export function untracked<T>(fn: () => T): T {
  depth++;
  try { return fn(); } finally { depth--; }
}

function record(input: Tensor, out: Tensor, step: (t: Tensor) => Tensor, readOnly: boolean): void {
  if (out === input || !(out instanceof Tensor)) return;
  const parent = input._viewOf;
  const base = parent ? parent.base : input;
  const from = parent ? (b: Tensor) => step(parent.from(b)) : step;
  out._viewOf = { base, from, readOnly: readOnly || (parent?.readOnly ?? false) };
  const views = (base._views ??= []);
  views.push(new WeakRef(out));
  recordedSinceCollect++;
  // Views made in a loop and dropped: bounded by twice the live ones (and COLLECT_AT).
  if (views.length >= (base._viewsPruneAt ?? 16)) {
    // before any deref: a deref keeps its target to the end of the job
    if (views.length >= COLLECT_AT && recordedSinceCollect >= COLLECT_AT) {
      recordedSinceCollect = 0;
      collectGarbage();
    }
    base._views = views.filter((r) => r.deref() !== undefined);
    base._viewsPruneAt = Math.max(COLLECT_AT, 2 * base._views.length + 16);
  }
}

/** Makes each named method (or getter) of Tensor return views of its input. */
export function trackViews(methods: readonly string[], getters: readonly string[], isView: (name: string, args: unknown[]) => boolean): void {
  for (const name of methods) {
    const original = (Tensor.prototype as any)[name] as (...a: unknown[]) => Tensor;
    Object.defineProperty(Tensor.prototype, name, {
      value(this: Tensor, ...args: unknown[]) {
        if (depth > 0) return original.apply(this, args);
        const out = untracked(() => original.apply(this, args));
        if (isView(name, args)) record(this, out, (t) => original.apply(t, args), name === 'expand');
        return out;
      },
      writable: true, configurable: true, enumerable: true,
    });
  }
  for (const name of getters) {
    const get = Object.getOwnPropertyDescriptor(Tensor.prototype, name)!.get!;
    Object.defineProperty(Tensor.prototype, name, {
      get(this: Tensor) {
        if (depth > 0) return get.call(this);
        const out = untracked(() => get.call(this));
        record(this, out, (t) => get.call(t), false);
        return out;
      },
      configurable: true,
    });
  }
}

/** The base's new value after writing `value` through the view `view`. */
export function writeThrough(view: Tensor, value: Tensor): { base: Tensor; newBase: Tensor } {
  const v = view._viewOf!;
  if (v.readOnly) throw new RangeError('in-place write: the target is an expanded view (several of its elements share one memory location); clone() it first');
  const { base } = v;
  const n = base.size;
  return untracked(() => {
    // Which base element each view element reads: the view applied to the base's positions.
    // (a running count of ones: an iota computed on the device, not a constant of n values)
    const positions = filled('view', [n], 1, 'int32').cumsum(0).sub(1).reshape([...base.shape]);
    const at = v.from(positions).reshape([-1]);
    const flatBase = base.reshape([n]);
    const written = filled('view', [n], 0, 'int32').scatterAdd(0, at, filled('view', [at.size], 1, 'int32'));
    const values = filled('view', [n], 0, base.dtype).scatterAdd(0, at, value.to(base.dtype).reshape([-1]));
    return { base, newBase: where(written.gt(0), values, flatBase).reshape([...base.shape]) };
  });
}

/** The live views of `base`, each with its value recomputed from the base's current value. */
export function recomputedViews(base: Tensor): [Tensor, Tensor][] {
  const live = (base._views ?? []).map((r) => r.deref()).filter((t): t is Tensor => t !== undefined && !t.disposed);
  base._views = live.map((t) => new WeakRef(t));
  return untracked(() => live.map((t) => [t, t._viewOf!.from(base)]));
}
