// dot outer bmm mm mv addmm baddbmm linear: composed over matmul/mul, with PyTorch's shape checks.
import { broadcastShapes, formatShape, shapesEqual } from '../shape.js';
import { isFloating } from '../dtype.js';
import { readOptions } from '../options.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { untracked } from '../views/view-tracking.js';
import { composite } from '../modes/composite.js';
import { sharingVersion } from '../autograd/past-values.js';
import { tensorArg } from './tensor-arg.js';
import { specializedOptions } from '../jit/live-number.js';

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

/** mm's checks: two matrices that multiply, of one dtype; the product's shape. */
function matrixProductShape(op: string, a: Tensor, b: Tensor, names: readonly [string, string]): number[] {
  tensorArg(op, names[0], a);
  tensorArg(op, names[1], b);
  if (a.ndim !== 2 || b.ndim !== 2) throw new RangeError(`${op}: ${names[0]} and ${names[1]} must be 2-D matrices; got ${names[0]} ${formatShape(a.shape)} and ${names[1]} ${formatShape(b.shape)}`);
  if (a.dtype !== b.dtype) throw new TypeError(`${op}: ${names[0]} and ${names[1]} must have the same dtype, as in PyTorch; got ${a.dtype} and ${b.dtype}`);
  if (a.shape[1] !== b.shape[0]) throw new RangeError(`${op}: ${names[0]} ${formatShape(a.shape)} and ${names[1]} ${formatShape(b.shape)} cannot be multiplied: ${a.shape[1]} columns against ${b.shape[0]} rows`);
  return [a.shape[0]!, b.shape[1]!];
}

/**
 * Product of two matrices [n, m] x [m, p] (torch.mm); no broadcasting, no promotion.
 * @example tpu.mm(tpu.tensor([[1, 2]]), tpu.tensor([[3], [4]])) // [[11]]
 */
export function mm(a: Tensor, b: Tensor): Tensor {
  matrixProductShape('mm', a, b, ['input', 'mat2']);
  return a.matmul(b);
}

/**
 * Product of a matrix [n, m] and a vector [m] (torch.mv).
 * @example tpu.mv(tpu.tensor([[1, 2], [3, 4]]), tpu.tensor([1, 1])) // [3, 7]
 */
export function mv(a: Tensor, v: Tensor): Tensor {
  tensorArg('mv', 'input', a);
  tensorArg('mv', 'vec', v);
  if (a.ndim !== 2 || v.ndim !== 1) throw new RangeError(`mv: input must be a 2-D matrix and vec 1-D; got input ${formatShape(a.shape)} and vec ${formatShape(v.shape)}`);
  return a.matmul(v);
}

export interface AddmmOptions {
  /** The multiplier of input (default 1); with 0, input's NaN and inf are not read, as in PyTorch. */
  beta?: number;
  /** The multiplier of mat1·mat2 (default 1). */
  alpha?: number;
}

/**
 * beta·input + alpha·(mat1 · mat2), input broadcast to the product's shape (torch.addmm).
 * @example tpu.addmm(tpu.tensor([1, 1]), tpu.tensor([[1, 2]]), tpu.tensor([[1, 0], [0, 1]]), { beta: 2 }) // [[3, 4]]
 */
export function addmm(input: Tensor, mat1: Tensor, mat2: Tensor, options?: AddmmOptions): Tensor {
  tensorArg('addmm', 'input', input);
  const shape = matrixProductShape('addmm', mat1, mat2, ['mat1', 'mat2']);
  return scaledProductSum('addmm', input, mat1, mat2, shape, ['mat1·mat2', "matrices'"], options);
}

/**
 * beta·input + alpha·(batch1 @ batch2), [b, n, m] @ [b, m, p], input broadcast to [b, n, p]
 * (torch.baddbmm).
 * @example tpu.baddbmm(tpu.zeros([2, 1, 1]), tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]), { alpha: 2 }) // [[[6]], [[6]]]
 */
export function baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, options?: AddmmOptions): Tensor {
  tensorArg('baddbmm', 'input', input);
  tensorArg('baddbmm', 'batch1', batch1);
  tensorArg('baddbmm', 'batch2', batch2);
  if (batch1.ndim !== 3 || batch2.ndim !== 3) throw new RangeError(`baddbmm: batch1 and batch2 must be 3-D; got batch1 ${formatShape(batch1.shape)} and batch2 ${formatShape(batch2.shape)}`);
  if (batch1.dtype !== batch2.dtype) throw new TypeError(`baddbmm: batch1 and batch2 must have the same dtype, as in PyTorch; got ${batch1.dtype} and ${batch2.dtype}`);
  const [b, n, m] = batch1.shape as [number, number, number];
  if (batch2.shape[0] !== b || batch2.shape[1] !== m) {
    throw new RangeError(`baddbmm: batch1 ${formatShape(batch1.shape)} and batch2 ${formatShape(batch2.shape)} cannot be multiplied: batch sizes ${b} and ${batch2.shape[0]}, ${m} columns against ${batch2.shape[1]} rows`);
  }
  return scaledProductSum('baddbmm', input, batch1, batch2, [b, n, batch2.shape[2]!], ['batch1@batch2', "batches'"], options);
}

/** addmm's and baddbmm's beta·input + alpha·(a @ b), the product of `shape`, with PyTorch's checks of beta, alpha and input. */
function scaledProductSum(op: string, input: Tensor, a: Tensor, b: Tensor, shape: number[], [product, operands]: readonly [string, string], options?: AddmmOptions): Tensor {
  const { beta = 1, alpha = 1 } = specializedOptions(readOptions<AddmmOptions>(op, options, ['beta', 'alpha']));
  for (const [name, v] of [['beta', beta], ['alpha', alpha]] as const) {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`${op}: ${name} must be a number; got ${JSON.stringify(v)}`);
    if (!isFloating(a.dtype) && !Number.isInteger(v)) throw new TypeError(`${op}: ${name} must be an integer for ${a.dtype} ${operands.slice(0, -1)} (PyTorch truncates it); got ${v}`);
  }
  if (input.dtype !== a.dtype) throw new TypeError(`${op}: input must have the ${operands} dtype ${a.dtype}, as in PyTorch; got ${input.dtype}. Cast it: input.to('${a.dtype}')`);
  if (!shapesEqual(broadcastShapes(op, input.shape, shape, ['input', product]), shape)) {
    throw new RangeError(`${op}: input ${formatShape(input.shape)} must broadcast to the product's shape ${formatShape(shape)}`);
  }
  // bfloat16: the product's float32 sums scaled and added in float32, rounded once, as PyTorch's CPU kernel
  const bf16 = input.dtype === 'bfloat16';
  const wide = (t: Tensor) => (bf16 ? t.to('float32') : t);
  return composite(op, () => {
    const p = wide(a).matmul(wide(b));
    const scaled = alpha === 1 ? p : p.mul(alpha);
    // beta 0: input is not read, so its NaN and inf do not reach the result
    const sum = beta === 0 ? scaled : scaled.add(wide(input), { alpha: beta });
    return bf16 ? sum.to('bfloat16') : sum;
  });
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
    /**
     * Product of two matrices [n, m] x [m, p] (torch.mm).
     * @example tpu.tensor([[1, 2]]).mm(tpu.tensor([[3], [4]])) // [[11]]
     */
    mm(mat2: Tensor): Tensor;
    /**
     * Product of this matrix [n, m] and a vector [m] (torch.mv).
     * @example tpu.tensor([[1, 2], [3, 4]]).mv(tpu.tensor([1, 1])) // [3, 7]
     */
    mv(vec: Tensor): Tensor;
    /**
     * beta·x + alpha·(mat1 · mat2) (torch.addmm).
     * @example tpu.tensor([1, 1]).addmm(tpu.tensor([[1, 2]]), tpu.tensor([[1, 0], [0, 1]]), { alpha: 2 }) // [[3, 5]]
     */
    addmm(mat1: Tensor, mat2: Tensor, options?: AddmmOptions): Tensor;
    /**
     * beta·x + alpha·(batch1 @ batch2) (torch.baddbmm).
     * @example tpu.zeros([2, 1, 1]).baddbmm(tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]), { beta: 0 }) // [[[3]], [[3]]]
     */
    baddbmm(batch1: Tensor, batch2: Tensor, options?: AddmmOptions): Tensor;
  }
}
installMethods({
  dot(other) { return dot(this, other); },
  outer(other) { return outer(this, other); },
  bmm(other) { return bmm(this, other); },
  mm(mat2) { return mm(this, mat2); },
  mv(vec) { return mv(this, vec); },
  addmm(mat1, mat2, options) { return addmm(this, mat1, mat2, options); },
  baddbmm(batch1, batch2, options) { return baddbmm(this, batch1, batch2, options); },
});
