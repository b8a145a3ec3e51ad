// The pieces a DTensor op makes on the way (redistributed copies, per-chip temporaries) are
// freed at once, unless autograd recorded them: then backward may read them, so they are only
// marked as temporaries (a fused region does not keep them as outputs), as a composed op's are
// (scope.ts temporaries()), and left to the garbage collector.
import { collectMade, isKept } from '../scope.js';
import type { Tensor } from '../tensor.js';

export function freeUnlessTracked(fn: () => Tensor[]): Tensor[] {
  const [result, made] = collectMade(fn);
  const tracked = result.some((t) => t.requiresGrad);
  for (const t of made) {
    if (result.includes(t as Tensor)) continue;
    if (tracked) t._temporary = true;
    else if (!isKept(t)) t.dispose();
  }
  return result;
}
