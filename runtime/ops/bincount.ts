// torch.bincount: how often each non-negative integer occurs, or the sum of its weights. The
// result's length (the largest value + 1, at least minlength) only the device knows: the input
// is read once (a sync, as nonzero's mask; an error under tpu.compile), then the counts are
// summed on the device.
import { INDEX_DTYPE, type DType } from '../dtype.js';
import { applyOnChip } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { fill } from './constant.js';
import { tensorArg } from './tensor-arg.js';
import { readSizingValues } from './true-positions.js';
import { specialized } from '../jit/live-number.js';

export interface BincountOptions {
  /** One weight per input element: the result sums them instead of counting (float32). */
  weights?: Tensor | null;
  /** The result's least length. */
  minlength?: number;
}

/** The largest of the input's values, checked non-negative (-1 when there are none). */
function largestValue(op: string, x: Tensor): number {
  const values = readSizingValues(op, x, 'input', {
    count: 'the largest input value + 1',
    instead: 'give a fixed length with oneHot(x, n).sum(0), or call bincount outside the compiled function',
  });
  let largest = -1;
  for (const v of values as Iterable<number | bigint>) {
    const n = Number(v);
    if (n < 0) throw new RangeError(`${op}: input must hold non-negative integers; got ${n}`);
    if (n > largest) largest = n;
  }
  return largest;
}

/**
 * The count of each value 0, 1, ..., max(x) in the 1-D int32/int64 `x` (torch.bincount), int64;
 * `{ weights }` sums a weight per element instead (float32: PyTorch gives float64 for weights
 * other than float32, which TPUs lack), `{ minlength }` pads the result with zeros. A sync: the
 * input's largest value sizes the result.
 * @example tpu.tensor([1, 3, 1, 0], { dtype: 'int32' }).bincount() // [1, 2, 0, 1]
 */
export function bincount(input: Tensor, options?: BincountOptions): Tensor {
  const op = 'bincount';
  const x = tensorArg(op, 'input', input);
  const { weights = null, minlength: given = 0 } = readOptions<BincountOptions>(op, options, ['weights', 'minlength']);
  if ((x.dtype !== 'int32' && x.dtype !== 'int64') || x.ndim !== 1) {
    throw new TypeError(`${op}: input must be a 1-D int32 or int64 tensor of non-negative integers; got ${x.dtype} of shape [${x.shape}]`);
  }
  const minlength = specialized(given);
  if (!Number.isInteger(minlength) || minlength < 0) throw new RangeError(`${op}: minlength must be an integer >= 0; got ${JSON.stringify(minlength)}`);
  if (weights !== null) {
    tensorArg(op, 'weights', weights);
    if (weights.ndim !== 1 || weights.shape[0] !== x.shape[0]) throw new RangeError(`${op}: weights must be 1-D with one weight per input element ([${x.shape}]); got shape [${weights.shape}]`);
  }
  const length = Math.max(largestValue(op, x) + 1, minlength);
  const dtype: DType = weights === null ? INDEX_DTYPE : 'float32';
  const zeros = applyOnChip(x.chip, fill, [0], { shape: [length], dtype });
  if (x.shape[0] === 0) return zeros;
  const src = weights === null ? applyOnChip(x.chip, fill, [1], { shape: x.shape, dtype }) : weights.to(dtype);
  return zeros.scatterAdd(0, x, src);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The count of each value 0..max of this 1-D integer tensor (torch.bincount); `{ weights, minlength }`.
     * A sync: the largest value sizes the result.
     * @example tpu.tensor([1, 3, 1, 0], { dtype: 'int32' }).bincount({ minlength: 6 }) // [1, 2, 0, 1, 0, 0]
     */
    bincount(options?: BincountOptions): Tensor;
  }
}
installMethods({
  bincount(options) { return bincount(this, options); },
});
