// A view read after its base was written in place is recomputed then, from the base's current
// value (PyTorch's views share storage, so they show the write). Recomputing when the base is
// written instead made every update of a parameter recompute each of its views not yet
// collected: a loop with no await keeps them all (w.T of every step), so the work of a step
// grew with the step count (and fused regions chained until flushing overflowed the stack).
import { setViewRefresher, type Tensor } from '../tensor.js';
import { assignDerived } from '../modes/assign.js';
import { holdingCuts } from '../modes/region.js';
import { enableGrad, noGrad } from '../autograd/grad-mode.js';
import { untracked } from './view-tracking.js';
import { leaveConvertedBase } from './converted-bases.js';

/** Views recomputed since the process started (tests check that a loop's step does a fixed number). */
export const viewRefreshes = { count: 0 };

function refresh(view: Tensor): void {
  if (leaveConvertedBase(view)) return;
  const v = view._viewOf!;
  const { base } = v;
  if (base.disposed) {
    throw new ReferenceError(`the base ${base.describe()} of the view ${view.describe()} was written in place and then disposed: ` +
      'the view\'s new value is gone. Read the view before disposing its base, or keep a clone() of it');
  }
  viewRefreshes.count++;
  // In the grad mode of the base's writes, not the reader's: a view made with gradients
  // joins the graph at the new value if a write since was made with gradients on (PyTorch
  // regenerates a view's grad_fn then); after writes under noGrad only (an optimizer step) it
  // keeps its graph node, which leads to its base or the leaf it views. No size-cap cut
  // between the value and the update (the update needs its value in the pending region).
  const grad = v.differentiable && base._gradWriteVersion > v.seen ? enableGrad : noGrad;
  holdingCuts(() => grad(() => assignDerived(view, untracked(() => v.from(base)))));
  v.seen = base._version;
}

setViewRefresher(refresh);
