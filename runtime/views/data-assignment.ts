// `w.data = v`, PyTorch's way to set a parameter's values outside autograd (init code, loading
// weights by hand). Without it the assignment replaced the tensor's data() method and left
// its values as they were: a model that silently kept its random weights.
import { Tensor, setDataAssigner } from '../tensor.js';
import { formatShape, shapesEqual } from '../shape.js';
import { noGrad } from '../autograd/grad-mode.js';
import { describeValue } from '../distributed/describe-value.js';
import './inplace-ops.js';

function assignData(target: Tensor, value: unknown): void {
  const expected = `a tensor of shape ${formatShape(target.shape)} and dtype ${target.dtype}`;
  if (!(value instanceof Tensor)) throw new TypeError(`x.data = v: v must be ${expected}; got ${describeValue(value)}`);
  // PyTorch lets .data change x's shape and dtype: here they are part of x's identity (views, programs)
  if (!shapesEqual(value.shape, target.shape) || value.dtype !== target.dtype) {
    throw new TypeError(`x.data = v: v must be ${expected}, as x is; got ${value.describe()} (make a new tensor to change the shape or dtype)`);
  }
  noGrad(() => target.copy_(value));
}

setDataAssigner(assignData);
