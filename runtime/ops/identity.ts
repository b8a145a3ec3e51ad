// identity: the value itself. A composed op takes its own reference to an input with
// ownInput(), so in fused mode the input has ONE consumer in the region and is not kept as
// a program output merely because the op reads it twice (gelu(layerNorm(x)) then writes
// one tensor, not two). ONNX Runtime removes the Identity node.
import { apply } from '../modes/dispatch.js';
import { currentMode } from '../modes/mode.js';
import type { Tensor } from '../tensor.js';
import { defineOp } from './op.js';

export const identity = defineOp({
  name: 'identity',
  infer: ([x]) => ({ shape: x!.shape, dtype: x!.dtype }),
  grad: (g) => [g],
  gradReads: 'none',
});

/** Call inside composite(): where ops are recorded into a region, a recipe input is read through one identity node. */
export function ownInput(x: Tensor): Tensor {
  return currentMode().region !== null && !x._buf ? apply(identity, [x], {}) : x;
}
