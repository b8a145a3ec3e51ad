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

/**
 * Runtime code that is one op to the user though it makes several (the gradient rule of one
 * op, an optimizer step): one program in strict mode; other modes run its ops as any.
 */
export function asOneOp<T>(fn: () => T): T {
  return currentMode().oneOp(fn);
}
