// Reading with a bool mask: PyTorch's x[mask] and torch.masked_select. The result's length is
// the mask's count of true values, read from the device (true-positions.ts), then the elements
// are picked with indexSelect at the positions found, so the gradient is indexSelect's
// (scattered back into zeros of x's shape).
import { broadcastShapes, formatShape, numel } from '../shape.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { indexSelect } from './gather-scatter.js';
import { truePositions } from './true-positions.js';
import { installMethods } from '../install-methods.js';

/**
 * x[mask] (PyTorch's indexing with a bool tensor): mask's shape is x's leading dims, the result
 * is [count of true, ...x.shape[mask.ndim:]], the picked rows in row-major order. `op` names
 * the spelling in errors: 'x[mask]' (x.at(mask)) or 'index(mask)' (x.index(mask)).
 */
export function maskedIndex(x: Tensor, mask: Tensor, op = 'x[mask]'): Tensor {
  if (mask.ndim > x.ndim) {
    throw new RangeError(`${op}: too many indices: the mask ${formatShape(mask.shape)} has ${mask.ndim} dims, the indexed tensor ${formatShape(x.shape)} has ${x.ndim}`);
  }
  const d = mask.shape.findIndex((n, i) => n !== x.shape[i]);
  if (d >= 0) {
    throw new RangeError(`${op}: the shape of the mask ${formatShape(mask.shape)} at index ${d} does not match the shape of the indexed tensor ${formatShape(x.shape)} at index ${d}`);
  }
  const rest = x.shape.slice(mask.ndim);
  return pickRows(op, x.reshape([numel(mask.shape), ...rest]), mask);
}

/**
 * torch.masked_select: the elements of x where mask is true, as a 1-D tensor in row-major
 * order; mask and x broadcast against each other.
 * @example tpu.maskedSelect(tpu.tensor([[1, -2], [3, -4]]), tpu.tensor([true, false])) // [1, 3]
 */
export function maskedSelect(x: Tensor, mask: Tensor): Tensor {
  if (!(x instanceof Tensor)) throw new TypeError(`maskedSelect: input must be a tensor; got ${typeof x}`);
  if (!(mask instanceof Tensor) || mask.dtype !== 'bool') {
    throw new TypeError(`maskedSelect: mask must be a bool tensor; got ${mask instanceof Tensor ? mask.dtype : typeof mask}`);
  }
  const shape = broadcastShapes('maskedSelect', x.shape, mask.shape, ['input', 'mask']);
  return pickRows('maskedSelect', x.expand(shape).reshape([-1]), mask.expand(shape));
}

/** The rows of `rows` (a 1-D or more tensor) at the true values of `mask` (of as many values as rows has rows). */
function pickRows(op: string, rows: Tensor, mask: Tensor): Tensor {
  const positions = truePositions(op, mask, {
    count: "the mask's count of true values",
    instead: 'keep the shape with x.where(mask, 0) or x.maskedFill(mask.logicalNot(), 0), or select after the call, outside the compiled function',
  });
  return indexSelect(rows, 0, upload(op, () => positions, [positions.length], 'int32', rows.chip));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The elements where mask is true, as a 1-D tensor in row-major order; mask and x broadcast
     * (torch.masked_select). Its length depends on the mask's values: reading them is a sync.
     * @example tpu.tensor([1, -2, 3]).maskedSelect(tpu.tensor([true, false, true])) // [1, 3]
     */
    maskedSelect(mask: Tensor): Tensor;
  }
}
installMethods({
  maskedSelect(mask) { return maskedSelect(this, mask); },
});
