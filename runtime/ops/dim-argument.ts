// The one required dim of softmax/logSoftmax/cumsum/cumprod: `x.op(1)` or `x.op({ dim: 1 })`,
// and their PyTorch dtype keyword: `x.op(1, { dtype })` or `x.op({ dim: 1, dtype })`.
import { formatShape, normalizeDim } from '../shape.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { specialized } from '../jit/live-number.js';
import { assertDType, isFloating, type DType } from '../dtype.js';
import type { Tensor } from '../tensor.js';

export function dimArgument(op: string, x: { readonly shape: readonly number[] }, dim: unknown): number {
  const d = specialized(isOptions(dim) ? readOptions<{ dim: number }>(op, dim, ['dim']).dim : dim);
  if (d === undefined) throw new TypeError(`${op}: dim is required (input ${formatShape(x.shape)})`);
  if (typeof d !== 'number') throw new TypeError(`${op}: dim must be a number; got ${JSON.stringify(d)}`);
  return normalizeDim(op, d, x.shape.length);
}

export interface DTypeOption {
  /** The input is cast to this dtype first, and the result has it (PyTorch's dtype=...). */
  dtype?: DType;
}

/** Which dtypes an op's kernel has: cumsum any but bool, softmax the floating ones (as PyTorch's). */
const KINDS = {
  numeric: (d: DType) => d !== 'bool',
  'floating-point': isFloating,
} as const;

/**
 * The dim and the dtype asked for (undefined when none is): x.op(1), x.op({ dim: 1, dtype }),
 * x.op(1, { dtype }). Read without the input's values, so a DTensor's op reads them alike.
 */
export function readDimAndDType(op: string, x: { readonly shape: readonly number[] }, dim: unknown, options: unknown, kind: keyof typeof KINDS): { d: number; dtype: DType | undefined } {
  if (options !== undefined && !isOptions(options)) throw new TypeError(`${op}: the argument after dim must be an options object such as { dtype: 'float32' }; got ${JSON.stringify(options)}`);
  const o = (isOptions(options) ? withPositional(op, 'dim', dim, options, ['dim', 'dtype']) : isOptions(dim) ? readOptions(op, dim, ['dim', 'dtype']) : { dim }) as DTypeOption & { dim?: unknown };
  const d = dimArgument(op, x, o.dim);
  if (o.dtype === undefined) return { d, dtype: undefined };
  const dtype = assertDType(o.dtype, op);
  if (!KINDS[kind](dtype)) throw new TypeError(`${op}: dtype ${dtype} is not supported, as in PyTorch; give a ${kind} dtype`);
  return { d, dtype };
}

/**
 * The dim and the input cast to `dtype` (readDimAndDType's). The cast comes first, as in
 * PyTorch, so an int input with a float dtype works and autograd runs through the cast.
 */
export function dimAndDType(op: string, x: Tensor, dim: unknown, options: unknown, kind: keyof typeof KINDS): { d: number; v: Tensor; dtype: DType | undefined } {
  const { d, dtype } = readDimAndDType(op, x, dim, options, kind);
  return { d, v: dtype === undefined ? x : x.to(dtype), dtype };
}
