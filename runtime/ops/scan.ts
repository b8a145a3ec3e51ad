// cumsum (primitive: ONNX CumSum) and cumprod (composed: log-step scan of products, so
// zeros and negatives need no special gradient).
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type OpDef } from './op.js';
import { concat } from './concat.js';
import { filled } from './constant.js';
import { dimAndDType, type DTypeOption } from './dim-argument.js';
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
 * Running sum along dim (torch.cumsum); `{ dtype }` casts the input first, as PyTorch's.
 * @example tpu.cumsum(x, 0); tpu.cumsum(x, 1, { dtype: 'float32' })
 */
export function cumsum(x: Tensor, dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor {
  const { d, v, dtype } = dimAndDType('cumsum', x, dim, options, 'numeric');
  const r = apply(cumsumOp, [v], { dim: d, reverse: false, exclusive: false });
  // int32 asked for: summed in int64 and wrapped, the same bits as an int32 sum
  return dtype === undefined || r.dtype === dtype ? r : r.to(dtype);
}

/**
 * Running product along dim (torch.cumprod): integer and bool inputs give int64 products,
 * wrapping on overflow as PyTorch's.
 * @example tpu.cumprod(tpu.tensor([1, 2, 3]), 0) // [1, 2, 6]
 */
export function cumprod(x: Tensor, dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor {
  const { d, v: cast, dtype } = dimAndDType('cumprod', x, dim, options, 'numeric');
  if (dtype !== undefined && !isFloating(dtype)) return cumprod(cast, d).to(dtype); // int32: int64 products, wrapped
  x = cast;
  const v = isFloating(x.dtype) ? x : x.to('int64');
  if (x.ndim === 0) return v.mul(1);
  // bfloat16: products in float32, rounded once (PyTorch accumulates in float32 too)
  if (x.dtype === 'bfloat16') return rowMajor(products(x.to('float32'), d).to('bfloat16'));
  // row-major as PyTorch's, and a new tensor also when there is nothing to multiply
  return rowMajor(products(v, d), x);
}

/** Inclusive products along d by doubling shifts: log2(n) multiplies. */
function products(x: Tensor, d: number): Tensor {
  return doublingScan(x, d, 1, (a, b) => a.mul(b));
}

/**
 * The inclusive scan of an associative `combine` along d in log2(n) steps: each combines y
 * with y shifted by 1, 2, 4, ..., the slots shifted in filled with `fill` (an identity of
 * combine, or a slice of size 1 along d that leaves every value as it is).
 */
export function doublingScan(x: Tensor, d: number, fill: number | Tensor, combine: (y: Tensor, shifted: Tensor) => Tensor): Tensor {
  let y = x;
  for (let s = 1, n = x.shape[d]!; s < n; s *= 2) y = combine(y, shiftIn(y, d, s, fill));
  return y;
}

/** x shifted by s along d, the first s slots filled with `value` (a number, or a slice of size 1 along d). */
function shiftIn(x: Tensor, d: number, s: number, value: number | Tensor): Tensor {
  const n = x.shape[d]!;
  const shape = x.shape.map((m, i) => (i === d ? Math.min(s, n) : m));
  const head = typeof value === 'number' ? filled('scan', shape, value, x.dtype) : value.expand(shape);
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
     * @example x.cumsum(0); x.cumsum(1, { dtype: 'float32' })
     */
    cumsum(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor;
    /**
     * Running product along dim (torch.cumprod).
     * @example x.cumprod(0)
     */
    cumprod(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor;
  }
}
installMethods({
  cumsum(dim, options) { return cumsum(this, dim, options); },
  cumprod(dim, options) { return cumprod(this, dim, options); },
});
