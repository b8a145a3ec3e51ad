// torch.histc: the histogram of a float tensor in `bins` equal bins over [min, max]. Values
// outside the range (and NaN) are not counted; max itself falls in the last bin. With min and
// max given it runs on the device alone; their default (both 0) takes the data's own range,
// read from the device (a sync; an error under tpu.compile).
import { isFloating } from '../dtype.js';
import { applyOnChip } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { fill } from './constant.js';
import { tensorArg } from './tensor-arg.js';
import { readSizingValues } from './true-positions.js';
import { where } from './where.js';
import { specialized } from '../jit/live-number.js';

export interface HistcOptions {
  bins?: number;
  min?: number;
  max?: number;
}

/** The finite data's [min, max] (PyTorch's range when min == max), read from the device. */
function dataRange(op: string, x: Tensor): [number, number] {
  const values = readSizingValues(op, x, 'input', {
    count: 'unknown: the bin edges come from the data when min == max',
    instead: 'give min and max (x.histc(bins, min, max))',
  });
  if (values.length === 0) return [0, 0];
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values as Iterable<number>) {
    if (Number.isNaN(v)) [lo, hi] = [NaN, NaN];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new RangeError(`${op}: the data's range [${lo}, ${hi}] is not finite (as in PyTorch); give min and max`);
  return [lo, hi];
}

function readArgs(op: string, given: readonly unknown[]): { bins: number; min: number; max: number } {
  const args = specialized(given);
  const options = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? readOptions<HistcOptions>(op, args[0], ['bins', 'min', 'max']) : undefined;
  const [bins = 100, min = 0, max = 0] = options ? [options.bins, options.min, options.max] : args as (number | undefined)[];
  if (!Number.isInteger(bins) || bins <= 0) throw new RangeError(`${op}: bins must be an integer > 0; got ${JSON.stringify(bins)}`);
  for (const [name, v] of [['min', min], ['max', max]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${op}: ${name} must be a finite number; got ${JSON.stringify(v)}`);
  }
  if (min > max) throw new RangeError(`${op}: max must be larger than min; got min ${min}, max ${max}`);
  return { bins, min, max };
}

/**
 * The histogram of a float tensor in `bins` (100) equal bins over [min, max] (torch.histc),
 * of the input's dtype; min == max (the default, 0 and 0) takes the data's range (a sync).
 * Positional as PyTorch's (bins, min, max), or `{ bins, min, max }`.
 * @example tpu.tensor([1, 2, 1, 4]).histc(4, 0, 4) // [0, 2, 1, 1]
 */
export function histc(input: Tensor, ...args: [HistcOptions?] | [number?, number?, number?]): Tensor {
  const op = 'histc';
  const x = tensorArg(op, 'input', input);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: input must be float32 or bfloat16, as in PyTorch; got ${x.dtype}`);
  let { bins, min, max } = readArgs(op, args);
  if (min === max) [min, max] = dataRange(op, x);
  if (min === max) [min, max] = [min - 1, max + 1];
  const v = x.to('float32');
  const inRange = v.ge(min).logicalAnd(v.le(max));
  // PyTorch's order of operations: (x - min) * bins / (max - min), truncated; max in the last bin
  const position = v.sub(min).mul(bins).div(max - min).floor().clamp(0, bins - 1).to('int64');
  const counts = applyOnChip(x.chip, fill, [0], { shape: [bins], dtype: 'float32' })
    .scatterAdd(0, where(inRange, position, 0).flatten(), inRange.to('float32').flatten());
  return counts.to(x.dtype);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The histogram of this float tensor in `bins` equal bins over [min, max] (torch.histc).
     * @example tpu.tensor([1, 2, 1, 4]).histc(4) // [2, 1, 0, 1]
     */
    histc(...args: [HistcOptions?] | [number?, number?, number?]): Tensor;
  }
}
installMethods({
  histc(...args) { return histc(this, ...args); },
});
