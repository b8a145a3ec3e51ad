// torch.utils.data.DataLoader: batches of a map-style dataset, in order or shuffled afresh
// each epoch from the tpu.manualSeed generator. Single process: the items are read on the
// main thread as the loop asks for them (PyTorch's num_workers=0).
import { readOptions } from '../../options.js';
import { permutation } from '../../random.js';
import type { Collated } from './default-collate.js';
import { batchOf, datasetArg, datasetLength, type DatasetLike, type Source } from './dataset.js';

export interface DataLoaderOptions<T, B> {
  /** Items per batch (PyTorch's batch_size), 1 by default. */
  batchSize?: number;
  /** A new random order every epoch (every for..of), from tpu.manualSeed's generator. */
  shuffle?: boolean;
  /** Leaves out the last batch when it is short. */
  dropLast?: boolean;
  /** Makes a batch of the list of items (PyTorch's collate_fn); defaultCollate by default. */
  collateFn?: (items: T[]) => B;
}

const OPTIONS = ['batchSize', 'shuffle', 'dropLast', 'collateFn'] as const;

/**
 * Batches of a dataset for `for (const [xb, yb] of loader)` (torch.utils.data.DataLoader).
 * Without a collateFn a batch is the dataset's getBatch (a TensorDataset: one indexSelect per
 * tensor), else defaultCollate of its items. `loader.length` is the number of batches.
 * @example
 * const loader = new tpu.utils.data.DataLoader(new tpu.utils.data.TensorDataset(x, y), { batchSize: 2, shuffle: true });
 * for (const [xb, yb] of loader) xb.sub(yb).abs().sum();
 * loader.length // 2
 */
export class DataLoader<T = unknown, B = Collated<T>> implements Iterable<B> {
  readonly dataset: DatasetLike<T>;
  readonly batchSize: number;
  readonly shuffle: boolean;
  readonly dropLast: boolean;
  readonly collateFn: ((items: T[]) => B) | undefined;
  private readonly source: Source<T>;

  constructor(dataset: DatasetLike<T>, options?: DataLoaderOptions<T, B>) {
    this.source = datasetArg('DataLoader', 'dataset', dataset);
    const o = readOptions<DataLoaderOptions<T, B>>('DataLoader', options, OPTIONS);
    const batchSize = o.batchSize ?? 1;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`DataLoader: batchSize must be a positive integer; got ${JSON.stringify(batchSize) ?? String(batchSize)}`);
    for (const key of ['shuffle', 'dropLast'] as const) {
      if (o[key] !== undefined && typeof o[key] !== 'boolean') throw new TypeError(`DataLoader: ${key} must be a boolean; got ${JSON.stringify(o[key])}`);
    }
    if (o.collateFn !== undefined && typeof o.collateFn !== 'function') throw new TypeError(`DataLoader: collateFn must be a function; got ${typeof o.collateFn}`);
    this.dataset = dataset;
    this.batchSize = batchSize;
    this.shuffle = o.shuffle ?? false;
    this.dropLast = o.dropLast ?? false;
    this.collateFn = o.collateFn;
  }

  /** Batches per epoch (PyTorch's len(loader)): the short last one counts unless dropLast. */
  get length(): number {
    const n = datasetLength('DataLoader', 'dataset', this.source);
    return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
  }

  /** One epoch: the order is drawn when the loop starts (a shuffled loader draws a new one each time). */
  *[Symbol.iterator](): Iterator<B> {
    const n = datasetLength('DataLoader', 'dataset', this.source);
    const order = this.shuffle ? permutation(n) : Array.from({ length: n }, (_, i) => i);
    const batches = this.length;
    for (let b = 0; b < batches; b++) {
      const indices = order.slice(b * this.batchSize, (b + 1) * this.batchSize);
      yield this.collateFn ? this.collateFn(indices.map((i) => this.source.getItem(i))) : (batchOf(this.source, indices) as B);
    }
  }
}
