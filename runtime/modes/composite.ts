// composite(name, fn): runs a composed op (layerNorm, gelu, softmax, ...): one op to the
// user. The values it makes inside are its own, never to be read by the caller. What becomes
// of them is the active mode's business (eager.ts: freed at once, and debug mode checks only
// the result for NaN/Inf, as an infinite intermediate of a finite result is no error;
// fused.ts: temporaries of the region).
import type { Tensor } from '../tensor.js';
import { currentMode } from './mode.js';
import { beginCallSite, endCallSite } from '../call-site.js';

let call: object | null = null;

/**
 * The outermost composed op running now (one object per call), or null: autograd tags the
 * ops it records with it, so a backward pass runs their rules as one program too.
 */
export function compositeCall(): object | null {
  return call;
}

export function composite(name: string, fn: () => Tensor): Tensor {
  const outer = call;
  call ??= {};
  // Its ops are attributed to the line calling the composed op.
  const began = beginCallSite(composite);
  try {
    return currentMode().composite(name, fn);
  } finally {
    endCallSite(began);
    call = outer;
  }
}

/**
 * Runtime code that is one op to the user though it makes several (the gradient rule of one
 * op, an optimizer step): one program in strict mode; other modes run its ops as any.
 */
export function asOneOp<T>(fn: () => T): T {
  return currentMode().oneOp(fn);
}
