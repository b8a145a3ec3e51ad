// tpu.multinomial: category indices drawn from rows of weights (torch.multinomial), from the
// tpu.manualSeed generator's uniform draws, on the device: no read of the weights (a sampling
// loop takes no sync per token, and tpu.compile traces it). The weights are checked there as
// PyTorch checks them; a bad row fails the program, a DeviceError at the next read.
import { isFloating } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { rand } from '../creation.js';
import { refuseGenerator } from '../random.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';
import { checkedOnDevice, firstFailure } from './device-check.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { searchsorted } from './searchsorted.js';

export interface MultinomialOptions {
  /** Draw with replacement (default false: each category at most once per row). */
  replacement?: boolean;
  /** PyTorch's generator: not supported (one generator, tpu.manualSeed's); an error if given. */
  generator?: never;
}

/**
 * With replacement: the first category whose running total passes each draw's share of the
 * row's total (searchsorted), at most the last category of positive weight (a draw that
 * rounding puts at the very top).
 */
function withReplacement(w: Tensor, count: number): Tensor {
  const [rows, categories] = w.shape as [number, number];
  const cumulative = w.cumsum(-1);
  const total = cumulative.narrow(-1, categories - 1, 1);
  const drawn = searchsorted(cumulative, rand([rows, count], { chip: w.chip }).mul(total), { right: true });
  const positions = filled('tpu.multinomial', [categories], 1, 'int32', w.chip).cumsum(0).sub(1);
  const last = where(w.gt(0), positions, -1).amax(-1, true).to('int64');
  return drawn.minimum(last);
}

/**
 * Without replacement: the `count` largest of weight / Exp(1) (an exponential race: the order
 * in which they finish is sequential drawing proportional to the weights, each category once).
 * Weight-0 categories come after every other, lowest index first, as PyTorch's do.
 */
function withoutReplacement(w: Tensor, count: number): Tensor {
  const exponential = rand([...w.shape], { chip: w.chip }).neg().log1p().neg();
  const keys = where(w.eq(0), 0, w.div(exponential));
  return keys.topk(count, -1).indices;
}

/** w with the program failing where a row holds a weight that is not finite and non-negative, or sums to 0 (PyTorch's checks). */
function checkedWeights(op: string, w: Tensor): Tensor {
  const [rows, categories] = w.shape as [number, number];
  const batched = rows > 1;
  const finite = checkedOnDevice(w, firstFailure(w.ge(0).logicalAnd(w.lt(Infinity))), {
    op, text: 'weights must be finite and non-negative; the one at index {k} (1-based) is not', n: categories, batched,
  });
  return checkedOnDevice(finite, firstFailure(finite.sum(-1, true).gt(0)), { op, text: 'the weights sum to 0: no category can be drawn', n: 1, batched });
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
  if (rows === 0) return filled(op, [0, numSamples], 0, 'int64', input.chip);
  const w = checkedWeights(op, input.detach().to('float32').reshape([rows, categories]));
  const drawn = replacement ? withReplacement(w, numSamples) : withoutReplacement(w, numSamples);
  return input.ndim === 1 ? drawn.reshape([numSamples]) : drawn;
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
