// prelu: leakyRelu with a learned slope, one for all channels or one per channel (dim 1), as
// torch.nn.functional.prelu. Composed, so x's and the slope's gradients come from `where`:
// at 0 the slope's side, as PyTorch's kernel (x > 0 ? x : w·x).
import { formatShape } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { where } from '../where.js';
import { tensorArg } from '../tensor-arg.js';

/**
 * x for x > 0, weight·x otherwise (torch.nn.functional.prelu); weight has 1 element or one per
 * channel (dim 1 of x), and x's dtype.
 * @example tpu.nn.functional.prelu(x, tpu.tensor([0.25]))
 */
export function prelu(x: Tensor, weight: Tensor): Tensor {
  tensorArg('prelu', 'input', x);
  tensorArg('prelu', 'weight', weight);
  if (weight.ndim > 1) throw new RangeError(`prelu: weight must be a scalar or 1-D tensor; got ${formatShape(weight.shape)}`);
  if (weight.dtype !== x.dtype) throw new TypeError(`prelu: weight must have the input's dtype ${x.dtype}; got ${weight.dtype}`);
  const channels = x.ndim > 1 ? x.shape[1]! : 1;
  if (weight.numel() !== 1 && (x.ndim === 0 || weight.numel() !== channels)) {
    throw new RangeError(`prelu: weight must have 1 element or one per channel (dim 1 of input ${formatShape(x.shape)}: ${channels}); got ${weight.numel()}`);
  }
  return composite('prelu', () => {
    // one slope per channel lines up with dim 1: [C] -> [C, 1, ..., 1]
    const slope = x.ndim >= 2 ? weight.reshape([weight.numel(), ...new Array(x.ndim - 2).fill(1)]) : weight.reshape([]);
    return where(x.gt(0), x, slope.mul(x));
  });
}
