// indexAdd, indexCopy and indexFill: updates of whole slices along a dim picked by a 1-D index,
// composed over scatterAdd, scatter and where (so their gradients are those ops', as PyTorch's).
import { isFloating, isInteger } from '../dtype.js';
import { formatShape, normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { readAlpha } from './scaled-add.js';
import { checkHostIndices } from '../host-known-indices.js';
import { composite } from '../modes/composite.js';
import { describeValue } from '../distributed/describe-value.js';
import { fromTheEnd, indexAttrs, INT32_INDEX_HINT, scatterAddOp, scatterOp } from './gather-scatter.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { tensorArg } from './tensor-arg.js';
import { numberValue } from '../jit/live-number.js';

/** A 1-D int32/int64 index of `op`, or 0-d (one index), as PyTorch's. */
function oneDimIndex(op: string, index: unknown): Tensor {
  const t = tensorArg(op, 'index', index);
  if (!isInteger(t.dtype)) throw new TypeError(`${op}: index must be an int32 or int64 tensor; got ${t.dtype} ${INT32_INDEX_HINT}`);
  if (t.ndim > 1) throw new RangeError(`${op}: index must be 0-D or 1-D, as in PyTorch; got ${formatShape(t.shape)}`);
  // a 1-D index as it is: a reshape would hide its host-known values (host-known-indices.ts)
  return t.ndim === 1 ? t : t.reshape([1]);
}

export interface IndexAddOptions {
  /** The multiplier of source (1 by default). */
  alpha?: number;
}

/**
 * x with `primitive` (scatterAdd or scatter) of source into the slices along dim at index;
 * source has x's dtype and shape but along dim, where it has the index's length.
 */
function intoSlices(op: string, x: Tensor, dim: number, index: Tensor, source: Tensor, primitive: typeof scatterOp, scale: (src: Tensor) => Tensor = (src) => src): Tensor {
  tensorArg(op, 'input', x);
  const idx = oneDimIndex(op, index);
  tensorArg(op, 'source', source);
  if (source.dtype !== x.dtype) throw new TypeError(`${op}: source must have the input's dtype ${x.dtype}, as in PyTorch; got ${source.dtype}`);
  const d = normalizeDim(op, dim, Math.max(x.ndim, 1));
  const src = x.ndim === 0 ? source.reshape([-1]) : source;
  const base = x.ndim === 0 ? x.reshape([1]) : x;
  const expected = base.shape.map((n, k) => (k === d ? idx.numel() : n));
  if (src.ndim !== base.ndim || src.shape.some((n, k) => n !== expected[k])) {
    throw new RangeError(`${op}: source must have the shape ${formatShape(expected)} (the input's, with dim ${d} the index's length); got ${formatShape(source.shape)}`);
  }
  const checked = checkHostIndices(op, 'index', idx, base.shape[d]!, false);
  const out = composite(op, () => {
    // the index spread over source's shape, as the scatter primitives take it
    const spread = idx.reshape(src.shape.map((n, k) => (k === d ? n : 1))).expand([...src.shape]);
    return apply(primitive, [base, spread, scale(src)], indexAttrs(d, checked));
  });
  return x.ndim === 0 ? out.reshape([]) : out;
}

/**
 * x with alpha·source added to the slices along dim at index: x.select(dim, index[i]) +=
 * alpha·source.select(dim, i), repeated indices adding up (torch.index_add).
 * @example tpu.indexAdd(tpu.zeros([3]), 0, tpu.tensor(new Int32Array([0, 0, 2])), tpu.tensor([1, 2, 3])) // [3, 0, 3]
 */
export function indexAdd(x: Tensor, dim: number, index: Tensor, source: Tensor, options?: IndexAddOptions): Tensor {
  const alpha = readAlpha('indexAdd', options);
  if (x instanceof Tensor && !isFloating(x.dtype) && !Number.isInteger(alpha)) throw new TypeError(`indexAdd: alpha must be an integer for ${x.dtype} tensors, as in PyTorch; got ${alpha}`);
  return intoSlices('indexAdd', x, dim, index, source, scatterAddOp, (src) => (alpha === 1 ? src : src.mul(alpha)));
}

/**
 * x with the slices along dim at index replaced by source's: x.select(dim, index[i]) =
 * source.select(dim, i) (torch.index_copy). Of repeated indices the last is kept on the ONNX
 * backend (PyTorch's CPU order; PyTorch leaves it undefined).
 * @example tpu.indexCopy(tpu.zeros([3]), 0, tpu.tensor(new Int32Array([2, 0])), tpu.tensor([1, 2])) // [2, 0, 1]
 */
export function indexCopy(x: Tensor, dim: number, index: Tensor, source: Tensor): Tensor {
  return intoSlices('indexCopy', x, dim, index, source, scatterOp);
}

/**
 * x with value written to the slices along dim at index (torch.index_fill); negative indices
 * count from the end; value a number or a 0-d tensor (which gets the gradient of what it fills).
 * @example tpu.indexFill(tpu.zeros([2, 3]), 1, tpu.tensor(new Int32Array([0, -1])), 5) // [[5, 0, 5], [5, 0, 5]]
 */
export function indexFill(x: Tensor, dim: number, index: Tensor, value: number | boolean | Tensor): Tensor {
  tensorArg('indexFill', 'input', x);
  const idx = oneDimIndex('indexFill', index);
  // a tpu.compile number argument stays live (a program input), as fill_'s value
  if (value instanceof Tensor ? value.ndim !== 0 : typeof numberValue(value) !== 'number' && typeof value !== 'boolean') {
    throw new TypeError(`indexFill: value must be a number or a 0-d tensor, as in PyTorch; got ${value instanceof Tensor ? `a tensor of shape ${formatShape(value.shape)}` : describeValue(value)}`);
  }
  const d = normalizeDim('indexFill', dim, Math.max(x.ndim, 1));
  const n = x.ndim === 0 ? 1 : x.shape[d]!;
  const checked = checkHostIndices('indexFill', 'index', idx, n, true);
  return composite('indexFill', () => {
    // the filled positions along dim: a count per position (an index out of range fails on the device)
    const wrapped = fromTheEnd(idx, n);
    const counts = apply(scatterAddOp, [filled('indexFill', [n], 0, 'int32', x.chip), wrapped, filled('indexFill', [idx.numel()], 1, 'int32', x.chip)], indexAttrs(0, checked));
    const hit = counts.gt(0).reshape(x.shape.map((m, k) => (k === d ? m : 1)));
    const filledIn = where(hit, value instanceof Tensor && value.dtype !== x.dtype ? value.to(x.dtype) : value, x);
    // a number in x's dtype, as PyTorch casts it (2.5 into int32 is 2)
    return filledIn.dtype === x.dtype ? filledIn : filledIn.to(x.dtype);
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * alpha·source added to the slices along dim at index (torch.index_add).
     * @example tpu.zeros([3]).indexAdd(0, tpu.tensor(new Int32Array([2, 2])), tpu.tensor([1, 2]), { alpha: 10 }) // [0, 0, 30]
     */
    indexAdd(dim: number, index: Tensor, source: Tensor, options?: IndexAddOptions): Tensor;
    /**
     * The slices along dim at index replaced by source's (torch.index_copy).
     * @example tpu.zeros([2, 2]).indexCopy(0, tpu.tensor(new Int32Array([1])), tpu.tensor([[3, 4]])) // [[0, 0], [3, 4]]
     */
    indexCopy(dim: number, index: Tensor, source: Tensor): Tensor;
    /**
     * value written to the slices along dim at index (torch.index_fill).
     * @example tpu.tensor([1, 2, 3]).indexFill(0, tpu.tensor(new Int32Array([-1])), 0) // [1, 2, 0]
     */
    indexFill(dim: number, index: Tensor, value: number | boolean | Tensor): Tensor;
  }
}
installMethods({
  indexAdd(dim, index, source, options) { return indexAdd(this, dim, index, source, options); },
  indexCopy(dim, index, source) { return indexCopy(this, dim, index, source); },
  indexFill(dim, index, value) { return indexFill(this, dim, index, value); },
});
