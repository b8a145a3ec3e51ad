// composite(fn): runs a composed op (layerNorm, gelu, softmax, ...); the values it makes
// inside are its own, never to be read by the caller. What becomes of them is the active
// mode's business (eager.ts: freed at once; fused.ts: temporaries of the region).
import type { Tensor } from '../tensor.js';
import { currentMode } from './mode.js';
import { withCallSite } from '../call-site.js';

export function composite(fn: () => Tensor): Tensor {
  // Its ops are attributed to the line calling the composed op.
  return withCallSite(composite, () => currentMode().composite(fn));
}
