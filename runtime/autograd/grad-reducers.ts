// Gradient reducers: a hook that runs after backward has computed the leaves' gradients and
// before they are added into .grad (PyTorch's DDP reducer runs from autograd hooks the same
// way). A reducer registered for some leaves sees every backward's gradients of them at once
// and may replace them (DDP all-reduces them in buckets). Only the new contribution is
// reduced, so gradients accumulated over several backward calls stay right.
import type { Tensor } from '../tensor.js';

export interface GradReducer {
  /** Replaces entries of `grads` (leaf -> this backward's gradient); runs under noGrad. */
  reduce(grads: Map<Tensor, Tensor>): void;
}

const reducerOf = new WeakMap<Tensor, GradReducer>();

export function registerGradReducer(leaves: readonly Tensor[], reducer: GradReducer): void {
  for (const t of leaves) reducerOf.set(t, reducer);
}

/** Runs each reducer of the leaves in `grads` once. */
export function runGradReducers(grads: Map<Tensor, Tensor>): void {
  const seen = new Set<GradReducer>();
  for (const leaf of [...grads.keys()]) {
    const r = reducerOf.get(leaf);
    if (!r || seen.has(r)) continue;
    seen.add(r);
    r.reduce(grads);
  }
}
