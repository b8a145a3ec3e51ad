// torch.utils.data.random_split: disjoint random subsets of given lengths or fractions.
import { permutation } from '../../random.js';
import { datasetArg, datasetLength, type DatasetLike } from './dataset.js';
import { Subset } from './subset.js';

/**
 * Splits dataset into disjoint random Subsets (torch.utils.data.random_split), from the
 * tpu.manualSeed generator. lengths: integers summing to the dataset's length, or fractions
 * summing to 1, rounded as PyTorch's: floor(n * fraction) each, then the remainder one item
 * at a time to the splits in turn from the first.
 * @example tpu.utils.data.randomSplit([...Array(11).keys()], [0.7, 0.2, 0.1]).map((s) => s.length) // [8, 2, 1]
 */
export function randomSplit<T>(dataset: DatasetLike<T>, lengths: readonly number[]): Subset<T>[] {
  const n = datasetLength('randomSplit', 'dataset', datasetArg('randomSplit', 'dataset', dataset));
  const sizes = splitLengths(n, lengths);
  const order = permutation(n);
  let offset = 0;
  return sizes.map((size) => new Subset(dataset, order.slice(offset, (offset += size))));
}

/** The split sizes of n items: lengths as given, or fractions rounded as PyTorch's. */
export function splitLengths(n: number, lengths: readonly number[]): number[] {
  if (!Array.isArray(lengths) || lengths.length === 0 || lengths.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    throw new TypeError(`randomSplit: lengths must be a non-empty array of numbers; got ${JSON.stringify(lengths) ?? String(lengths)}`);
  }
  const total = lengths.reduce((a, b) => a + b, 0);
  // PyTorch's test: fractions when the sum is 1 up to math.isclose's 1e-9 and not above it
  if (Math.abs(total - 1) <= 1e-9 && total <= 1) {
    const sizes = lengths.map((f, i) => {
      if (f < 0 || f > 1) throw new RangeError(`randomSplit: fraction at index ${i} must be between 0 and 1; got ${f}`);
      return Math.floor(n * f);
    });
    const remainder = n - sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < remainder; i++) sizes[i % sizes.length]! += 1;
    return sizes;
  }
  lengths.forEach((v, i) => {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`randomSplit: lengths[${i}] must be a non-negative integer (or all lengths fractions summing to 1); got ${v}`);
  });
  if (total !== n) throw new RangeError(`randomSplit: lengths must sum to the dataset's length ${n} (or be fractions summing to 1); got ${JSON.stringify(lengths)}, sum ${total}`);
  return [...lengths];
}
