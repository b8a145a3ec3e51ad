// Plain tensors on different chips that hold the same gradient after backward: DDP's replicas of
// one parameter. A norm over a model's gradients counts each such set once, as each PyTorch rank
// counts only its own replica; every copy is still scaled (tpu.nn.utils.clipGradNorm_).
import type { Tensor } from '../tensor.js';

const copySetOf = new WeakMap<object, object>();

/** Marks `copies` as holding one gradient (the wrappers' reducers keep them equal). */
export function registerGradientCopies(copies: readonly Tensor[]): void {
  const set = {};
  for (const t of copies) copySetOf.set(t, set);
}

/** `tensors` (DTensors pass) without the later members of each set of copies: each gradient once. */
export function withoutCopies<T extends object>(tensors: readonly T[]): T[] {
  const seen = new Set<object>();
  return tensors.filter((t) => {
    const set = copySetOf.get(t);
    if (set === undefined) return true;
    if (seen.has(set)) return false;
    seen.add(set);
    return true;
  });
}
