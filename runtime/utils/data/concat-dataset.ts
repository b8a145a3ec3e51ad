// torch.utils.data.ConcatDataset: datasets one after another.
import { checkIndex, datasetArg, datasetLength, Dataset, type DatasetLike, type Source } from './dataset.js';

/**
 * The items of several datasets in turn (torch.utils.data.ConcatDataset).
 * @example new tpu.utils.data.ConcatDataset([[1, 2], [3]]).getItem(2) // 3
 */
export class ConcatDataset<T = unknown> extends Dataset<T> {
  readonly datasets: readonly DatasetLike<T>[];
  /** Items before the end of each dataset (PyTorch's cumulative_sizes). */
  readonly cumulativeSizes: readonly number[];
  private readonly sources: readonly Source<T>[];

  constructor(datasets: readonly DatasetLike<T>[]) {
    super();
    if (!Array.isArray(datasets) || datasets.length === 0) throw new TypeError(`ConcatDataset: datasets must be a non-empty array of datasets; got ${Array.isArray(datasets) ? 'an empty array' : typeof datasets}`);
    this.sources = datasets.map((d, i) => datasetArg('ConcatDataset', `datasets[${i}]`, d));
    let total = 0;
    this.cumulativeSizes = this.sources.map((s, i) => (total += datasetLength('ConcatDataset', `datasets[${i}]`, s)));
    this.datasets = datasets;
  }

  get length(): number {
    return this.cumulativeSizes[this.cumulativeSizes.length - 1]!;
  }

  getItem(index: number): T {
    const i = checkIndex('ConcatDataset.getItem', index, this.length);
    // the first dataset whose end lies past i (binary search: many small datasets are common)
    let lo = 0;
    let hi = this.cumulativeSizes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulativeSizes[mid]! > i) hi = mid;
      else lo = mid + 1;
    }
    return this.sources[lo]!.getItem(i - (lo === 0 ? 0 : this.cumulativeSizes[lo - 1]!));
  }
}
