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
  return shapedAs(summed, shape);
}

/**
 * t in `shape`, without a reshape when it has it already: in a backward pass each reshape is
 * an op recorded and a node of the program its rule runs in (W6 strict: four a step).
 */
export function shapedAs(t: Tensor, shape: Shape): Tensor {
  return shapesEqual(t.shape, shape) ? t : t.reshape([...shape]);
}

/**
 * The gradient for an operand: null for JS scalars and for tensors that do not require grad
 * (nobody reads it: skipping it saves work, and a debug-mode NaN check on a discarded
 * value, e.g. log(base) for pow's constant exponent), else unbroadcast to its shape.
 */
export function gradFor(operand: Operand, grad: () => Tensor): Tensor | null {
  if (!(operand instanceof Tensor) || !operand.requiresGrad) return null;
  return unbroadcast(grad(), operand.shape);
}
