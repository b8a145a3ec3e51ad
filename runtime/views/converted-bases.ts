// Views of a tensor converted in place to another dtype or chip (convert-in-place.ts: Module.to)
// keep the values they had, as PyTorch's views keep the old storage when a parameter's .data is
// replaced: a view up to date then becomes a tensor of its own when next read (a stateDict() entry
// taken before model.to() keeps the old weights). One behind its base then (the base was written
// since the view was last computed) has lost the value it should show: reading it is an error.
// PyTorch's old views still share the old storage, so a write through one shows in the others;
// here each keeps its own copy, so writing one is refused rather than leaving the others stale.
import type { Tensor } from '../tensor.js';

/** The versions each converted tensor reached by its conversions, in order. */
const conversions = new WeakMap<Tensor, number[]>();
/** Views cut from a converted base: tensors of their own, but PyTorch's would share storage. */
const cutOff = new WeakSet<Tensor>();
/** Until the first conversion, views and in-place writes skip the lookups. */
let anyConverted = false;

/** Called right after `base` was converted (its version counted the conversion). */
export function noteConverted(base: Tensor): void {
  anyConverted = true;
  const at = conversions.get(base);
  if (at) at.push(base._version);
  else conversions.set(base, [base._version]);
}

/** The version of the first conversion of `view`'s base made since the view was computed. */
function conversionSince(view: Tensor): number | undefined {
  const v = view._viewOf;
  return v === undefined || !anyConverted ? undefined : conversions.get(v.base)?.find((c) => v.seen < c);
}

/**
 * Cuts `view` from its base when the base was converted since the view was computed: the view
 * keeps its own value (true returned). Throws when that value was already behind the base's.
 */
export function leaveConvertedBase(view: Tensor): boolean {
  const at = conversionSince(view);
  if (at === undefined) return false;
  const v = view._viewOf!;
  if (v.seen < at - 1) {
    throw new Error(`the view ${view.describe()} of a tensor converted in place by Module.to (to ${v.base.describe()} on ${v.base.device}) ` +
      'was not read since its base was last written, so the value it kept is not the one its base had: read views before calling .to(), or take them again after it');
  }
  view._viewOf = undefined;
  cutOff.add(view);
  return true;
}

/** An in-place write to a view taken before its base was converted (or to a view of one), refused. */
export function refuseWriteToOldView(op: string, target: Tensor): void {
  if (!anyConverted) return;
  const base = target._viewOf?.base;
  if (!cutOff.has(target) && (base === undefined || !cutOff.has(base)) && conversionSince(target) === undefined) return;
  throw new Error(`${op}: ${target.describe()} is${cutOff.has(target) ? '' : ' a view of'} a view taken before Module.to converted its base in place ` +
    '(a stateDict() entry of the model before model.to(), say): in PyTorch such views share the old storage, so a write through one changes them all; ' +
    'here each keeps its own values, so writing one is refused: write a clone() of it, or take the view again after .to()');
}
