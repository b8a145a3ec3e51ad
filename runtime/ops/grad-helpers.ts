// Helpers for gradient rules, written with ops like the rules themselves.
import { shapesEqual, type Shape } from '../shape.js';
import { Tensor } from '../tensor.js';
import type { Operand } from './op.js';

/** Sums a broadcast gradient back to the shape of the operand it flowed from. */
export function unbroadcast(grad: Tensor, shape: Shape): Tensor {
  if (shapesEqual(grad.shape, shape)) return grad;
  const lead = grad.ndim - shape.length;
  const dims: number[] = [];
  for (let i = 0; i < grad.ndim; i++) {
    if (i < lead || (shape[i - lead] === 1 && grad.shape[i] !== 1)) dims.push(i);
  }
  const summed = dims.length ? grad.sum({ dim: dims, keepdim: true }) : grad;
  return inShape(summed, shape);
}

/**
 * `t` in `shape`: itself when it has that shape already (a rule's reshape to the same shape
 * would be one more op to record, differentiate and run; W6's matmul, sum and sub rules made five).
 */
export function inShape(t: Tensor, shape: Shape): Tensor {
  return shapesEqual(t.shape, shape) ? t : t.reshape([...shape]);
}

/** Whether a rule computes a gradient for this operand (gradFor's test). */
export function needsGrad(operand: Operand): operand is Tensor {
  return operand instanceof Tensor && operand.requiresGrad;
}

/**
 * The gradient for an operand: null for JS scalars and for tensors that do not require grad
 * (nobody reads it: skipping it saves work, and a debug-mode NaN check on a discarded
 * value, e.g. log(base) for pow's constant exponent), else unbroadcast to its shape.
 */
export function gradFor(operand: Operand, grad: () => Tensor): Tensor | null {
  if (!needsGrad(operand)) return null;
  return unbroadcast(grad(), operand.shape);
}
