// dot outer bmm linear: composed over matmul/mul, with PyTorch's shape checks.
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { untracked } from '../views/view-tracking.js';
import { composite } from '../modes/composite.js';
import { sharingVersion } from '../autograd/past-values.js';
import { tensorArg } from './tensor-arg.js';

/**
 * Inner product of two 1-D tensors (torch.dot).
 * @example tpu.dot(tpu.tensor([1, 2]), tpu.tensor([3, 4])) // 11
 */
export function dot(a: Tensor, b: Tensor): Tensor {
  tensorArg('dot', 'input', a);
  tensorArg('dot', 'other', b);
  if (a.ndim !== 1 || b.ndim !== 1 || a.shape[0] !== b.shape[0]) {
    throw new RangeError(`dot: both operands must be 1-D of the same length; got input ${formatShape(a.shape)} and other ${formatShape(b.shape)}`);
  }
  return a.matmul(b);
}

/**
 * Outer product of two 1-D tensors (torch.outer).
 * @example tpu.outer(tpu.tensor([1, 2]), tpu.tensor([3, 4])) // [[3, 4], [6, 8]]
 */
export function outer(a: Tensor, b: Tensor): Tensor {
  tensorArg('outer', 'input', a);
  tensorArg('outer', 'other', b);
  if (a.ndim !== 1 || b.ndim !== 1) throw new RangeError(`outer: both operands must be 1-D; got input ${formatShape(a.shape)} and other ${formatShape(b.shape)}`);
  return a.reshape([a.shape[0]!, 1]).mul(b.reshape([1, b.shape[0]!]));
}

/**
 * Batched matrix product [b, n, m] x [b, m, p] (torch.bmm).
 * @example tpu.bmm(tpu.ones([2, 1, 3]), tpu.ones([2, 3, 4])).shape // [2, 1, 4]
 */
export function bmm(a: Tensor, b: Tensor): Tensor {
  tensorArg('bmm', 'input', a);
  tensorArg('bmm', 'other', b);
  if (a.ndim !== 3 || b.ndim !== 3 || a.shape[0] !== b.shape[0]) {
    throw new RangeError(`bmm: both operands must be 3-D with the same batch size; got input ${formatShape(a.shape)} and other ${formatShape(b.shape)}`);
  }
  return a.matmul(b);
}

/**
 * y = x·Wᵀ + b, with W of shape [out, in] (torch.nn.functional.linear).
 * @example tpu.nn.functional.linear(tpu.tensor([[1, 2]]), tpu.tensor([[1, 1]]), tpu.tensor([10])) // [[13]]
 */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor | null): Tensor {
  tensorArg('linear', 'input', x);
  tensorArg('linear', 'weight', weight);
  if (weight.ndim !== 2 && weight.ndim !== 1) throw new RangeError(`linear: weight must be 1-D or 2-D [out, in]; got ${formatShape(weight.shape)}`);
  if (x.shape[x.ndim - 1] !== weight.shape[weight.ndim - 1]) {
    throw new RangeError(`linear: input ${formatShape(x.shape)} has ${x.shape[x.ndim - 1]} features but weight ${formatShape(weight.shape)} expects ${weight.shape[weight.ndim - 1]}`);
  }
  // An untracked transpose: a tracked view would be recomputed by every in-place update of
  // the weight while listed (a training loop leaves one per step). It shares the weight's
  // version counter, as PyTorch's weight.t(): backward refuses it once the weight was written.
  if (bias !== undefined && bias !== null) tensorArg('linear', 'bias', bias);
  // One composed op: in strict mode the transpose, matmul and bias add are one program, and
  // ONNX Runtime folds the transpose into its matmul (no [out, in] copy of the weight per call).
  // Bound, not a closure per call: V8 drops a closure's optimized code at each full collection
  // once no closure of it lives (docs/runtime.md, W6).
  return composite('linear', linearOf.bind(null, x, weight, bias));
}

function linearOf(x: Tensor, weight: Tensor, bias: Tensor | null | undefined): Tensor {
  const y = x.matmul(weight.ndim === 2 ? sharingVersion(untracked(() => weight.T), weight) : weight);
  return bias === undefined || bias === null ? y : y.add(bias);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Inner product of two 1-D tensors (torch.dot).
     * @example tpu.tensor([1, 2]).dot(tpu.tensor([3, 4])) // 11
     */
    dot(other: Tensor): Tensor;
    /**
     * Outer product of two 1-D tensors (torch.outer).
     * @example tpu.tensor([1, 2]).outer(tpu.tensor([3, 4])) // [[3, 4], [6, 8]]
     */
    outer(other: Tensor): Tensor;
    /**
     * Batched matrix product [b, n, m] x [b, m, p] (torch.bmm).
     * @example tpu.ones([2, 1, 3]).bmm(tpu.ones([2, 3, 4])).shape // [2, 1, 4]
     */
    bmm(other: Tensor): Tensor;
  }
}
installMethods({
  dot(other) { return dot(this, other); },
  outer(other) { return outer(this, other); },
  bmm(other) { return bmm(this, other); },
});
