// composite(fn): runs a composed op (layerNorm, gelu, softmax, ...); the values it makes
// inside are its own, never to be read by the caller.
// - fused: they are not program outputs even when used twice, so the region's program keeps
//   the op's whole subgraph (ONNX Runtime can then fuse it into one kernel) and writes only
//   the result. Read later anyway (a backward pass), they are recomputed from their recipe.
// - debug, strict: they are freed as soon as the op returns, unless autograd recorded the
//   op (its result requires grad): a backward pass reads them.
import type { Tensor } from '../tensor.js';
import { collectMade } from '../scope.js';
import { activeMode } from './mode.js';
import { markInternalSince, regionMark } from './fused.js';

export function composite(fn: () => Tensor): Tensor {
  if (activeMode() !== 'fused') {
    const [out, made] = collectMade(fn);
    if (!(out as { requiresGrad?: boolean }).requiresGrad) for (const t of made) if (t !== out) t.dispose();
    return out;
  }
  const mark = regionMark();
  const out = fn();
  markInternalSince(mark, out);
  return out;
}
