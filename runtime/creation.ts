// Creating tensors: values made on the host, uploaded once (a counted transfer).
import { assertDType, toStorage, type DType } from './dtype.js';
import { checkShape, numel, type Shape } from './shape.js';
import { currentSession } from './device/current.js';
import { normal, uniform } from './random.js';
import { Tensor, type NestedArray } from './tensor.js';
import { noteUpload, tracing } from './compile/trace-record.js';

export interface CreationOptions {
  dtype?: DType;
  /** Record operations on this tensor for backward (floating dtypes only; see autograd/creation.ts). */
  requiresGrad?: boolean;
}

function options(op: string, o: CreationOptions | undefined): CreationOptions {
  if (o === undefined) return {};
  if (typeof o !== 'object' || o === null) throw new TypeError(`${op}: options must be an object like { dtype: 'float32' }; got ${JSON.stringify(o)}`);
  if (o.dtype !== undefined) assertDType(o.dtype, op);
  return o;
}

/** Host values to the device; `values` is called again when a tpu.compile replay remakes the tensor. */
function upload(op: string, values: () => ArrayLike<number>, shape: Shape, dtype: DType): Tensor {
  const session = currentSession();
  const buffer = session.allocate(dtype, shape, op);
  session.upload(buffer, toStorage(dtype, values()));
  const made = Tensor.fromBuffer(buffer, shape, dtype);
  if (tracing()) noteUpload(made, () => upload(op, values, shape, dtype));
  return made;
}

/** tpu.tensor(data): nested arrays, a typed array or a scalar. All-integer data gives int32. */
export function tensor(data: NestedArray | Float32Array | Float64Array | Int32Array | Uint8Array, opts?: CreationOptions): Tensor {
  const o = options('tpu.tensor', opts);
  if (ArrayBuffer.isView(data)) {
    const inferred: DType = data instanceof Int32Array ? 'int32' : data instanceof Uint8Array ? 'bool' : 'float32';
    return upload('tensor', () => data as ArrayLike<number>, [data.length], o.dtype ?? inferred);
  }
  const shape: number[] = [];
  const flat: number[] = [];
  let kind: 'bool' | 'int' | 'float' | undefined;
  const walk = (v: unknown, dim: number, path: string): void => {
    if (Array.isArray(v)) {
      if (shape.length === dim) shape.push(v.length);
      else if (shape[dim] !== v.length || dim >= shape.length) {
        throw new RangeError(`tpu.tensor: ragged nested array: data${path} has length ${v.length}, expected ${shape[dim]}`);
      }
      v.forEach((x, i) => walk(x, dim + 1, `${path}[${i}]`));
      return;
    }
    if (dim !== shape.length) throw new RangeError(`tpu.tensor: ragged nested array: data${path} is a scalar where an array was expected`);
    if (typeof v === 'boolean') kind ??= 'bool';
    else if (typeof v === 'number') kind = !Number.isInteger(v) || kind === 'float' ? 'float' : 'int';
    else throw new TypeError(`tpu.tensor: data${path} must be a number or a boolean; got ${v === null ? 'null' : typeof v}`);
    flat.push(Number(v));
  };
  walk(data, 0, '');
  const inferred: DType = kind === 'bool' ? 'bool' : kind === 'int' ? 'int32' : 'float32';
  return upload('tensor', () => flat, shape, o.dtype ?? inferred);
}

export function full(shape: readonly number[], value: number | boolean, opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.full', shape);
  if (typeof value !== 'number' && typeof value !== 'boolean') throw new TypeError(`tpu.full: value must be a number or a boolean; got ${typeof value}`);
  const o = options('tpu.full', opts);
  const inferred: DType = typeof value === 'boolean' ? 'bool' : Number.isInteger(value) ? 'int32' : 'float32';
  return upload('full', () => new Float64Array(numel(s)).fill(Number(value)), s, o.dtype ?? inferred);
}

export function zeros(shape: readonly number[], opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.zeros', shape);
  return upload('zeros', () => new Float64Array(numel(s)), s, options('tpu.zeros', opts).dtype ?? 'float32');
}

export function ones(shape: readonly number[], opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.ones', shape);
  return upload('ones', () => new Float64Array(numel(s)).fill(1), s, options('tpu.ones', opts).dtype ?? 'float32');
}

/** arange(end), arange(start, end), arange(start, end, step); int32 when all are integers. */
export function arange(a: number, b?: number, c?: number | CreationOptions, d?: CreationOptions): Tensor {
  const opts = typeof c === 'object' ? c : d;
  const step = typeof c === 'number' ? c : 1;
  const [start, end] = b === undefined || typeof b !== 'number' ? [0, a] : [a, b];
  for (const [name, v] of [['start', start], ['end', end], ['step', step]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`tpu.arange: ${name} must be a finite number; got ${JSON.stringify(v)}`);
  }
  if (step === 0) throw new RangeError('tpu.arange: step must be non-zero');
  const n = Math.max(0, Math.ceil((end - start) / step));
  const values = Float64Array.from({ length: n }, (_, i) => start + i * step);
  const integral = [start, end, step].every(Number.isInteger);
  return upload('arange', () => values, [n], options('tpu.arange', opts).dtype ?? (integral ? 'int32' : 'float32'));
}

function floatDtype(op: string, opts?: CreationOptions): DType {
  const dtype = options(op, opts).dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'bfloat16') throw new TypeError(`${op}: dtype must be float32 or bfloat16; got ${dtype}`);
  return dtype;
}

/** Uniform in [0, 1), from the tpu.manualSeed generator. */
export function rand(shape: readonly number[], opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.rand', shape);
  return upload('rand', () => uniform(numel(s)), s, floatDtype('tpu.rand', opts));
}

/** Standard normal, from the tpu.manualSeed generator. */
export function randn(shape: readonly number[], opts?: CreationOptions): Tensor {
  const s = checkShape('tpu.randn', shape);
  return upload('randn', () => normal(numel(s)), s, floatDtype('tpu.randn', opts));
}
