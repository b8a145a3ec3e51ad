// The argument check of ops that take tensors only (torch.dot(2, t) raises too): a clear error
// naming the argument, never a crash inside the op.
import { describeValue } from '../distributed/describe-value.js';
import { Tensor } from '../tensor.js';

/** `v`, the argument `name` of `op`, when it is a tensor; otherwise a TypeError naming it. */
export function tensorArg(op: string, name: string, v: unknown): Tensor {
  if (!(v instanceof Tensor)) throw new TypeError(`${op}: ${name} must be a tensor; got ${describeValue(v)}${typeof v === 'number' || typeof v === 'boolean' ? ` (make one with tpu.tensor(${v}))` : ''}`);
  return v;
}
