// composite(fn): runs a composed op (layerNorm, gelu, softmax, ...); the values it makes
// inside are its own, never to be read by the caller.
// - fused: they are temporaries (scope.ts), never program outputs even when used twice, so
//   the region's program keeps the op's whole subgraph (ONNX Runtime can then fuse it into
//   one kernel) and writes only the result. Read later anyway (a backward pass), they are
//   recomputed from their recipe.
// - debug, strict: they are freed as soon as the op returns, unless autograd recorded the
//   op (its result requires grad): a backward pass reads them.
import type { Tensor } from '../tensor.js';
import { collectMade, temporaries } from '../scope.js';
import { activeMode } from './mode.js';
import { withCallSite } from '../call-site.js';

export function composite(fn: () => Tensor): Tensor {
  // Its ops are attributed to the line calling the composed op.
  return withCallSite(composite, () => {
    if (activeMode() === 'fused') return temporaries(fn);
    const [out, made] = collectMade(fn);
    if (!out.requiresGrad) for (const t of made) if (t !== out) t.dispose();
    return out;
  });
}
