// The (values, indices) pair of max(dim), min(dim), sort and topk, as PyTorch's named tuple:
// `const { values, indices } = x.max(1)`, `const [values, indices] = x.max(1)` and `r[0]`
// all work. Its tensor parts make tpu.scope keep both when it is returned, and tpu.compile
// rebuild it on a replay (tensor-parts.ts).
import type { Tensor } from '../tensor.js';
import { TENSOR_PARTS, type TensorParts } from '../tensor-parts.js';

export class ValuesIndices implements Iterable<Tensor> {
  constructor(readonly values: Tensor, readonly indices: Tensor) {}

  /** values, as PyTorch's result[0]. */
  get 0(): Tensor {
    return this.values;
  }

  /** indices, as PyTorch's result[1]. */
  get 1(): Tensor {
    return this.indices;
  }

  get length(): 2 {
    return 2;
  }

  *[Symbol.iterator](): Iterator<Tensor> {
    yield this.values;
    yield this.indices;
  }

  [TENSOR_PARTS](): TensorParts {
    return { tensors: [this.values, this.indices], key: 'ValuesIndices', rebuild: ([v, i]) => new ValuesIndices(v!, i!) };
  }
}

