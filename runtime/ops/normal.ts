// tpu.normal: samples of N(mean, std²) from the tpu.manualSeed generator (torch.normal), in its
// two forms: numbers and a size (the values made on the host, as randn's), or tensors (a
// standard normal sample scaled and shifted on the device, so gradients reach mean and std).
import { isFloating, promoteTypes, type DType } from '../dtype.js';
import { broadcastShapes, checkShape, numel } from '../shape.js';
import { Tensor } from '../tensor.js';
import { normal as standardNormal } from '../random.js';
import { randn } from '../creation.js';
import { upload } from '../upload.js';
import { creationOptions, type CreationOptions } from '../creation-options.js';
import { describeValue } from '../distributed/describe-value.js';
import { where } from './where.js';
import { specialized } from '../jit/live-number.js';

function checkStd(std: number): void {
  if (typeof std !== 'number' || !(std >= 0)) throw new RangeError(`tpu.normal: std must be a number >= 0, as in PyTorch; got ${JSON.stringify(std)}`);
}

/**
 * Samples of N(mean, std²) (torch.normal): tpu.normal(mean, std, size, options) with numbers, or
 * tpu.normal(mean, std) with a tensor for either (the result their broadcast shape; a negative
 * std element gives NaN there, where PyTorch raises).
 * @example tpu.normal(3, 0, [2]) // [3, 3]
 * @example tpu.normal(tpu.zeros([2, 2]), 1).shape // [2, 2]
 */
export function normal(mean: number, std: number, size: readonly number[], opts?: CreationOptions): Tensor;
export function normal(mean: Tensor | number, std: Tensor | number): Tensor;
export function normal(mean: Tensor | number, std: Tensor | number, size?: readonly number[], opts?: CreationOptions): Tensor {
  // a tpu.compile number argument: its value, the trace specialized on it (std is checked)
  mean = specialized(mean);
  std = specialized(std);
  if (typeof mean === 'number' && typeof std === 'number') {
    if (!Number.isFinite(mean)) throw new TypeError(`tpu.normal: mean must be a finite number or a tensor; got ${JSON.stringify(mean)}`);
    checkStd(std);
    if (size === undefined) throw new TypeError('tpu.normal: with a number mean and std, give the size: tpu.normal(mean, std, [2, 3])');
    const shape = checkShape('tpu.normal', size, 'size');
    const o = creationOptions('tpu.normal', opts);
    const dtype = o.dtype ?? 'float32';
    if (!isFloating(dtype)) throw new TypeError(`tpu.normal: dtype must be float32 or bfloat16; got ${dtype}`);
    return upload('normal', () => standardNormal(numel(shape)).map((z) => mean + std * z), shape, dtype, o.chip);
  }
  for (const [name, v] of [['mean', mean], ['std', std]] as const) {
    if (!(v instanceof Tensor) && typeof v !== 'number') throw new TypeError(`tpu.normal: ${name} must be a tensor or a number; got ${describeValue(v)}`);
    if (v instanceof Tensor && !isFloating(v.dtype)) throw new TypeError(`tpu.normal: ${name} must be a floating-point tensor, as in PyTorch; got ${v.dtype}`);
  }
  if (size !== undefined || opts !== undefined) throw new TypeError('tpu.normal: size and options go with a number mean and std only; a tensor mean or std gives its own shape');
  if (typeof std === 'number') checkStd(std);
  const tensors = [mean, std].filter((v): v is Tensor => v instanceof Tensor);
  const shape = tensors.length === 2 ? broadcastShapes('tpu.normal', tensors[0]!.shape, tensors[1]!.shape, ['mean', 'std']) : tensors[0]!.shape;
  const dtype = tensors.map((t) => t.dtype).reduce<DType>((a, b) => promoteTypes(a, b), tensors[0]!.dtype);
  const sample = randn([...shape], { dtype, chip: tensors[0]!.chip }).mul(std).add(mean);
  return std instanceof Tensor ? where(std.lt(0), NaN, sample) : sample;
}
