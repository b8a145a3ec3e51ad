// Composed ops: plain TypeScript over primitives, so gradients and fusion come for free.
import { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { emptyPassesThrough, inFloat32 } from './nn/activations.js';
import { dimAndDType, type DTypeOption } from './dim-argument.js';
import { ownInput } from './identity.js';
import { installMethods } from '../install-methods.js';
import { noGrad } from '../autograd/grad-mode.js';
import { rowMajor } from '../views/result-layout.js';

// Composed ops run their body in composite() (modes/composite.ts): what they make and do
// not return is never kept as a fused region's output (e.g. exp, used twice inside
// softmax), and is freed at once in debug/strict mode unless autograd needs it.
/**
 * exp(x) / sum(exp(x)) along dim (torch.softmax); `{ dtype }` casts the input first, as PyTorch's.
 * @example tpu.softmax(logits, -1); tpu.softmax(ids, 1, { dtype: 'float32' })
 */
export function softmax(input: Tensor, dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor {
  const { d, v: x } = dimAndDType('softmax', input, dim, options, 'floating-point');
  const empty = emptyPassesThrough(x);
  if (empty) return empty;
  // bfloat16 is computed in float32 and rounded once, as PyTorch does
  // row-major whatever x's strides, as PyTorch's softmax kernel allocates it
  return rowMajor(composite('softmax', () => inFloat32('softmax', x, (v) => {
    // The shift by the max changes no gradient (softmax is shift-invariant): taken out of
    // autograd, the backward is PyTorch's y·(g - Σ g·y), down to the sign of a zero gradient.
    // (noGrad, not detach(): no extra node, so the ONNX lowering still sees one Softmax.)
    const e = v.sub(noGrad(() => v.amax(d, true))).exp();
    return e.div(e.sum(d, true));
  })));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * exp(x) / sum(exp(x)) along dim (torch.softmax).
     * @example logits.softmax(-1); ids.softmax(1, { dtype: 'float32' })
     */
    softmax(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor;
  }
}
installMethods({
  softmax(dim, options) { return softmax(this, dim, options); },
});
