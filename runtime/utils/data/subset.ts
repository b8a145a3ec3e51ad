// torch.utils.data.Subset: the items of a dataset at given indices.
import type { Collated } from './default-collate.js';
import { batchOf, checkIndex, datasetArg, datasetLength, Dataset, type DatasetLike, type Source } from './dataset.js';

/**
 * The items of dataset at indices, in that order (torch.utils.data.Subset).
 * @example new tpu.utils.data.Subset([10, 20, 30], [2, 0]).getItem(0) // 30
 */
export class Subset<T = unknown> extends Dataset<T> {
  readonly dataset: DatasetLike<T>;
  readonly indices: readonly number[];
  private readonly source: Source<T>;

  constructor(dataset: DatasetLike<T>, indices: readonly number[]) {
    super();
    this.source = datasetArg('Subset', 'dataset', dataset);
    if (!Array.isArray(indices)) throw new TypeError(`Subset: indices must be an array of integers; got ${typeof indices}`);
    const n = datasetLength('Subset', 'dataset', this.source);
    this.indices = indices.map((i, k) => checkIndex(`Subset: indices[${k}]`, i, n));
    this.dataset = dataset;
  }

  get length(): number {
    return this.indices.length;
  }

  getItem(index: number): T {
    return this.source.getItem(this.indices[checkIndex('Subset.getItem', index, this.indices.length)]!);
  }

  /** The dataset's own batch of the mapped indices (a Subset of a TensorDataset gathers with indexSelect too). */
  override getBatch(indices: readonly number[]): Collated<T> {
    return batchOf(this.source, indices.map((i) => this.indices[checkIndex('Subset.getBatch', i, this.indices.length)]!));
  }
}
