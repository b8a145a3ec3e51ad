// x.add(y, { alpha }) and x.sub(y, { alpha }): torch.add's alpha scales the other operand.
// Without it an options object would be ignored and x.add(y, { alpha: 3 }) give x + y.
import { isFloating, promoteOperands, promoteWithScalar, roundToBf16, scalarKind, type DType } from '../dtype.js';
import { LiveNumber, specialized } from '../jit/live-number.js';
import { readOptions } from '../options.js';
import { Tensor } from '../tensor.js';
import type { Operand } from './op.js';
import { rejectBoolSubtrahend } from './bool-subtraction.js';

export interface AlphaOptions {
  /** The multiplier of the other operand (default 1). */
  alpha?: number;
}

/** The alpha of `{ alpha }` (1 when absent). */
export function readAlpha(op: string, options: unknown): number {
  const { alpha: given = 1 } = readOptions<AlphaOptions>(op, options, ['alpha']);
  const alpha = specialized(given); // a tpu.compile number argument: its value
  if (typeof alpha !== 'number' || Number.isNaN(alpha)) throw new TypeError(`${op}: alpha must be a number; got ${JSON.stringify(alpha)}`);
  return alpha;
}

/** x + alpha·other (or x − alpha·other), checked as PyTorch checks alpha. */
export function addScaled(op: 'add' | 'sub', x: Tensor, other: Operand, options: AlphaOptions): Tensor {
  const alpha = readAlpha(op, options);
  if (op === 'sub') rejectBoolSubtrahend(op, other);
  if (other instanceof Tensor) {
    const dtype = checkAlpha(op, promoteOperands(x, other), alpha);
    if (dtype === 'bfloat16') return inFloat32(x)[op](inFloat32(other).mul(roundToBf16(alpha))).to('bfloat16');
    // bool + bool·alpha stays bool (alpha counts as alpha ≠ 0), as in PyTorch
    if (dtype === 'bool') return x[op](other.mul(alpha !== 0));
    // other in the result's dtype first: a bool other times 3 would be int64 next to an int32 x
    return x[op](other.to(dtype).mul(alpha));
  }
  // a JS scalar (a boolean is 0 or 1; a live number stays live: re-read on every replay)
  const value = other instanceof LiveNumber ? other.read() : other;
  const dtype = checkAlpha(op, promoteWithScalar(x.dtype, scalarKind(value as number | boolean)), alpha);
  if (dtype === 'bool') return x[op](value === true && alpha !== 0);
  const scale = dtype === 'bfloat16' ? (v: number) => roundToBf16(v) * roundToBf16(alpha) : (v: number) => v * alpha;
  const scaled = other instanceof LiveNumber ? new LiveNumber(() => scale(other.read())) : scale(Number(other));
  // the product of a fractional scalar and alpha may be a whole number: x is cast to the
  // result's dtype first so that int + 1.5·2 is float32 4.0, as in PyTorch
  if (dtype === 'bfloat16') return inFloat32(x)[op](scaled).to('bfloat16');
  return (x.dtype === dtype ? x : x.to(dtype))[op](scaled);
}

/** PyTorch's alpha check: an integral (or bool) result takes a whole alpha only. */
function checkAlpha(op: string, dtype: DType, alpha: number): DType {
  if (!isFloating(dtype) && !Number.isInteger(alpha)) {
    throw new TypeError(`${op}: for integral input tensors, argument alpha must not be a floating point number (as in PyTorch); got alpha ${alpha} for ${dtype}`);
  }
  return dtype;
}

// PyTorch CPU's bfloat16 add with alpha: operands and alpha in bfloat16, x + alpha·other in
// float32 (the product of two bfloat16 values is exact there), the sum rounded once.
const inFloat32 = (t: Tensor): Tensor => t.to('bfloat16').to('float32');
