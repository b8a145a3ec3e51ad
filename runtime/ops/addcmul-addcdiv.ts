// addcmul and addcdiv: input + value·t1·t2 and input + value·t1/t2 (torch's, the update step of
// Adam-like optimizers written by hand), composed, in the order of PyTorch's CPU kernel
// ((value·t1)·t2 or (value·t1)/t2, then + input); all three broadcast, the result in their
// promoted dtype; bfloat16 computed in float32 and rounded once. In place: views/inplace-ops.ts.
import { isFloating, promoteTypes } from '../dtype.js';
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { composite } from '../modes/composite.js';
import { specialized } from '../jit/live-number.js';
import { tensorArg } from './tensor-arg.js';

export interface ValueOption {
  /** The multiplier of the product or quotient (default 1; PyTorch's value=). */
  value?: number;
}

function combined(op: 'addcmul' | 'addcdiv', input: Tensor, tensor1: Tensor, tensor2: Tensor, options: ValueOption | undefined): Tensor {
  tensorArg(op, 'input', input);
  tensorArg(op, 'tensor1', tensor1);
  tensorArg(op, 'tensor2', tensor2);
  const value = specialized(readOptions<ValueOption>(op, options, ['value']).value ?? 1);
  if (typeof value !== 'number' || Number.isNaN(value)) throw new TypeError(`${op}: value must be a number; got ${JSON.stringify(value)}`);
  const dtype = promoteTypes(promoteTypes(input.dtype, tensor1.dtype), tensor2.dtype);
  if (op === 'addcdiv' && !isFloating(tensor1.dtype) && !isFloating(tensor2.dtype)) {
    throw new TypeError(`addcdiv: tensor1 and tensor2 must not both be integer (${tensor1.dtype} and ${tensor2.dtype}): integer division with addcdiv is not supported, as in PyTorch; cast one with .to('float32')`);
  }
  if (!isFloating(dtype) && !Number.isInteger(value)) throw new TypeError(`${op}: value must be an integer for ${dtype} tensors, as in PyTorch; got ${value}`);
  const wide = dtype === 'bfloat16' ? 'float32' : dtype;
  return composite(op, () => {
    const scaled = value === 1 ? tensor1.to(wide) : tensor1.to(wide).mul(value);
    const term = op === 'addcmul' ? scaled.mul(tensor2.to(wide)) : scaled.div(tensor2.to(wide));
    const sum = input.to(wide).add(term);
    return sum.dtype === dtype ? sum : sum.to(dtype);
  });
}

/**
 * input + value·tensor1·tensor2, all broadcast (torch.addcmul; value 1).
 * @example tpu.addcmul(tpu.tensor([1, 1]), tpu.tensor([2, 3]), tpu.tensor([4, 5]), { value: 0.5 }) // [5, 8.5]
 */
export function addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor {
  return combined('addcmul', input, tensor1, tensor2, options);
}

/**
 * input + value·tensor1/tensor2, all broadcast (torch.addcdiv; value 1).
 * @example tpu.addcdiv(tpu.tensor([1, 1]), tpu.tensor([2, 3]), tpu.tensor([4, 6]), { value: 2 }) // [2, 2]
 */
export function addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor {
  return combined('addcdiv', input, tensor1, tensor2, options);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x + value·tensor1·tensor2 (torch.addcmul; value 1).
     * @example tpu.tensor([1]).addcmul(tpu.tensor([2]), tpu.tensor([3]), { value: 2 }) // [13]
     */
    addcmul(tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor;
    /**
     * x + value·tensor1/tensor2 (torch.addcdiv; value 1).
     * @example tpu.tensor([1]).addcdiv(tpu.tensor([3]), tpu.tensor([2])) // [2.5]
     */
    addcdiv(tensor1: Tensor, tensor2: Tensor, options?: ValueOption): Tensor;
  }
}
installMethods({
  addcmul(tensor1, tensor2, options) { return addcmul(this, tensor1, tensor2, options); },
  addcdiv(tensor1, tensor2, options) { return addcdiv(this, tensor1, tensor2, options); },
});
