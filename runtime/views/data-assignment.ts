// `w.data = v`, PyTorch's way to set a parameter's values outside autograd (init code, loading
// weights by hand). Without it the assignment replaced the tensor's data() method and left
// its values as they were: a model that silently kept its random weights.
// v of another dtype gives w that dtype, as in PyTorch, converted in place (convert-in-place.ts,
// as Module.to does): modules and optimizers holding w hold it with the new dtype; its .grad and
// an optimizer's state keep theirs, as PyTorch's do (optimizer.ts refuses the states lerp_ would).
import { Tensor, setDataAssigner } from '../tensor.js';
import { formatShape, shapesEqual } from '../shape.js';
import { isFloating } from '../dtype.js';
import { noGrad } from '../autograd/grad-mode.js';
import { describeValue } from '../distributed/describe-value.js';
import { convertInPlace } from './convert-in-place.js';
import './inplace-ops.js';

const WHO = 'x.data = v';

function assignData(target: Tensor, value: unknown): void {
  const expected = `a tensor of shape ${formatShape(target.shape)}`;
  if (!(value instanceof Tensor)) throw new TypeError(`${WHO}: v must be ${expected}; got ${describeValue(value)}`);
  // PyTorch lets .data change x's shape too: here the shape is part of x's identity (views, programs)
  if (!shapesEqual(value.shape, target.shape)) {
    throw new TypeError(`${WHO}: v must be ${expected}, as x is; got ${value.describe()} (make a new tensor to change the shape)`);
  }
  if (value.dtype !== target.dtype) {
    if (target.requiresGrad && !isFloating(value.dtype)) {
      throw new TypeError(`${WHO}: x requires grad, so v must be of a floating-point dtype (float32, bfloat16), as in PyTorch; got ${value.describe()}`);
    }
    convertInPlace(WHO, target, value.dtype, target.chip);
  }
  noGrad(() => target.copy_(value));
}

setDataAssigner(assignData);
