// maskedScatter (torch.masked_scatter): x with the positions where mask is true (row-major,
// mask and x broadcast together) filled with source's elements in order. Each true position
// takes source's element at its running count of true positions, with one gather, so no size
// depends on the data; only a source smaller than the result needs the mask's count, to say
// it is too short (a sync; a device-side check under tpu.compile).
import { broadcastShapes } from '../shape.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { composite } from '../modes/composite.js';
import { tracing } from '../jit/trace-record.js';
import { describeValue } from '../distributed/describe-value.js';
import { zeroOrFail } from './gather-scatter.js';
import { where } from './where.js';

/** Throws (or under tpu.compile fails on the device) when mask has more true values than source has elements. */
function checkSourceLength(flatMask: Tensor, source: Tensor): Tensor | undefined {
  if (source.numel() >= flatMask.numel()) return undefined;
  const tooMany = flatMask.sum().gt(source.numel());
  if (tracing()) return zeroOrFail(tooMany);
  const count = Number(flatMask.sum().item());
  if (count > source.numel()) throw new RangeError(`maskedScatter: source has ${source.numel()} elements but mask has ${count} true values; source needs at least one element per true value`);
  return undefined;
}

/**
 * x with the positions where mask is true filled, in row-major order, with source's elements
 * taken in order (torch.masked_scatter); mask is bool and broadcasts with x, source has x's
 * dtype and at least as many elements as mask has true values.
 * @example tpu.tensor([1, 2, 3]).maskedScatter(tpu.tensor([true, false, true]), tpu.tensor([10, 20])) // [10, 2, 20]
 */
export function maskedScatter(x: Tensor, mask: Tensor, source: Tensor): Tensor {
  const op = 'maskedScatter';
  if (!(x instanceof Tensor)) throw new TypeError(`${op}: input must be a tensor; got ${describeValue(x)}`);
  if (!(mask instanceof Tensor) || mask.dtype !== 'bool') throw new TypeError(`${op}: mask must be a bool tensor, as in PyTorch; got ${mask instanceof Tensor ? mask.dtype : describeValue(mask)}`);
  if (!(source instanceof Tensor)) throw new TypeError(`${op}: source must be a tensor; got ${describeValue(source)}`);
  if (source.dtype !== x.dtype) throw new TypeError(`${op}: source must have the input's dtype ${x.dtype}, as in PyTorch; got ${source.dtype}`);
  const shape = broadcastShapes(op, x.shape, mask.shape, ['input', 'mask']);
  const flatMask = mask.expand(shape).reshape([-1]);
  const flatX = x.expand(shape).reshape([-1]);
  const failed = checkSourceLength(flatMask, source);
  // nothing to take from an empty source: x itself (after the device check, under tpu.compile)
  if (source.numel() === 0) return (failed ? where(failed.eq(0), flatX, flatX) : flatX.clone()).reshape(shape);
  return composite(op, () => {
    let position = flatMask.to('int32').cumsum(0).sub(1).clamp(0);
    if (failed) position = position.add(failed);
    return where(flatMask, source.reshape([-1]).gather(0, position), flatX).reshape(shape);
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The positions where mask is true filled with source's elements in order (torch.masked_scatter).
     * @example tpu.tensor([[0, 0], [0, 0]]).maskedScatter(tpu.tensor([false, true]), tpu.tensor([5, 6])) // [[0, 5], [0, 6]]
     */
    maskedScatter(mask: Tensor, source: Tensor): Tensor;
  }
}
installMethods({
  maskedScatter(mask, source) { return maskedScatter(this, mask, source); },
});
