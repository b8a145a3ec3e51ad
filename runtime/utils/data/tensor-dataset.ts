// torch.utils.data.TensorDataset: item i is row i of each tensor. A batch is gathered with
// one indexSelect per tensor: one op per batch, not one slice per row plus a stack.
import { Tensor } from '../../tensor.js';
import { tensor } from '../../creation.js';
import { indexSelect } from '../../ops/index.js';
import { formatShape } from '../../shape.js';
import { checkIndex, Dataset } from './dataset.js';
import type { Collated } from './default-collate.js';

/**
 * Tensors of one first dim, item i their rows i (torch.utils.data.TensorDataset).
 * @example new tpu.utils.data.TensorDataset(tpu.zeros([6, 784]), tpu.arange(6)).getItem(-1)[1] // 5
 */
export class TensorDataset<T extends Tensor[] = Tensor[]> extends Dataset<T> {
  readonly tensors: Readonly<T>;

  constructor(...tensors: T) {
    super();
    if (tensors.length === 0) throw new TypeError('TensorDataset: needs at least one tensor; got none');
    tensors.forEach((t, i) => {
      if (!(t instanceof Tensor)) throw new TypeError(`TensorDataset: argument ${i} must be a tensor; got ${t === null ? 'null' : Array.isArray(t) ? 'an array' : typeof t}`);
      if (t.ndim === 0) throw new RangeError(`TensorDataset: tensor ${i} must have a first dim to index; got a 0-d tensor`);
      if (t.shape[0] !== tensors[0]!.shape[0]) {
        throw new RangeError(`TensorDataset: every tensor needs the same size of dim 0; tensor ${i} has shape ${formatShape(t.shape)} but tensor 0 has ${formatShape(tensors[0]!.shape)}`);
      }
    });
    this.tensors = tensors;
  }

  get length(): number {
    return this.tensors[0]!.shape[0]!;
  }

  getItem(index: number): T {
    const i = checkIndex('TensorDataset.getItem', index, this.length);
    return this.tensors.map((t) => t.select(0, i)) as T;
  }

  /** Rows at these indices: one indexSelect per tensor (the index tensor is freed once used). */
  override getBatch(indices: readonly number[]): Collated<T> {
    const n = this.length;
    const index = tensor(Int32Array.from(indices, (i) => checkIndex('TensorDataset.getBatch', i, n)));
    try {
      return this.tensors.map((t) => indexSelect(t, 0, index)) as Collated<T>;
    } finally {
      index.dispose();
    }
  }
}
