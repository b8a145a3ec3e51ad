// cumsum (primitive: ONNX CumSum) and cumprod (composed: log-step scan of products, so
// zeros and negatives need no special gradient).
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type OpDef } from './op.js';
import { concat } from './concat.js';
import { filled } from './constant.js';
import { dimArgument } from './dim-argument.js';
import { installMethods } from '../install-methods.js';
import { rowMajor } from '../views/result-layout.js';

export interface ScanAttrs {
  readonly dim: number;
  readonly reverse: boolean;
  readonly exclusive: boolean;
}

export const cumsumOp: OpDef<ScanAttrs> = defineOp<ScanAttrs>({
  name: 'cumsum',
  infer: ([x]) => ({ shape: x!.shape, dtype: isFloating(x!.dtype) ? x!.dtype : 'int64' }),
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
 * Running product along dim (torch.cumprod): integer and bool inputs give int64 products,
 * wrapping on overflow as PyTorch's.
 * @example tpu.cumprod(tpu.tensor([1, 2, 3]), 0) // [1, 2, 6]
 */
export function cumprod(x: Tensor, dim: number | { dim: number }): Tensor {
  const d = dimArgument('cumprod', x, dim);
  const v = isFloating(x.dtype) ? x : x.to('int64');
  if (x.ndim === 0) return v.mul(1);
  // bfloat16: products in float32, rounded once (PyTorch accumulates in float32 too)
  if (x.dtype === 'bfloat16') return rowMajor(products(x.to('float32'), d).to('bfloat16'));
  // row-major as PyTorch's, and a new tensor also when there is nothing to multiply
  return rowMajor(products(v, d), x);
}

/** Inclusive products along d by doubling shifts: log2(n) multiplies. */
function products(x: Tensor, d: number): Tensor {
  let y = x;
  for (let s = 1, n = x.shape[d]!; s < n; s *= 2) y = y.mul(shiftIn(y, d, s, 1));
  return y;
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
