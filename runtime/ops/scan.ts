// cumsum (primitive: ONNX CumSum) and cumprod (composed: log-step scan of products, so
// zeros and negatives need no special gradient).
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type OpDef } from './op.js';
import { concat } from './concat.js';
import { filled } from './constant.js';
import { dimArgument } from './dim-argument.js';
import { zeroOrFail } from './gather-scatter.js';
import { installMethods } from '../install-methods.js';
import { rowMajor } from '../views/result-layout.js';

export interface ScanAttrs {
  readonly dim: number;
  readonly reverse: boolean;
  readonly exclusive: boolean;
}

export const cumsumOp: OpDef<ScanAttrs> = defineOp<ScanAttrs>({
  name: 'cumsum',
  infer: ([x]) => ({ shape: x!.shape, dtype: isFloating(x!.dtype) ? x!.dtype : 'int32' }),
  grad: (g, _x, _out, a) => [apply(cumsumOp, [g], { ...a, reverse: !a.reverse })],
});


/**
 * Running sum along dim (torch.cumsum).
 * @example tpu.cumsum(x, 0)
 */
export function cumsum(x: Tensor, dim: number | { dim: number }): Tensor {
  return apply(cumsumOp, [x], { dim: dimArgument('cumsum', x, dim), reverse: false, exclusive: false });
}

/**
 * Running product along dim (torch.cumprod). int32 products wrap, so a running product whose
 * exact value leaves int32 fails on the device (PyTorch gives int64), as int32 sums do.
 * @example tpu.cumprod(tpu.tensor([1, 2, 3]), 0) // [1, 2, 6]
 */
export function cumprod(x: Tensor, dim: number | { dim: number }): Tensor {
  const d = dimArgument('cumprod', x, dim);
  if (x.ndim === 0) return (x.dtype === 'bool' ? x.to('int32') : x).mul(1);
  // row-major as PyTorch's, and a new tensor also when there is nothing to multiply
  if (x.dtype === 'bool') return rowMajor(products(x.to('int32'), d));
  // bfloat16: products in float32, rounded once (PyTorch accumulates in float32 too)
  if (x.dtype === 'bfloat16') return rowMajor(products(x.to('float32'), d).to('bfloat16'));
  const y = products(x, d);
  return rowMajor(x.dtype === 'int32' ? y.add(zeroOrFail(leavesInt32(x, y, d))) : y, x);
}

/** Inclusive products along d by doubling shifts: log2(n) multiplies. */
function products(x: Tensor, d: number): Tensor {
  let y = x;
  for (let s = 1, n = x.shape[d]!; s < n; s *= 2) y = y.mul(shiftIn(y, d, s, 1));
  return y;
}

/**
 * Where the exact running product of int32 x leaves int32, given `wrapped`, the products mod 2^32.
 * After a zero it is 0. Before, the float32 log of its magnitude decides clear of 2^31; within
 * 2^(31 ± 0.1), where that log is too coarse, the wrapped product has the wrong sign exactly
 * when the exact one left int32.
 */
function leavesInt32(x: Tensor, wrapped: Tensor, d: number): Tensor {
  const xf = x.to('float32');
  const noZeroYet = x.eq(0).to('int32').cumsum(d).eq(0);
  const logMagnitude = xf.abs().clamp(1).log().cumsum(d);
  const wrongSign = wrapped.to('float32').sign().ne(products(xf.sign(), d));
  const beyond = logMagnitude.gt(31.1 * Math.LN2).logicalOr(logMagnitude.gt(30.9 * Math.LN2).logicalAnd(wrongSign));
  return noZeroYet.logicalAnd(beyond);
}

/** x shifted by s along d, the first s slots filled with `value`. */
function shiftIn(x: Tensor, d: number, s: number, value: number): Tensor {
  const n = x.shape[d]!;
  const head = filled('cumprod', x.shape.map((m, i) => (i === d ? Math.min(s, n) : m)), value, x.dtype);
  return s >= n ? head : concat([head, x.narrow(d, 0, n - s)], d);
}

/** Products of the elements before each position along the last dim (1 for the first). */
export function exclusiveCumprod(x: Tensor): Tensor {
  return cumprod(shiftIn(x, x.ndim - 1, 1, 1), -1);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Running sum along dim (torch.cumsum).
     * @example x.cumsum(0)
     */
    cumsum(dim: number | { dim: number }): Tensor;
    /**
     * Running product along dim (torch.cumprod).
     * @example x.cumprod(0)
     */
    cumprod(dim: number | { dim: number }): Tensor;
  }
}
installMethods({
  cumsum(dim) { return cumsum(this, dim); },
  cumprod(dim) { return cumprod(this, dim); },
});
