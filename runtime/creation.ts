// Creating tensors: values made on the host, uploaded once (a counted transfer).
import { assertDType, checkInt32, INDEX_DTYPE, toInt64, type DType } from './dtype.js';
import { isOptions } from './options.js';
import { creationOptions, type BoolCreationOptions, type CreationOptions, type NumberCreationOptions } from './creation-options.js';
import { checkShape, numel } from './shape.js';
import { intArgsWithOptions } from './shape-args.js';
import { normal, uniform } from './random.js';
import { Tensor } from './tensor.js';
import type { BoolTensor } from './bool-tensor.js';
import { upload } from './upload.js';
import { specialized } from './jit/live-number.js';

/** Nested arrays as tpu.tensor takes them: BigInt elements (int64) besides numbers and booleans. */
type NestedInput = number | boolean | bigint | NestedInput[];
type TensorData = NestedInput | Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array;
/** Nested numbers alone (`[]` too): a tensor of numbers. */
type NestedNumbers = number | bigint | NestedNumbers[];
/** Nested booleans alone: tpu.tensor makes a bool tensor of them (of `[]` alone, float32). */
type NestedBooleans = boolean | NestedBooleans[];

/**
 * tpu.tensor(data): nested arrays, a typed array or a scalar. Numbers are float32 (JS cannot
 * tell 1.0 from 1, as in torch.Tensor and tf.js) unless a dtype or an Int32Array says
 * otherwise; booleans alone are bool; a BigInt64Array or BigInt elements make int64.
  * @example
  * tpu.tensor([[1, 2], [3, 4]]).dtype // 'float32'
  * tpu.tensor(new Int32Array([1, 2])).dtype // 'int32'
  * tpu.tensor([true, false]).dtype // 'bool'
 */
export function tensor(data: NestedNumbers | Float32Array | Float64Array | Int32Array | BigInt64Array, opts?: NumberCreationOptions): Tensor;
export function tensor(data: TensorData, opts: BoolCreationOptions): BoolTensor;
export function tensor(data: NestedBooleans | Uint8Array, opts?: CreationOptions & { dtype?: 'bool' }): BoolTensor;
export function tensor(data: TensorData, opts?: CreationOptions): Tensor;
export function tensor(data: TensorData, opts?: CreationOptions): Tensor {
  const o = creationOptions('tpu.tensor', opts);
  if (ArrayBuffer.isView(data)) {
    const inferred: DType = data instanceof Int32Array ? 'int32' : data instanceof BigInt64Array ? 'int64' : data instanceof Uint8Array ? 'bool' : 'float32';
    if (inferred === 'bool' && o.dtype === undefined) checkTruthBytes(data as Uint8Array);
    return upload('tensor', () => data as ArrayLike<number> | BigInt64Array, [data.length], o.dtype ?? inferred, o.chip);
  }
  const { shape, flat, numbers, bigints } = flatten(data);
  if (bigints) {
    const dtype = o.dtype ?? 'int64';
    if (dtype !== 'int64') throw new TypeError(`tpu.tensor: data holds BigInt values, which make int64 tensors; got dtype '${dtype}' (convert after: .to('${dtype}'))`);
    return upload('tensor', () => BigInt64Array.from(flat, (v, i) => (typeof v === 'bigint' ? BigInt.asIntN(64, v) === v ? v : outOfInt64(v, i) : toInt64('tpu.tensor', `value at index ${i}:`, v))), shape, dtype, o.chip);
  }
  return upload('tensor', () => flat as number[], shape, o.dtype ?? (numbers || flat.length === 0 ? 'float32' : 'bool'), o.chip);
}

/**
 * A Uint8Array makes a bool tensor (bool tensors' own storage, so x.array() goes back and forth),
 * which would turn bytes such as pixels into 0/1: any other value asks for a dtype instead.
 */
function checkTruthBytes(data: Uint8Array): void {
  const i = data.findIndex((v) => v > 1);
  if (i < 0) return;
  throw new TypeError(`tpu.tensor: a Uint8Array makes a bool tensor (values 0 and 1), but it holds ${data[i]} at index ${i}: for bytes such as pixels give a dtype, tpu.tensor(bytes, { dtype: 'float32' }) or 'int32' (torch.tensor keeps uint8 values), or pass a Uint8ClampedArray`);
}

function outOfInt64(v: bigint, i: number): never {
  throw new RangeError(`tpu.tensor: value at index ${i}: ${v} does not fit in int64 (range -2^63 to 2^63-1)`);
}

/** Nested arrays to a shape and row-major values; ragged arrays and holes are errors. */
function flatten(data: NestedInput): { shape: number[]; flat: (number | bigint)[]; numbers: boolean; bigints: boolean } {
  const shape: number[] = [];
  const flat: (number | bigint)[] = [];
  let numbers = false;
  let bigints = false;
  let leafDepth = -1;
  const ragged = (path: string, what: string) => new RangeError(`tpu.tensor: ragged nested array: data${path} ${what}`);
  const walk = (v: unknown, dim: number, path: string): void => {
    if (Array.isArray(v)) {
      if (leafDepth >= 0 && dim >= leafDepth) throw ragged(path, `is an array where a number was expected (like data${'[0]'.repeat(leafDepth)})`);
      if (shape.length === dim) shape.push(v.length);
      else if (shape[dim] !== v.length) throw ragged(path, `has length ${v.length}, expected ${shape[dim]}`);
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) throw new TypeError(`tpu.tensor: data${path}[${i}] is a hole in a sparse array; every element must be given`);
        walk(v[i], dim + 1, `${path}[${i}]`);
      }
      return;
    }
    if (leafDepth < 0) leafDepth = dim;
    if (dim !== leafDepth || dim !== shape.length) throw ragged(path, 'is a scalar where an array was expected');
    v = specialized(v); // a tpu.compile number argument: its value, the trace specialized on it
    if (typeof v === 'bigint') {
      bigints = true;
      flat.push(v);
      return;
    }
    if (typeof v === 'number') numbers = true;
    else if (typeof v !== 'boolean') throw new TypeError(`tpu.tensor: data${path} must be a number, a boolean or a BigInt; got ${v === null ? 'null' : typeof v}`);
    flat.push(Number(v));
  };
  walk(data, 0, '');
  return { shape, flat, numbers, bigints };
}

/**
 * tpu.full(shape, value): float32 for a number, bool for a boolean. JS cannot tell 7.0 from 7, so
 * a number is float32 as in tpu.tensor (torch.full((2,), 7.)); give `{ dtype: 'int64' }` for
 * torch.full((2,), 7)'s int64.
 * @example tpu.full([2], 7) // [7, 7]
 * @example tpu.full([2], 7, { dtype: 'int64' }).dtype // 'int64'
 * @example tpu.full([2], true).dtype // 'bool'
 */
export function full(shape: readonly number[], value: number, opts?: NumberCreationOptions): Tensor;
export function full(shape: readonly number[], value: number | boolean, opts: BoolCreationOptions): BoolTensor;
export function full(shape: readonly number[], value: boolean, opts?: CreationOptions & { dtype?: 'bool' }): BoolTensor;
export function full(shape: readonly number[], value: number | boolean, opts?: CreationOptions): Tensor;
export function full(shape: readonly number[], value: number | boolean, opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.full', shape);
  value = specialized(value); // its dtype and range are checked here
  if (typeof value !== 'number' && typeof value !== 'boolean') throw new TypeError(`tpu.full: value must be a number or a boolean; got ${typeof value}`);
  const o = creationOptions('tpu.full', opts);
  const dtype = o.dtype ?? (typeof value === 'boolean' ? 'bool' : 'float32');
  if (dtype === 'int32') checkInt32('tpu.full', 'value', Number(value));
  if (dtype === 'int64') toInt64('tpu.full', 'value', Number(value));
  return upload('full', () => new Float64Array(numel(s)).fill(Number(value)), s, dtype, o.chip);
}

/**
 * A tensor of zeros (float32 unless opts.dtype), as torch.zeros: the shape as integers or one
 * array, then options.
 * @example tpu.zeros(2, 3).shape // [2, 3]
 * @example tpu.zeros([2, 3], { dtype: 'int32' }).dtype // 'int32'
 */
export function zeros(shape: readonly number[], opts?: NumberCreationOptions): Tensor;
export function zeros(...size: number[] | [...number[], NumberCreationOptions]): Tensor;
export function zeros(shape: readonly number[], opts: BoolCreationOptions): BoolTensor;
export function zeros(...size: [...number[], BoolCreationOptions]): BoolTensor;
export function zeros(shape: readonly number[], opts?: CreationOptions): Tensor;
export function zeros(...size: number[] | [...number[], CreationOptions]): Tensor;
export function zeros(...args: unknown[]): Tensor {
  return filledWith('zeros', args, 0);
}

/**
 * A tensor of ones (float32 unless opts.dtype), as torch.ones: the shape as integers or one
 * array, then options.
 * @example tpu.ones(3).shape // [3]
 * @example tpu.ones([2, 3], { dtype: "int32" })
 */
export function ones(shape: readonly number[], opts?: NumberCreationOptions): Tensor;
export function ones(...size: number[] | [...number[], NumberCreationOptions]): Tensor;
export function ones(shape: readonly number[], opts: BoolCreationOptions): BoolTensor;
export function ones(...size: [...number[], BoolCreationOptions]): BoolTensor;
export function ones(shape: readonly number[], opts?: CreationOptions): Tensor;
export function ones(...size: number[] | [...number[], CreationOptions]): Tensor;
export function ones(...args: unknown[]): Tensor {
  return filledWith('ones', args, 1);
}

/**
 * A tensor whose values are not to be read before they are written, as torch.empty (here
 * zeros: an upload like any other): the shape as integers or one array, then options.
 * @example tpu.empty(2, 3).fill_(1).shape // [2, 3]
 */
export function empty(shape: readonly number[], opts?: NumberCreationOptions): Tensor;
export function empty(...size: number[] | [...number[], NumberCreationOptions]): Tensor;
export function empty(shape: readonly number[], opts: BoolCreationOptions): BoolTensor;
export function empty(...size: [...number[], BoolCreationOptions]): BoolTensor;
export function empty(shape: readonly number[], opts?: CreationOptions): Tensor;
export function empty(...size: number[] | [...number[], CreationOptions]): Tensor;
export function empty(...args: unknown[]): Tensor {
  return filledWith('empty', args, 0);
}

function filledWith(op: 'zeros' | 'ones' | 'empty', args: readonly unknown[], value: number): Tensor {
  const { shape, o } = sizeAndOptions(`tpu.${op}`, args);
  return upload(op, () => new Float64Array(numel(shape)).fill(value), shape, o.dtype ?? 'float32', o.chip);
}

/** The shape of torch.zeros(*size, **options) (copied: the caller may reuse its array) and the options, checked. */
function sizeAndOptions(op: string, args: readonly unknown[]): { shape: number[]; o: CreationOptions } {
  const { ints, options } = intArgsWithOptions(op, args, 'shape', 0);
  return { shape: [...ints], o: creationOptions(op, options) };
}

/**
 * arange(end), arange(start, end), arange(start, end, step), each optionally followed by
 * options; int32 when all are integers (as PyTorch), float32 otherwise.
  * @example
  * tpu.arange(5) // [0, 1, 2, 3, 4]
  * tpu.arange(0, 1, 0.25) // [0, 0.25, 0.5, 0.75]
 */
export function arange(...args: (number | CreationOptions)[]): Tensor {
  const last = args[args.length - 1];
  const opts = isOptions(last) ? creationOptions('tpu.arange', args.pop()) : {};
  if (args.length < 1 || args.length > 3) throw new TypeError(`tpu.arange: expected arange(end), arange(start, end) or arange(start, end, step), each optionally followed by options; got ${args.length} numbers`);
  const names = args.length === 1 ? ['end'] : ['start', 'end', 'step'];
  args = specialized(args); // they size the result
  args.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`tpu.arange: ${names[i]} must be a finite number; got ${JSON.stringify(v)}`);
  });
  const [start, end, step] = (args.length === 1 ? [0, args[0], 1] : [args[0], args[1], args[2] ?? 1]) as number[];
  if (step === 0) throw new RangeError('tpu.arange: step must be non-zero');
  // PyTorch refuses a range that runs away from end (arange(3, 1) is an error there, not empty)
  if ((step! > 0 && end! < start!) || (step! < 0 && end! > start!)) {
    throw new RangeError(`tpu.arange: end ${end} is ${end! < start! ? 'below' : 'above'} start ${start} but step ${step} is ${step! > 0 ? 'positive' : 'negative'}: upper bound and lower bound inconsistent with step sign (as PyTorch)`);
  }
  const n = Math.max(0, Math.ceil((end! - start!) / step!));
  const integers = [start, end, step].every(Number.isInteger);
  const dtype = opts.dtype ?? (integers ? INDEX_DTYPE : 'float32');
  if (dtype === 'int32' && n > 0) {
    checkInt32('tpu.arange', 'start', start!);
    checkInt32('tpu.arange', 'last value', start! + (n - 1) * step!);
  }
  if (dtype === 'int64' && integers && n > 0) {
    // counted in BigInt: start + i * step in doubles rounds beyond 2^53
    const [first, by] = [toInt64('tpu.arange', 'start', start!), BigInt(step!)];
    toInt64('tpu.arange', 'last value', start! + (n - 1) * step!);
    return upload('arange', () => BigInt64Array.from({ length: n }, (_, i) => first + BigInt(i) * by), [n], dtype, opts.chip);
  }
  return upload('arange', () => Float64Array.from({ length: n }, (_, i) => start! + i * step!), [n], dtype, opts.chip);
}

function floatDType(op: string, o: CreationOptions): DType {
  const dtype = o.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'bfloat16') throw new TypeError(`${op}: dtype must be float32 or bfloat16; got ${dtype}`);
  return dtype;
}

/**
 * Uniform in [0, 1), from the tpu.manualSeed generator (torch.rand): the shape as integers or
 * one array, then options.
 * @example tpu.rand(2, 3).shape // [2, 3]
 */
export function rand(shape: readonly number[], opts?: CreationOptions): Tensor;
export function rand(...size: number[] | [...number[], CreationOptions]): Tensor;
export function rand(...args: unknown[]): Tensor {
  const { shape, o } = sizeAndOptions('tpu.rand', args);
  return upload('rand', () => uniform(numel(shape)), shape, floatDType('tpu.rand', o), o.chip);
}

/**
 * Standard normal, from the tpu.manualSeed generator (torch.randn): the shape as integers or
 * one array, then options.
 * @example tpu.randn(2, 3).shape // [2, 3]
 * @example tpu.randn([2, 3])
 */
export function randn(shape: readonly number[], opts?: CreationOptions): Tensor;
export function randn(...size: number[] | [...number[], CreationOptions]): Tensor;
export function randn(...args: unknown[]): Tensor {
  const { shape, o } = sizeAndOptions('tpu.randn', args);
  return upload('randn', () => normal(numel(shape)), shape, floatDType('tpu.randn', o), o.chip);
}
