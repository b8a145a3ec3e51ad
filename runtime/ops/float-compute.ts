// The dtype and the float32 arithmetic of composed float functions of two operands, either
// a JS number (hypot, logaddexp, copysign; xlogy's check): PyTorch's result dtype is the
// operands' promoted one, integers and bools as float32, and its bfloat16 kernels compute in
// float32 and round once.
import { isFloating, promoteOperands, promoteWithScalar, roundToBf16, scalarKind, type DType } from '../dtype.js';
import { describeValue } from '../distributed/describe-value.js';
import { LiveNumber } from '../jit/live-number.js';
import { Tensor } from '../tensor.js';
import { ownInput } from './identity.js';
import type { Operand } from './op.js';

const dtypeOf = (o: Operand, other: Operand): DType => {
  if (o instanceof Tensor) return o.dtype;
  return promoteWithScalar((other as Tensor).dtype, scalarKind(o instanceof LiveNumber ? o.read() : (o as number | boolean)));
};

/**
 * The dtype PyTorch promotes the operands of `op` to (a JS scalar as a weak one); each must be
 * a tensor or a JS number, at least one a tensor.
 */
export function promotedDType(op: string, names: readonly string[], operands: readonly Operand[]): DType {
  operands.forEach((o, i) => {
    if (!(o instanceof Tensor) && typeof o !== 'number' && typeof o !== 'boolean' && !(o instanceof LiveNumber)) {
      throw new TypeError(`${op}: ${names[i]} must be a tensor or a number; got ${describeValue(o)}`);
    }
  });
  const tensor = operands.find((o) => o instanceof Tensor);
  if (!tensor) throw new TypeError(`${op}: ${names.join(' or ')} must be a tensor; got ${operands.map(describeValue).join(' and ')} (make one with tpu.tensor(...))`);
  if (operands.length === 1) return (tensor as Tensor).dtype;
  const [a, b] = operands as [Operand, Operand];
  return promoteOperands({ shape: a instanceof Tensor ? a.shape : [], dtype: dtypeOf(a, b) }, { shape: b instanceof Tensor ? b.shape : [], dtype: dtypeOf(b, a) });
}

/** The result dtype of a float function: the promoted dtype, or float32 for integers and bools. */
export function floatDType(op: string, names: readonly string[], operands: readonly Operand[]): DType {
  const d = promotedDType(op, names, operands);
  return isFloating(d) ? d : 'float32';
}

/** The same, for the functions PyTorch has no integer kernel of (hypot, logaddexp): an error there. */
export function floatOnlyDType(op: string, names: readonly string[], operands: readonly Operand[]): DType {
  const d = promotedDType(op, names, operands);
  if (!isFloating(d)) throw new TypeError(`${op}: ${names.join(' and ')} must be floating point (float32 or bfloat16), as in PyTorch; got ${d}. Cast first: .to('float32')`);
  return d;
}

/**
 * f over the operands in float32 (tensors cast; a JS number beside a bfloat16 result rounded to
 * bfloat16 first, as PyTorch feeds it), its result rounded once to `dtype`. Call inside composite().
 */
export function inFloat32Of(dtype: DType, operands: readonly Operand[], f: (values: Operand[]) => Tensor): Tensor {
  const bf16 = dtype === 'bfloat16';
  const values = operands.map((o): Operand => {
    if (o instanceof Tensor) return o.dtype === 'float32' ? ownInput(o) : o.to('float32');
    if (!bf16) return typeof o === 'boolean' ? Number(o) : o;
    if (o instanceof LiveNumber) return new LiveNumber(() => roundToBf16(o.read()));
    return roundToBf16(Number(o));
  });
  const out = f(values);
  return bf16 ? out.to('bfloat16') : out;
}
