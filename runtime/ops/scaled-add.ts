// x.add(y, { alpha }) and x.sub(y, { alpha }): torch.add's alpha scales the other operand.
// Without it an options object would be ignored and x.add(y, { alpha: 3 }) give x + y.
import { isFloating, promoteOperands, promoteWithScalar, roundToBf16, scalarKind } from '../dtype.js';
import { readOptions } from '../options.js';
import { Tensor } from '../tensor.js';
import type { Operand } from './op.js';

export interface AlphaOptions {
  /** The multiplier of the other operand (default 1). */
  alpha?: number;
}

/** The alpha of `{ alpha }` (1 when absent). */
export function readAlpha(op: string, options: unknown): number {
  const { alpha = 1 } = readOptions<AlphaOptions>(op, options, ['alpha']);
  if (typeof alpha !== 'number' || Number.isNaN(alpha)) throw new TypeError(`${op}: alpha must be a number; got ${JSON.stringify(alpha)}`);
  return alpha;
}

/** x + alpha·other (or x − alpha·other), checked as PyTorch checks alpha. */
export function addScaled(op: 'add' | 'sub', x: Tensor, other: Operand, options: AlphaOptions): Tensor {
  const alpha = readAlpha(op, options);
  if (typeof other === 'number' && promoteWithScalar(x.dtype, scalarKind(other)) === 'bfloat16') {
    return inFloat32(x)[op](roundToBf16(other) * roundToBf16(alpha)).to('bfloat16');
  }
  if (!(other instanceof Tensor)) return x[op](typeof other === 'number' ? other * alpha : other);
  const dtype = promoteOperands(x, other);
  if (dtype === 'bfloat16') return inFloat32(x)[op](inFloat32(other).mul(roundToBf16(alpha))).to('bfloat16');
  if (!isFloating(dtype) && promoteWithScalar(dtype, scalarKind(alpha)) !== dtype) {
    throw new TypeError(`${op}: for integral input tensors, argument alpha must not be a floating point number (as in PyTorch); got alpha ${alpha} for ${dtype}`);
  }
  // other in the result's dtype first: a bool other times 3 would be int64 next to an int32 x
  return x[op](other.to(dtype).mul(alpha));
}

// PyTorch CPU's bfloat16 add with alpha: operands and alpha in bfloat16, x + alpha·other in
// float32 (the product of two bfloat16 values is exact there), the sum rounded once.
const inFloat32 = (t: Tensor): Tensor => t.to('bfloat16').to('float32');
