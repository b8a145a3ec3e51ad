// tpu.multinomial: category indices drawn from rows of weights (torch.multinomial), on the host
// from the tpu.manualSeed generator, the weights read there and checked as PyTorch checks them.
import { isFloating, INDEX_DTYPE } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { refuseGenerator, uniform } from '../random.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';

export interface MultinomialOptions {
  /** Draw with replacement (default false: each category at most once per row). */
  replacement?: boolean;
  /** PyTorch's generator: not supported (one generator, tpu.manualSeed's); an error if given. */
  generator?: never;
}

/** With replacement: the category whose share of the running total holds each uniform draw. */
function withReplacement(row: ArrayLike<number>, total: number, count: number, out: number[]): void {
  const cumulative = new Float64Array(row.length);
  let sum = 0;
  for (let i = 0; i < row.length; i++) cumulative[i] = sum += row[i]!;
  let last = row.length - 1;
  while (row[last] === 0) last--; // a draw that rounding puts at the very top takes the last category of weight
  for (const u of uniform(count)) {
    const target = u * total;
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    out.push(lo);
  }
}

/**
 * Without replacement: the `count` largest of weight / Exp(1) (an exponential race: the order
 * in which they finish is sequential drawing proportional to the weights, each category once).
 * Weight-0 categories come after every other, lowest index first, as PyTorch's do.
 */
function withoutReplacement(row: ArrayLike<number>, count: number, out: number[]): void {
  const u = uniform(row.length);
  const keys = Array.from(row, (w, i) => (w === 0 ? 0 : w / -Math.log1p(-u[i]!)));
  const order = Array.from(keys, (_, i) => i).sort((a, b) => keys[b]! - keys[a]! || a - b);
  for (let k = 0; k < count; k++) out.push(order[k]!);
}

/**
 * numSamples category indices per row of weights (torch.multinomial): input a 1-d tensor of
 * non-negative weights (any positive sum) or a 2-d tensor of rows of them; int64 indices of
 * shape [numSamples] or [rows, numSamples]. Without replacement (the default) each category is
 * drawn at most once, so numSamples must not exceed the categories.
 * @example tpu.multinomial(tpu.tensor([0, 0, 1]), 1) // [2]
 * @example tpu.multinomial(tpu.tensor([0.2, 0.8]), 5, { replacement: true }).shape // [5]
 */
export function multinomial(input: Tensor, numSamples: number, options?: MultinomialOptions): Tensor {
  const op = 'tpu.multinomial';
  const { replacement = false, generator } = readOptions<MultinomialOptions>(op, options, ['replacement', 'generator']);
  refuseGenerator(op, generator);
  if (typeof replacement !== 'boolean') throw new TypeError(`${op}: replacement must be a boolean; got ${JSON.stringify(replacement)}`);
  if (!(input instanceof Tensor)) throw new TypeError(`${op}: input must be a tensor of weights; got ${describeValue(input)}`);
  if (!isFloating(input.dtype)) throw new TypeError(`${op}: input must be a floating-point tensor of weights, as PyTorch's; got ${input.dtype}`);
  if (input.ndim !== 1 && input.ndim !== 2) throw new RangeError(`${op}: input must have 1 or 2 dims (a row of weights, or rows of them); got ${input.describe()}`);
  numSamples = specialized(numSamples);
  if (!Number.isInteger(numSamples) || numSamples <= 0) throw new RangeError(`${op}: numSamples must be a positive integer; got ${JSON.stringify(numSamples)}`);
  const categories = input.shape[input.ndim - 1]!;
  if (!replacement && numSamples > categories) {
    throw new RangeError(`${op}: cannot draw numSamples ${numSamples} > ${categories} categories without replacement; pass { replacement: true } to draw a category more than once`);
  }
  const rows = input.ndim === 1 ? 1 : input.shape[0]!;
  const weights = input.detach().dataSync() as ArrayLike<number>;
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    const row = Array.prototype.slice.call(weights, r * categories, (r + 1) * categories) as number[];
    let total = 0;
    row.forEach((w, i) => {
      if (!(w >= 0 && w < Infinity)) throw new RangeError(`${op}: weights must be finite and non-negative; got ${w} in row ${r} at index ${i}`);
      total += w;
    });
    if (!(total > 0)) throw new RangeError(`${op}: the weights of row ${r} sum to 0: no category can be drawn`);
    if (replacement) withReplacement(row, total, numSamples, out);
    else withoutReplacement(row, numSamples, out);
  }
  const shape = input.ndim === 1 ? [numSamples] : [rows, numSamples];
  return upload('multinomial', () => out, shape, INDEX_DTYPE, input.chip);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * numSamples category indices per row of these weights (torch.Tensor.multinomial).
     * @example tpu.tensor([0, 1]).multinomial(2, { replacement: true }) // [1, 1]
     */
    multinomial(numSamples: number, options?: MultinomialOptions): Tensor;
  }
}
installMethods({
  multinomial(numSamples, options) { return multinomial(this, numSamples, options); },
});
