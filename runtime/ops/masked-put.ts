// x[mask] = v (and indexPut's accumulate) where v does not depend on how many positions the
// mask picks: a number, or a tensor that broadcasts to one picked slice. Then the write is
// where(mask, v, x) (x + v with accumulate), the same values as PyTorch's index_put_ without
// the mask's nonzero positions: no sync, and tpu.compile traces it (natural code writes
// `x[x < 0] = 0` inside training loops).
import { Tensor } from '../tensor.js';
import { shapesEqual } from '../shape.js';
import { composite } from '../modes/composite.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { oneSliceShape } from './one-slice-shape.js';

/** The value as it broadcasts to one picked slice of shape `rest`, or null when it needs the picked count (v of [count, ...rest]). */
function sliceValue(x: Tensor, values: Tensor | number | boolean, rest: readonly number[], op: string): Tensor | null {
  if (typeof values === 'number' || typeof values === 'boolean') return filled(op, [], values, x.dtype, x.chip);
  if (!(values instanceof Tensor) || values.dtype !== x.dtype) return null; // the general path says why
  const shape = oneSliceShape(values.shape, rest);
  if (!shape) return null;
  return shape.length === values.ndim ? values : values.reshape(shape);
}

/** x with v at x[mask] (added with `accumulate`) when indices are one bool mask over x's leading dims and v needs no count; else null. */
export function maskedPut(op: string, x: Tensor, indices: readonly (Tensor | null)[], values: Tensor | number | boolean, accumulate: boolean): Tensor | null {
  if (!Array.isArray(indices) || indices.length !== 1) return null;
  const mask = indices[0];
  if (!(mask instanceof Tensor) || mask.dtype !== 'bool' || mask.ndim === 0 || mask.ndim > x.ndim) return null;
  if (!shapesEqual(mask.shape, x.shape.slice(0, mask.ndim)) || mask.chip !== x.chip) return null;
  if (accumulate && x.dtype === 'bool') return null;
  const rest = x.shape.slice(mask.ndim);
  const v = sliceValue(x, values, rest, op);
  if (!v) return null;
  return composite(op, () => {
    const m = rest.length ? mask.reshape([...mask.shape, ...rest.map(() => 1)]) : mask;
    return where(m, accumulate ? x.add(v) : v, x);
  });
}
