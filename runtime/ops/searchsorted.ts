// torch.searchsorted and torch.bucketize: where each value would be inserted into sorted
// boundaries. A binary search over all values at once, log2(boundaries) steps of gathers and
// compares on the device: no host read, so every mode and tpu.compile run it.
import { Tensor } from '../tensor.js';
import { applyOnChip } from '../modes/dispatch.js';
import { fill } from './constant.js';
import type { Operand } from './op.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { wrapNumber } from './wrapped-number.js';
import { where } from './where.js';
import { take } from './take.js';
import { gather } from './gather-scatter.js';

export interface SearchsortedOptions {
  /** The last position among equal boundaries instead of the first (torch's right=True). */
  right?: boolean;
  /** 'left' or 'right': the same choice as `right`, by name. */
  side?: 'left' | 'right';
  /** int32 indices instead of int64. */
  outInt32?: boolean;
}

export type BucketizeOptions = Omit<SearchsortedOptions, 'side'>;

/** Whether to count boundaries <= value (right) or < value (left), from the options. */
function readSide(op: string, options: SearchsortedOptions | undefined, keys: readonly (keyof SearchsortedOptions)[]): { right: boolean; outInt32: boolean } {
  const { right = false, side, outInt32 = false } = readOptions<SearchsortedOptions>(op, options, keys);
  if (typeof right !== 'boolean') throw new TypeError(`${op}: right must be true or false; got ${JSON.stringify(right)}`);
  if (typeof outInt32 !== 'boolean') throw new TypeError(`${op}: outInt32 must be true or false; got ${JSON.stringify(outInt32)}`);
  if (side !== undefined && side !== 'left' && side !== 'right') throw new TypeError(`${op}: side must be 'left' or 'right'; got ${JSON.stringify(side)}`);
  if (side === 'left' && right) throw new TypeError(`${op}: side 'left' and right: true ask for opposite sides; give one of them`);
  return { right: side === undefined ? right : side === 'right', outInt32 };
}

/**
 * The insertion index of each value in its row of `boundaries` (rows along the last dim, one
 * row for 1-D boundaries), by PyTorch's own binary search, run on every value at once: it
 * moves right past a boundary b unless b >= value (b > value for `right`), so NaN values and
 * NaN boundaries land where PyTorch's land.
 */
function insertionIndex(boundaries: Tensor, values: Tensor, right: boolean, outInt32: boolean): Tensor {
  const m = boundaries.shape.at(-1)!;
  let start = applyOnChip(values.chip, fill, [0], { shape: values.shape, dtype: 'int64' });
  let end = start.add(m);
  for (let span = m; span > 0; span >>= 1) { // ceil(log2(m + 1)) halvings end every search
    const mid = start.add(end).floorDivide(2);
    const at = mid.clamp(0, Math.max(m - 1, 0));
    const b = boundaries.ndim === 1 ? take(boundaries, at) : gather(boundaries, -1, at);
    const goRight = (right ? b.gt(values) : b.ge(values)).logicalNot();
    const active = start.lt(end);
    start = where(active.logicalAnd(goRight), mid.add(1), start);
    end = where(active.logicalAnd(goRight.logicalNot()), mid, end);
  }
  return start.to(outInt32 ? 'int32' : 'int64');
}

/**
 * The index where each value would be inserted into the sorted last dim of `sortedSequence`
 * (torch.searchsorted): the first such place, or the last with `{ right: true }` (or
 * `{ side: 'right' }`); int64, or int32 with `{ outInt32: true }`. N-D boundaries pair with
 * values of the same leading dims; `values` may be a JS number.
 * @example tpu.searchsorted(tpu.tensor([1, 3, 5]), tpu.tensor([0, 3, 6])) // [0, 1, 3]
 * @example tpu.searchsorted(tpu.tensor([1, 3, 5]), 3, { right: true }) // 2
 */
export function searchsorted(sortedSequence: Tensor, values: Operand, options?: SearchsortedOptions): Tensor {
  const op = 'searchsorted';
  const seq = tensorArg(op, 'sortedSequence', sortedSequence);
  const { right, outInt32 } = readSide(op, options, ['right', 'side', 'outInt32']);
  const v = wrapNumber(op, values, seq);
  if (seq.ndim === 0) throw new RangeError(`${op}: sortedSequence must have at least 1 dim; got a 0-d tensor`);
  if (seq.ndim > 1) {
    const lead = seq.shape.slice(0, -1);
    if (v.ndim !== seq.ndim || lead.some((n, i) => n !== v.shape[i])) {
      throw new RangeError(`${op}: sortedSequence of shape [${seq.shape}] needs values whose dims but the last are [${lead}] (or a 1-D sortedSequence); got values of shape [${v.shape}]`);
    }
  }
  return insertionIndex(seq, v, right, outInt32);
}

/**
 * The bucket of each value among sorted 1-D `boundaries` (torch.bucketize): i such that
 * boundaries[i-1] < x <= boundaries[i], or boundaries[i-1] <= x < boundaries[i] with
 * `{ right: true }`; int64, or int32 with `{ outInt32: true }`. `input` may be a JS number.
 * @example tpu.bucketize(tpu.tensor([0, 3, 6]), tpu.tensor([1, 3, 5]), { right: true }) // [0, 2, 3]
 */
export function bucketize(input: Operand, boundaries: Tensor, options?: BucketizeOptions): Tensor {
  const op = 'bucketize';
  const edges = tensorArg(op, 'boundaries', boundaries);
  const { right, outInt32 } = readSide(op, options, ['right', 'outInt32']);
  if (edges.ndim !== 1) throw new RangeError(`${op}: boundaries must be 1-D; got shape [${edges.shape}]`);
  return insertionIndex(edges, wrapNumber(op, input, edges), right, outInt32);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The bucket of each element among sorted 1-D `boundaries` (torch.bucketize).
     * @example tpu.tensor([0, 3, 6]).bucketize(tpu.tensor([1, 3, 5])) // [0, 1, 3]
     */
    bucketize(boundaries: Tensor, options?: BucketizeOptions): Tensor;
  }
}
installMethods({
  bucketize(boundaries, options) { return bucketize(this, boundaries, options); },
});
