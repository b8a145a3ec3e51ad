// The (values, indices) pair of max(dim), min(dim), sort and topk, as PyTorch's named tuple:
// `const { values, indices } = x.max(1)`, `const [values, indices] = x.max(1)` and `r[0]`
// all work. Its tensor parts make tpu.scope keep both when it is returned, and tpu.compile
// rebuild it on a replay (tensor-parts.ts). A DTensor's max(dim) gives a pair of DTensors.
import type { Tensor } from '../tensor.js';
import { TENSOR_PARTS, tensorPartsOf, type TensorParts } from '../tensor-parts.js';

export class ValuesIndices<T = Tensor> implements Iterable<T> {
  constructor(readonly values: T, readonly indices: T) {}

  /** values, as PyTorch's result[0]. */
  get 0(): T {
    return this.values;
  }

  /** indices, as PyTorch's result[1]. */
  get 1(): T {
    return this.indices;
  }

  get length(): 2 {
    return 2;
  }

  *[Symbol.iterator](): Iterator<T> {
    yield this.values;
    yield this.indices;
  }

  [TENSOR_PARTS](): TensorParts {
    const parts = tensorPartsOf(this.values);
    if (parts === null) {
      return { tensors: [this.values as Tensor, this.indices as Tensor], key: 'ValuesIndices', rebuild: ([v, i]) => new ValuesIndices(v!, i!) };
    }
    // a pair of DTensors: both one's pieces
    const other = tensorPartsOf(this.indices)!;
    const n = parts.tensors.length;
    return {
      tensors: [...parts.tensors, ...other.tensors],
      key: `ValuesIndices(${parts.key}, ${other.key})`,
      rebuild: (ts) => new ValuesIndices(parts.rebuild(ts.slice(0, n)), other.rebuild(ts.slice(n))),
    };
  }
}
