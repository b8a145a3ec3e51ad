// Tensor arguments that are views, written in place by a traced call. A write through a view
// is a functional update of its base (views/view-tracking.ts), so the trace's program reads
// and writes that base, and recomputes the view from it at the view's position: the plan is
// right only for an argument that views the same base at the same position (or, as traced,
// is no view at all). A replay on another base, another position (x.at(1) after x.at(0)) or
// a plain tensor where the trace had a view, or the other way round, traces again: replayed,
// the write would miss the new base, or reach the old one.
import type { Tensor } from '../tensor.js';

/** What a replay's argument #arg must be: a view of `base` (an argument by position or a tensor by identity) at `layout`, or no view. */
export interface ViewConstraint {
  readonly arg: number;
  readonly base: { readonly arg: number } | { readonly held: Tensor } | null;
  readonly layout: string;
}

function layoutKey(t: Tensor): string {
  const v = t._viewOf;
  return v ? `strides [${v.layout.strides.join(', ')}] offset ${v.layout.offset}` : 'no view';
}

/** Constraints for the tensor arguments `args` that the traced call wrote, or whose base it wrote (`written`: targets by identity). */
export function viewConstraints(args: readonly Tensor[], written: ReadonlySet<Tensor>): ViewConstraint[] {
  const constraints: ViewConstraint[] = [];
  args.forEach((t, arg) => {
    const base = t._viewOf?.base ?? null;
    if (!written.has(t) && !(base && written.has(base))) return;
    const k = base ? args.indexOf(base) : -1;
    constraints.push({ arg, base: base === null ? null : k >= 0 ? { arg: k } : { held: base }, layout: layoutKey(t) });
  });
  return constraints;
}

/** Why the call's arguments `args` break a constraint, or null. */
export function viewMismatch(c: ViewConstraint, args: readonly Tensor[]): string | null {
  const t = args[c.arg]!;
  const base = t._viewOf?.base ?? null;
  const expected = c.base === null ? null : 'arg' in c.base ? args[c.base.arg]! : c.base.held;
  const layout = layoutKey(t);
  if (base === expected && layout === c.layout) return null;
  const traced = c.base === null ? 'no view' : `a view (${c.layout}) of ${'arg' in c.base ? `tensor argument #${c.base.arg}` : 'a tensor from outside'}`;
  const now = base === null ? 'no view' : `a view (${layout}) of ${base === expected ? 'the same base' : 'another base'}`;
  return `tensor argument #${c.arg}, written in place, was ${traced} and is ${now} now`;
}
