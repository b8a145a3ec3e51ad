// .to(dtype): float -> int truncates toward zero, to bfloat16 rounds to nearest even,
// anything -> bool is "non-zero". PyTorch's cast methods (x.float(), x.long(), ...) are .to;
// those whose dtype this runtime (TPU dtypes) lacks, x.half() and x.double(), are errors.
import { DTYPES, isFloating, type DType } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import type { BoolTensor } from '../bool-tensor.js';
import { defineOp } from './op.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { toArguments, type Device } from '../device-argument.js';

export const cast = defineOp<{ dtype: DType }>({
  name: 'cast',
  infer: ([x], { dtype }) => ({ shape: x!.shape, dtype }),
  grad: (g, [x]) => {
    const from = (x as Tensor).dtype;
    return [isFloating(from) && isFloating(g.dtype) ? g.to(from) : null];
  },
  gradReads: 'none',
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * A copy in another dtype, or on another chip, or both (torch.Tensor.to): a dtype, a device
     * ('tpu:1', as x.device reads; PyTorch/XLA's 'xla:1'), both by position or as options, or
     * another tensor's dtype and chip. Itself when nothing changes, as PyTorch's.
     * @example x.to('bfloat16')
     * @example x.to(x.device) === x // true
     */
    to(dtype: 'bool' | { dtype: 'bool'; device?: Device }): BoolTensor;
    to(device: Device, dtype: 'bool'): BoolTensor;
    to(dtype: DType | Device | { dtype?: DType; device?: Device }): Tensor;
    to(device: Device, dtype: DType): Tensor;
    to(other: Tensor): Tensor;
    /**
     * A copy in other's dtype (torch.Tensor.type_as).
     * @example tpu.tensor([1.5, -2.5]).typeAs(tpu.tensor(new Int32Array([1]))) // [1, -2] int32
     */
    typeAs(other: Tensor): Tensor;
    /**
     * x.to('float32') (torch.Tensor.float).
     * @example tpu.tensor(new Int32Array([1, 2])).float().dtype // 'float32'
     */
    float(): Tensor;
    /**
     * x.to('bfloat16') (torch.Tensor.bfloat16).
     * @example x.bfloat16()
     */
    bfloat16(): Tensor;
    /**
     * x.to('int32'), truncating toward zero (torch.Tensor.int).
     * @example tpu.tensor([1.7, -1.7]).int() // [1, -1]
     */
    int(): Tensor;
    /**
     * x.to('int64'), truncating toward zero (torch.Tensor.long).
     * @example tpu.tensor([2.5]).long().dtype // 'int64'
     */
    long(): Tensor;
    /**
     * x.to('bool'): true where non-zero (torch.Tensor.bool).
     * @example tpu.tensor([0, 2]).bool() // [false, true]
     */
    bool(): BoolTensor;
    /**
     * float16 is not a dtype here: throws, naming the dtypes there are (bfloat16 is the TPU's 16-bit float).
     * @example try { x.half(); } catch (e) { console.log((e as Error).message); }
     */
    half(): never;
    /**
     * float64 is not a dtype here: throws, naming the dtypes there are (TPUs compute in float32).
     * @example try { x.double(); } catch (e) { console.log((e as Error).message); }
     */
    double(): never;
  }
}
installMethods({
  to: function (this: Tensor, target: unknown, second?: unknown) {
    // x.to(other): other's dtype and chip, as PyTorch's
    const { dtype, chip } = target instanceof Tensor ? { dtype: target.dtype, chip: target.chip } : toArguments('to', target, second);
    const cast_ = dtype === undefined || dtype === this.dtype ? this : apply(cast, [this], { dtype });
    // toChip is installed by distributed/to-chip.ts (a method: that module imports ops that import this one)
    return chip === undefined || chip === cast_.chip ? cast_ : cast_.toChip(chip);
  } as Tensor['to'],
  typeAs(other) { return this.to(tensorArg('typeAs', 'other', other).dtype); },
  float() { return this.to('float32'); },
  bfloat16() { return this.to('bfloat16'); },
  int() { return this.to('int32'); },
  long() { return this.to('int64'); },
  bool() { return this.to('bool'); },
  half() { return missingDType('half', 'float16', "x.bfloat16() (the TPU's 16-bit float)"); },
  double() { return missingDType('double', 'float64', "x.float() (TPUs compute in float32)"); },
});

function missingDType(method: string, dtype: string, instead: string): never {
  throw new TypeError(`${method}: ${dtype} is not a dtype of this runtime (it has ${DTYPES.join(', ')}); use ${instead}`);
}
