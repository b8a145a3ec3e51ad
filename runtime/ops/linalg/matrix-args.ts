// The argument checks of torch.linalg's matrix functions: float32 batches of square matrices.
import { formatShape } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { tensorArg } from '../tensor-arg.js';

/** A floating-point tensor (float32, or bfloat16 where `bf16` allows it), as PyTorch's linalg functions take. */
export function floatingArg(op: string, name: string, v: unknown, bf16: boolean): Tensor {
  const t = tensorArg(op, name, v);
  if (t.dtype === 'float32' || (bf16 && t.dtype === 'bfloat16')) return t;
  if (t.dtype === 'bfloat16') throw new TypeError(`${op}: ${name} must be float32; got bfloat16 (PyTorch's LAPACK-based linalg has no bfloat16 kernel either). Cast it: ${name}.to('float32')`);
  throw new TypeError(`${op}: ${name} must be a floating-point tensor (float32${bf16 ? ' or bfloat16' : ''}), as in PyTorch; got ${t.dtype}. Cast it: ${name}.to('float32')`);
}

/** A float32 batch of square matrices [..., n, n]. */
export function squareArg(op: string, name: string, v: unknown): Tensor {
  const a = floatingArg(op, name, v, false);
  if (a.ndim < 2) throw new RangeError(`${op}: ${name} must have at least 2 dimensions (a batch of square matrices [..., n, n]); got ${formatShape(a.shape)}`);
  const [rows, cols] = a.shape.slice(-2) as [number, number];
  if (rows !== cols) throw new RangeError(`${op}: ${name} must be a batch of square matrices, but they are ${rows} by ${cols} matrices (shape ${formatShape(a.shape)})`);
  return a;
}
