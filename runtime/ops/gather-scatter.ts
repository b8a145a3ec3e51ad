// Index ops with int32 index tensors: indexSelect (ONNX Gather: any index shape), gather
// (GatherElements), scatterAdd (ScatterElements, reduction add) and scatter's primitive (ScatterElements;
// the function is scatter-reduce.ts, as its reduce option is scatterReduce). Index values are
// device data: an out-of-range index fails on the device (DeviceError), not on the host.
import { INDEX_DTYPE, isInteger } from '../dtype.js';
import { formatShape, normalizeDim, type Shape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type Abstract, type OpDef } from './op.js';
import { zerosLike } from './like.js';
import { constantTensor, filled } from './constant.js';
import { describeValue } from '../distributed/describe-value.js';
import { where } from './where.js';
import { checkHostIndices } from '../host-known-indices.js';
import { inferNumClasses } from './one-hot-classes.js';
import { installMethods } from '../install-methods.js';
import { indexLayout } from '../views/result-layout.js';
import type { IndicesChecked } from '../primitive.js';
import { tensorArg } from './tensor-arg.js';
import { numberValue, specialized } from '../jit/live-number.js';

/** Said when indices come as float32: JS number arrays make float32 tensors. */
export const INT32_INDEX_HINT = "(number arrays make float32 tensors: write tpu.tensor([...], { dtype: 'int32' }) or pass an Int32Array)";

/**
 * The dim of an index op, and whether the host checked its index values in range: then it
 * cannot fail on the device, so a fused region need not run the values that do not read it
 * apart (region.ts), and its gradient reads the same indices, checked as well.
 */
export type IndexAttrs = { dim: number } & IndicesChecked;
export const indexAttrs = (dim: number, checked: boolean): IndexAttrs => (checked ? { dim, indicesChecked: true } : { dim });

function checkIndex(op: string, index: Abstract): void {
  if (!isInteger(index.dtype)) throw new TypeError(`${op}: index must be an int32 or int64 tensor; got ${index.dtype} ${INT32_INDEX_HINT}`);
}

/** Gathers along dim with an index of any shape: out = x.shape[:dim] + index.shape + x.shape[dim+1:]. */
export const indexSelectOp: OpDef<IndexAttrs> = defineOp<IndexAttrs>({
  name: 'indexSelect',
  readsDeviceIndices: true,
  infer([x, index], { dim }) {
    checkIndex('indexSelect', index!);
    if (x!.shape[dim] === 0 && index!.shape.reduce((a, b) => a * b, 1) > 0) throw new RangeError(`indexSelect: cannot index into an empty dim ${dim} of ${formatShape(x!.shape)}`);
    return { shape: [...x!.shape.slice(0, dim), ...index!.shape, ...x!.shape.slice(dim + 1)], dtype: x!.dtype };
  },
  grad(g, [x, index], _out, attrs) {
    const { dim } = attrs;
    const xs = (x as Tensor).shape;
    const idx = index as Tensor;
    const m = idx.numel();
    // back to one index dim, then an index tensor as large as the gradient for scatterAdd
    const g2 = g.reshape([...xs.slice(0, dim), m, ...xs.slice(dim + 1)]);
    const unit = xs.map((_, d) => (d === dim ? m : 1));
    const spread = idx.reshape(unit).expand([...g2.shape]);
    return [apply(scatterAddOp, [zeros(x as Tensor, g), spread, g2], attrs), null];
  },
  gradReads: () => INDEX,
});

export const gatherOp: OpDef<IndexAttrs> = defineOp<IndexAttrs>({
  name: 'gather',
  readsDeviceIndices: true,
  infer([x, index], { dim }) {
    checkIndex('gather', index!);
    if (index!.shape.length !== x!.shape.length) {
      throw new RangeError(`gather: index ${formatShape(index!.shape)} must have as many dims as the input ${formatShape(x!.shape)}`);
    }
    index!.shape.forEach((n, d) => {
      if (d !== dim && n > x!.shape[d]!) throw new RangeError(`gather: index ${formatShape(index!.shape)} is larger than the input ${formatShape(x!.shape)} in dim ${d}`);
    });
    return { shape: index!.shape, dtype: x!.dtype };
  },
  grad: (g, [x, index], _out, attrs) => [apply(scatterAddOp, [zeros(x as Tensor, g), index!, g], attrs), null],
  gradReads: () => INDEX,
});

/** scatterAdd's and scatter's shape rule: an index of the input's rank, src of the index's shape. */
export function scatterShape(op: string, [x, index, src]: readonly Abstract[], dim: number): Abstract {
  checkIndex(op, index!);
  if (!shapesMatch(index!.shape, src!.shape)) {
    throw new RangeError(`${op}: index ${formatShape(index!.shape)} and src ${formatShape(src!.shape)} must have the same shape`);
  }
  if (index!.shape.length !== x!.shape.length) {
    throw new RangeError(`${op}: index ${formatShape(index!.shape)} must have as many dims as the input ${formatShape(x!.shape)}`);
  }
  index!.shape.forEach((n, d) => {
    if (d !== dim && n > x!.shape[d]!) throw new RangeError(`${op}: index ${formatShape(index!.shape)} is larger than the input ${formatShape(x!.shape)} in dim ${d}`);
  });
  return { shape: x!.shape, dtype: x!.dtype };
}

export const scatterAddOp: OpDef<IndexAttrs> = defineOp<IndexAttrs>({
  name: 'scatterAdd',
  readsDeviceIndices: true,
  infer: (inputs, { dim }) => scatterShape('scatterAdd', inputs, dim),
  grad: (g, [_x, index], _out, attrs) => [g, null, apply(gatherOp, [g, index!], attrs)],
});

/** x with src written at index along dim (torch.scatter); of indices that repeat, the last write is kept (ONNX Runtime's, PyTorch CPU's order). */
export const scatterOp: OpDef<IndexAttrs> = defineOp<IndexAttrs>({
  name: 'scatter',
  readsDeviceIndices: true,
  infer(inputs, { dim }) {
    const [x, , src] = inputs;
    if (x!.dtype !== src!.dtype) throw new TypeError(`scatter: src must have the input's dtype ${x!.dtype}, as in PyTorch; got ${src!.dtype}`);
    return scatterShape('scatter', inputs, dim);
  },
  // PyTorch's: the gradient with the written positions zeroed, and the gradient read at them for src
  grad: (g, [_x, index, src], _out, attrs) => [apply(scatterOp, [g, index!, zerosLike(src as Tensor, { dtype: g.dtype })], attrs), null, apply(gatherOp, [g, index!], attrs)],
  gradReads: () => INDEX,
});

/** indexSelect's and gather's rules read the index only (the input's shape and dtype). */
const INDEX = [1];

function zeros(like: Tensor, g: Tensor): Tensor {
  return zerosLike(like, { dtype: g.dtype });
}

function shapesMatch(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

export function indexTensor(op: string, index: unknown): Tensor {
  if (!(index instanceof Tensor)) throw new TypeError(`${op}: index must be an int32 tensor; got ${typeof index}`);
  return index;
}

/**
 * torch.index_select: a 1-D index along dim.
 * @example tpu.indexSelect(tpu.tensor([10, 20, 30]), 0, tpu.tensor(new Int32Array([2, 0]))) // [30, 10]
 */
export function indexSelect(x: Tensor, dim: number, index: Tensor): Tensor {
  tensorArg('indexSelect', 'input', x);
  const idx = indexTensor('indexSelect', index);
  if (idx.ndim !== 1) throw new RangeError(`indexSelect: index must be 1-D; got shape ${formatShape(idx.shape)}`);
  const d = normalizeDim('indexSelect', dim, x.ndim);
  const checked = checkHostIndices('indexSelect', 'index', idx, x.shape[d]!, false);
  return apply(indexSelectOp, [x, idx], indexAttrs(d, checked));
}

/**
 * x[idx] for an int32 or int64 tensor of any shape (along dim, the first by default: x.index(idx)).
 * As in PyTorch's advanced indexing, negative values count from the end; below -n or from n on is an error.
 */
/** An index whose negative entries count from the end of a dim of n (PyTorch's wrapping of index tensors). */
export const fromTheEnd = (index: Tensor, n: number): Tensor => where(index.lt(0), index.add(n), index);

export function indexWith(x: Tensor, index: Tensor, dim = 0, xStrides?: readonly number[]): Tensor {
  const idx = indexTensor('index', index);
  if (x.ndim === 0) throw new RangeError('index: a 0-d tensor cannot be indexed');
  const d = normalizeDim('index', dim, x.ndim);
  const checked = checkHostIndices('index', 'index', idx, x.shape[d]!, true);
  const wrapped = isInteger(idx.dtype) ? fromTheEnd(idx, x.shape[d]!) : idx;
  return indexLayout(x, idx, d, apply(indexSelectOp, [x, wrapped], indexAttrs(d, checked)), xStrides);
}

/** Rows of a table picked by an index tensor of any shape, without wrapping negatives (embedding). */
export function rowsAt(table: Tensor, index: Tensor): Tensor {
  const checked = checkHostIndices('embedding', 'index', index, table.shape[0]!, false);
  return apply(indexSelectOp, [table, index], indexAttrs(0, checked));
}

/**
 * Values at index along dim (torch.gather).
 * @example tpu.gather(x, 1, index)
 */
export function gather(x: Tensor, dim: number, index: Tensor): Tensor {
  tensorArg('gather', 'input', x);
  return gatherChecked(x, dim, index, false);
}

/** gather, told whether the caller checked the index values in range on the host (checkHostIndices of the tensor they come from). */
export function gatherChecked(x: Tensor, dim: number, index: Tensor, checked: boolean): Tensor {
  const idx = indexTensor('gather', index);
  const d = normalizeDim('gather', dim, x.ndim);
  // a 0-d input and index: PyTorch reads it as one element along dim 0
  if (x.ndim === 0 && idx.ndim === 0) return gatherChecked(x.reshape([1]), 0, idx.reshape([1]), checked).reshape([]);
  const known = checkHostIndices('gather', 'index', idx, x.shape[d]!, false);
  return apply(gatherOp, [x, idx], indexAttrs(d, known || checked));
}

/**
 * x.scatterAdd(dim, index, src): x[.., index[i], ..] += src[i] (src may be larger than index).
 * @example tpu.scatterAdd(tpu.zeros([3]), 0, tpu.tensor(new Int32Array([0, 2, 0])), tpu.ones([3])) // [2, 0, 1]
 */
export function scatterAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  tensorArg('scatterAdd', 'input', x);
  const idx = indexTensor('scatterAdd', index);
  if (!(src instanceof Tensor)) throw new TypeError(`scatterAdd: src must be a tensor; got ${typeof src}`);
  const d = normalizeDim('scatterAdd', dim, x.ndim);
  const checked = checkHostIndices('scatterAdd', 'index', idx, x.shape[d]!, false);
  return apply(scatterAddOp, [x, idx, narrowedTo(src, idx)], indexAttrs(d, checked));
}

/** src cut to the index's shape where it is larger in some dims (PyTorch reads that corner only). */
export function narrowedTo(src: Tensor, idx: Tensor): Tensor {
  if (src.ndim === idx.ndim && idx.shape.every((n, k) => n <= src.shape[k]!) && !shapesMatch(src.shape, idx.shape)) {
    return idx.shape.reduce((t, n, k) => t.narrow(k, 0, n), src);
  }
  return src;
}

/**
 * int32 zeros of `failWhen`'s shape, or a failed program where it is true (add it to a result):
 * a composed op's device-side check, as ONNX and XLA have no assert. An index of 1 into one
 * element fails on the device, so the call reports a DeviceError, not a made-up number.
 */
export function zeroOrFail(failWhen: Tensor): Tensor {
  return apply(indexSelectOp, [constantTensor([0], [1], 'int32'), failWhen.to('int32')], { dim: 0 });
}

/**
 * One-hot int64 vectors of length numClasses (as PyTorch); -1 (the default, as in PyTorch) takes the
 * largest index + 1, read from the device (a sync; under tpu.compile pass numClasses).
 * @example tpu.nn.functional.oneHot(tpu.tensor(new Int32Array([0, 2])), 3) // [[1, 0, 0], [0, 0, 1]]
 */
export function oneHot(index: Tensor, numClasses = -1): Tensor {
  const idx = indexTensor('oneHot', index);
  checkIndex('oneHot', idx);
  numClasses = specialized(numClasses);
  if (numClasses === -1) numClasses = inferNumClasses(idx);
  else if (!Number.isInteger(numClasses) || numClasses <= 0) {
    throw new RangeError(`oneHot: numClasses must be a positive integer, or -1 to infer it from the largest index; got ${JSON.stringify(numClasses)}`);
  }
  checkHostIndices('oneHot', 'class', idx, numClasses, false);
  const classes = Array.from({ length: numClasses }, (_, i) => i);
  // a class outside [0, numClasses) fails on the device, as in PyTorch
  const fails = zeroOrFail(idx.lt(0).logicalOr(idx.ge(numClasses)));
  return idx.unsqueeze(-1).eq(constantTensor(classes, [numClasses], idx.dtype)).to(INDEX_DTYPE).add(fails.unsqueeze(-1));
}


declare module '../tensor.js' {
  interface Tensor {
    /**
     * Rows (or slices along dim) picked by an int32 index (torch.index_select).
     * @example x.indexSelect(0, idx)
     */
    indexSelect(dim: number, index: Tensor): Tensor;
    /**
     * Values at index along dim (torch.gather).
     * @example x.gather(1, index)
     */
    gather(dim: number, index: Tensor): Tensor;
    /**
     * Adds src into a copy of x at index along dim (torch.scatter_add).
     * @example x.scatterAdd(0, index, src)
     */
    scatterAdd(dim: number, index: Tensor, src: Tensor): Tensor;
  }
}
installMethods({
  indexSelect(dim, index) { return indexSelect(this, dim, index); },
  gather(dim, index) { return gather(this, dim, index); },
  scatterAdd(dim, index, src) { return scatterAdd(this, dim, index, src); },
});
