// Which operands an op's gradient flows to is fixed when the op is recorded, as in PyTorch:
// a leaf given requiresGrad_() after an op read it gets no gradient through that op, and a
// tensor that starts requiring grad by an in-place write (x.add_(w)) gives none to the ops
// that read its earlier value. A clock stamps each such start; a node keeps the time it was
// recorded. (Deciding at backward time also asked composed ops for values their programs had
// not written: their gradReads decide at record time too.)
import { Tensor } from '../tensor.js';
import type { Operand } from '../ops/op.js';

let clock = 0;

/** Marks `t` as requiring grad from now on (call before setting requiresGrad on a tensor that did not). */
export function startsRequiringGrad(t: Tensor): void {
  t._gradSince = ++clock;
}

/** Marks `t`, detached in place, as no longer requiring grad for nodes recorded from now on. */
export function stopsRequiringGrad(t: Tensor): void {
  t._gradUntil = ++clock;
}

/** The time a node recorded now keeps. */
export function recordTime(): number {
  return clock;
}

/** Whether `o` required grad when a node recorded at `recordedAt` read it (and still does, or was detached in place since). */
export function requiredGradAt(o: Operand, recordedAt: number): o is Tensor {
  return o instanceof Tensor && (o.requiresGrad || o._gradUntil > recordedAt) && o._gradSince <= recordedAt;
}
