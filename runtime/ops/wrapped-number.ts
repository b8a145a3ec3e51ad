// A JS number where an op needs a tensor first (torch.div(7, t, rounding_mode='floor'),
// torch.remainder(7, t), torch.add(1, t, alpha=2)): wrapped as PyTorch wraps it, a 0-d tensor
// of the dtype the number takes beside the other operand, so the result's dtype and values
// are those of the number as a weak scalar.
import { promoteWithScalar, scalarKind } from '../dtype.js';
import { describeValue } from '../distributed/describe-value.js';
import { LiveNumber } from '../jit/live-number.js';
import { applyOnChip } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { fill } from './constant.js';
import type { Operand } from './op.js';

/** `input` of `op` as a tensor: itself, or a JS scalar wrapped beside the tensor `other`. */
export function wrapNumber(op: string, input: Operand, other: Operand): Tensor {
  if (input instanceof Tensor) return input;
  if (typeof input !== 'number' && typeof input !== 'boolean' && !(input instanceof LiveNumber)) {
    throw new TypeError(`${op}: input must be a tensor or a number; got ${describeValue(input)}`);
  }
  if (!(other instanceof Tensor)) throw new TypeError(`${op}: input or other must be a tensor; got two scalars, ${describeValue(input)} and ${describeValue(other)} (make one with tpu.tensor(...))`);
  const dtype = promoteWithScalar(other.dtype, scalarKind(input instanceof LiveNumber ? input.read() : input));
  return applyOnChip(other.chip, fill, [input], { shape: [], dtype });
}
