// zeroGrad's drop of a leaf's gradient, as PyTorch's zero_grad(set_to_none=True): a gradient the
// user was handed (`const g = p.grad`) keeps its values, and the collector frees it once it is
// unreachable; one only the runtime read (backward's accumulation, the optimizer's step) is
// disposed at once, so a training loop's gradients, and what they pin in fused mode, go at
// each zeroGrad (docs/runtime.md, W6). Runtime code reads `_grad`, which hands nothing out.
import type { Tensor } from '../tensor.js';

const handedOut = new WeakSet<Tensor>();

/** Called by the public `.grad` getters (a tensor's, and a DTensor's for each of its pieces). */
export function noteGradHandedOut(g: Tensor): void {
  handedOut.add(g);
}

/** Disposes a gradient the runtime dropped, unless the user was handed it (a DTensor's .grad pieces too). */
export function disposeUnlessHandedOut(g: Tensor): void {
  if (!handedOut.has(g)) g.dispose();
}

/** Sets p.grad to null; disposes the old gradient unless the user was handed it. */
export function releaseGrad(p: Tensor): void {
  const g = p._grad;
  p.grad = null;
  if (g) disposeUnlessHandedOut(g);
}
