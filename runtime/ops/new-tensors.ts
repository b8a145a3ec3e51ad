// x.newZeros(2, 3), x.newFull([2], 7), x.newTensor(data): PyTorch's Tensor.new_* methods, which
// make a tensor of x's dtype on x's chip unless the options say otherwise (code that makes
// buffers "like the input" without knowing its dtype).
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import * as creation from '../creation.js';
import { withRequiresGrad } from '../autograd/creation.js';
import { readOptions } from '../options.js';
import { intArgsWithOptions } from '../shape-args.js';
import { CREATION_KEYS, type CreationOptions } from '../creation-options.js';

const make = withRequiresGrad({ zeros: creation.zeros, ones: creation.ones, empty: creation.empty, full: creation.full, tensor: creation.tensor });

/** The options of x.`method`(...): x's dtype and chip, then what the call gives (checked under the method's name). */
function ownOptions(x: Tensor, method: string, options: unknown): CreationOptions {
  const given = readOptions<CreationOptions>(`x.${method}`, options, CREATION_KEYS);
  return { dtype: x.dtype, ...(given.device === undefined ? { chip: x.chip } : {}), ...given };
}

function filledNew(x: Tensor, method: 'newZeros' | 'newOnes' | 'newEmpty', args: readonly unknown[]): Tensor {
  const { ints, options } = intArgsWithOptions(`x.${method}`, args, 'size', 0);
  const create = method === 'newZeros' ? make.zeros : method === 'newOnes' ? make.ones : make.empty;
  return create([...ints], ownOptions(x, method, options));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Zeros of x's dtype on x's chip (torch.Tensor.new_zeros): the size as integers or one array, then options.
     * @example tpu.tensor(new Int32Array([1])).newZeros(2, 3).dtype // 'int32'
     */
    newZeros(size: readonly number[], options?: CreationOptions): Tensor;
    newZeros(...size: number[] | [...number[], CreationOptions]): Tensor;
    /**
     * Ones of x's dtype on x's chip (torch.Tensor.new_ones).
     * @example x.newOnes([2])
     */
    newOnes(size: readonly number[], options?: CreationOptions): Tensor;
    newOnes(...size: number[] | [...number[], CreationOptions]): Tensor;
    /**
     * A tensor of x's dtype on x's chip whose values are to be written before read (torch.Tensor.new_empty; zeros here).
     * @example x.newEmpty([2]).fill_(1)
     */
    newEmpty(size: readonly number[], options?: CreationOptions): Tensor;
    newEmpty(...size: number[] | [...number[], CreationOptions]): Tensor;
    /**
     * `value` everywhere, x's dtype on x's chip (torch.Tensor.new_full).
     * @example tpu.tensor(new Int32Array([1])).newFull([2], 7) // [7, 7] int32
     */
    newFull(size: readonly number[], value: number | boolean, options?: CreationOptions): Tensor;
    /**
     * `data` as a tensor of x's dtype on x's chip (torch.Tensor.new_tensor).
     * @example tpu.tensor(new Int32Array([1])).newTensor([3, 4]).dtype // 'int32'
     */
    newTensor(data: Parameters<typeof creation.tensor>[0], options?: CreationOptions): Tensor;
  }
}
installMethods({
  newZeros(...args: unknown[]) { return filledNew(this, 'newZeros', args); },
  newOnes(...args: unknown[]) { return filledNew(this, 'newOnes', args); },
  newEmpty(...args: unknown[]) { return filledNew(this, 'newEmpty', args); },
  newFull(size, value, options) { return make.full(size, value, ownOptions(this, 'newFull', options)); },
  newTensor(data, options) { return make.tensor(data, ownOptions(this, 'newTensor', options)); },
} as Partial<Tensor> & ThisType<Tensor>);
