// take and takeAlongDim: gathers whose negative indices count from the end, as PyTorch's
// (take's; takeAlongDim's along a dim). Built on indexSelect and gather, so an index out of
// range is an error at the call for host-known indices, on the device otherwise.
import { isInteger } from '../dtype.js';
import { broadcastShapes, formatShape, normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { checkHostIndices } from '../host-known-indices.js';
import { fromTheEnd, gather, gatherChecked, indexAttrs, indexSelectOp, INT32_INDEX_HINT } from './gather-scatter.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

function indexArg(op: string, index: unknown): Tensor {
  const t = tensorArg(op, 'index', index);
  if (!isInteger(t.dtype)) throw new TypeError(`${op}: index must be an int32 or int64 tensor; got ${t.dtype} ${INT32_INDEX_HINT}`);
  return t;
}

/**
 * The elements of x read as a 1-D tensor at index, of any shape (torch.take); negative
 * indices count from the end.
 * @example tpu.take(tpu.tensor([[1, 2], [3, 4]]), tpu.tensor(new Int32Array([-1, 0]))) // [4, 1]
 */
export function take(x: Tensor, index: Tensor): Tensor {
  tensorArg('take', 'input', x);
  const idx = indexArg('take', index);
  const n = x.numel();
  const checked = checkHostIndices('take', 'index', idx, n, true);
  return apply(indexSelectOp, [x.reshape([n]), fromTheEnd(idx, n)], indexAttrs(0, checked));
}

/**
 * Values of x at indices along dim, x and indices broadcast against each other outside dim
 * (torch.take_along_dim: the indices argsort or topk give), negative indices counting from the
 * end; without dim, of the flattened x at the flattened indices, negative ones errors (both as
 * PyTorch's; an index past the end is an error, where PyTorch's dim form reads it modulo the size).
 * @example tpu.takeAlongDim(tpu.tensor([[10, 30, 20]]), tpu.tensor([[0, 2, 1]], { dtype: 'int32' }), 1) // [[10, 20, 30]]
 */
export function takeAlongDim(x: Tensor, indices: Tensor, dim?: number | { dim?: number | null } | null): Tensor {
  tensorArg('takeAlongDim', 'input', x);
  const idx = indexArg('takeAlongDim', indices);
  const given = specialized(dim);
  const dimValue = specialized(given !== null && typeof given === 'object' ? given.dim : given);
  if (dimValue === undefined || dimValue === null) return gather(x.reshape([-1]), 0, idx.reshape([-1]));
  if (idx.ndim !== x.ndim) throw new RangeError(`takeAlongDim: input ${formatShape(x.shape)} and indices ${formatShape(idx.shape)} must have the same number of dims, as in PyTorch`);
  const d = normalizeDim('takeAlongDim', dimValue, x.ndim);
  const n = x.shape[d]!;
  const outside = (s: readonly number[]) => s.map((m, k) => (k === d ? 1 : m));
  const joint = broadcastShapes('takeAlongDim', outside(x.shape), outside(idx.shape), ['input', 'indices']);
  const grown = (t: Tensor) => t.expand(joint.map((m, k) => (k === d ? t.shape[d]! : m)));
  const checked = checkHostIndices('takeAlongDim', 'index', idx, n, true);
  return gatherChecked(grown(x), d, grown(fromTheEnd(idx, n)), checked);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The elements at index of the flattened tensor, negatives from the end (torch.take).
     * @example tpu.tensor([[1, 2], [3, 4]]).take(tpu.tensor(new Int32Array([3, 0]))) // [4, 1]
     */
    take(index: Tensor): Tensor;
    /**
     * Values at indices along dim, broadcasting outside it (torch.take_along_dim).
     * @example const s = tpu.tensor([[3, 1, 2]]); s.takeAlongDim(s.argsort(1), 1) // [[1, 2, 3]]
     */
    takeAlongDim(indices: Tensor, dim?: number | { dim?: number | null } | null): Tensor;
  }
}
installMethods({
  take(index) { return take(this, index); },
  takeAlongDim(indices, dim) { return takeAlongDim(this, indices, dim); },
});
