// linspace logspace eye randint randperm: values computed on the host from a few numbers, uploaded once like
// the rest of creation.ts.
import { checkInt32, INDEX_DTYPE, isFloating, type DType } from './dtype.js';
import { checkShape, numel } from './shape.js';
import { upload } from './upload.js';
import { CREATION_KEYS, creationOptions, type CreationOptions } from './creation-options.js';
import { readOptions } from './options.js';
import { permutation, uniform } from './random.js';
import type { Tensor } from './tensor.js';
import { specialized, specializedOptions } from './jit/live-number.js';

function optionsOf(op: string, opts: CreationOptions | undefined, fallback: DType): { dtype: DType; chip?: number } {
  const o = creationOptions(op, opts);
  return { dtype: o.dtype ?? fallback, chip: o.chip };
}

/** Uploaded in their shape: a reshape after the upload would hide small integer ones from the index checks (host-known-indices.ts). */
function fromValues(op: string, values: ArrayLike<number>, shape: readonly number[], o: { dtype: DType; chip?: number }): Tensor {
  return upload(op, () => values, [...shape], o.dtype, o.chip);
}

/** linspace's and logspace's numbers (finite) and step count (a non-negative integer), each named in its error. */
function checkSpan(op: string, numbers: Record<string, unknown>, steps: unknown): void {
  for (const [name, v] of Object.entries(numbers)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${op}: ${name} must be a finite number; got ${JSON.stringify(v)}`);
  }
  if (!Number.isInteger(steps) || (steps as number) < 0) throw new RangeError(`${op}: steps must be a non-negative integer; got ${JSON.stringify(steps)}`);
}

/**
 * `steps` evenly spaced values from start to end inclusive (float32 by default).
 * @example tpu.linspace(0, 1, 5) // [0, 0.25, 0.5, 0.75, 1]
 */
export function linspace(start: number, end: number, steps: number, opts?: CreationOptions): Tensor {
  [start, end, steps] = specialized([start, end, steps]);
  checkSpan('tpu.linspace', { start, end }, steps);
  const step = steps > 1 ? (end - start) / (steps - 1) : 0;
  // PyTorch fills the second half from the end, so the last value is exactly `end`.
  const values = Array.from({ length: steps }, (_, i) => (i < steps / 2 ? start + i * step : end - (steps - 1 - i) * step));
  return fromValues('linspace', values, [steps], optionsOf('tpu.linspace', opts, 'float32'));
}

export interface LogspaceOptions extends CreationOptions {
  /** The base of the powers (10 by default). */
  base?: number;
}

/**
 * `steps` powers base^e for e evenly spaced from start to end inclusive (torch.logspace); the base
 * (10 by default) positionally or in the options. Integer dtypes take start and end truncated,
 * and each power truncated, as PyTorch's.
 * @example tpu.logspace(0, 3, 4) // [1, 10, 100, 1000]
 * @example tpu.logspace(0, 3, 4, 2) // [1, 2, 4, 8]
 */
export function logspace(start: number, end: number, steps: number, base?: number | LogspaceOptions, opts?: LogspaceOptions): Tensor {
  [start, end, steps, base] = specialized([start, end, steps, base]);
  const { base: b = 10, ...rest } = specializedOptions(typeof base === 'object' ? readOptions<LogspaceOptions>('tpu.logspace', base, ['base', ...CREATION_KEYS]) : { ...readOptions<LogspaceOptions>('tpu.logspace', opts, CREATION_KEYS), base });
  checkSpan('tpu.logspace', { start, end, base: b }, steps);
  const o = optionsOf('tpu.logspace', rest, 'float32');
  if (o.dtype === 'bool') throw new TypeError('tpu.logspace: dtype bool is not supported, as in PyTorch');
  const integral = !isFloating(o.dtype);
  const [first, last] = integral ? [Math.trunc(start), Math.trunc(end)] : [start, end];
  const step = steps > 1 ? (last - first) / (steps - 1) : 0;
  // the second half counted back from the end, as PyTorch's (and linspace's) kernel
  const exponents = Array.from({ length: steps }, (_, i) => (steps === 1 ? start : i < Math.floor(steps / 2) ? first + i * step : last - (steps - 1 - i) * step));
  const base32 = integral ? Math.fround(b) : b;
  return fromValues('logspace', exponents.map((e) => (integral ? Math.trunc(base32 ** e) : base32 ** e)), [steps], o);
}

/**
 * n×m identity (m = n by default).
 * @example tpu.eye(2) // [[1, 0], [0, 1]]
 */
export function eye(n: number, m?: number | CreationOptions, opts?: CreationOptions): Tensor {
  [n, m] = specialized([n, m]);
  const cols = typeof m === 'number' ? m : n;
  const o = typeof m === 'object' ? m : opts;
  checkShape('tpu.eye', [n, cols], 'size');
  const values = new Float64Array(n * cols);
  for (let i = 0; i < Math.min(n, cols); i++) values[i * cols + i] = 1;
  return fromValues('eye', values, [n, cols], optionsOf('tpu.eye', o, 'float32'));
}

/**
 * Integers uniform in [low, high): randint(high, shape) or randint(low, high, shape); int64
 * as PyTorch's (or the dtype option's).
 * @example tpu.randint(0, 10, [4]).dtype // 'int64'
 */
export function randint(a: number, b: number | readonly number[], c?: readonly number[] | CreationOptions, d?: CreationOptions): Tensor {
  const [low, high, shape, opts] = Array.isArray(b) ? [0, specialized(a), b, c as CreationOptions | undefined] : [specialized(a), specialized(b as number), c as readonly number[], d];
  if (!Number.isInteger(low) || !Number.isInteger(high) || high <= low) {
    throw new RangeError(`tpu.randint: low and high must be integers with low < high; got low=${low}, high=${high}`);
  }
  const s = checkShape('tpu.randint', shape);
  const o = optionsOf('tpu.randint', opts, INDEX_DTYPE);
  if (o.dtype === 'int32') {
    checkInt32('tpu.randint', 'low', low);
    checkInt32('tpu.randint', 'high - 1', high - 1);
  }
  // each value comes from one 32-bit draw: a wider range would leave most integers unreachable
  if (high - low > 2 ** 32) throw new RangeError(`tpu.randint: high - low must be at most 2^32 (one 32-bit random draw per value); got low=${low}, high=${high}`);
  const u = uniform(numel(s));
  return fromValues('randint', u.map((v) => low + Math.floor(v * (high - low))), s, o);
}

/**
 * A random permutation of 0 .. n-1, from the tpu.manualSeed generator (torch.randperm); int64 as
 * PyTorch's, or the dtype asked for.
 * @example tpu.randperm(4).sort().values // [0, 1, 2, 3]
 */
export function randperm(n: number, opts?: CreationOptions): Tensor {
  n = specialized(n);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`tpu.randperm: n must be a non-negative integer; got ${JSON.stringify(n)}`);
  const o = optionsOf('tpu.randperm', opts, INDEX_DTYPE);
  if (o.dtype === 'bool') throw new TypeError('tpu.randperm: dtype bool is not supported, as in PyTorch');
  if (o.dtype === 'int32') checkInt32('tpu.randperm', 'n - 1', n - 1);
  const limit = o.dtype === 'bfloat16' ? 2 ** 8 : o.dtype === 'float32' ? 2 ** 24 : Infinity;
  if (n > limit) throw new RangeError(`tpu.randperm: n must be at most ${limit} for dtype ${o.dtype} (larger integers are not exact there); got ${n}`);
  return fromValues('randperm', permutation(n), [n], o);
}
