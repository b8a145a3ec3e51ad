// tensorSplit: torch.tensor_split, pieces along a dim as views, by a count of sections or at indices.
import { isOptions, readOptions } from '../options.js';
import { isFloating } from '../dtype.js';
import { normalizeDim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';

/** A count of sections or a list of indices, as given or read from an integer tensor (0-d: a count). */
function sectionsOrList(value: unknown): number | number[] {
  if (value instanceof Tensor) {
    if (isFloating(value.dtype) || value.dtype === 'bool' || value.ndim > 1) {
      throw new TypeError(`tensorSplit: sectionsOrIndices as a tensor must be a 0-d or 1-d integer tensor, as torch.tensor_split's; got ${value.describe()}`);
    }
    return value.tolist() as number | number[];
  }
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (Array.isArray(value) && value.every((v) => Number.isInteger(v))) return value as number[];
  throw new TypeError(`tensorSplit: sectionsOrIndices must be an integer (a number of sections) or an array of integer indices; got ${describeValue(value)}`);
}

/** Python's slice start/end: negative counts from the end, then clamped to [0, n]. */
const clampIndex = (i: number, n: number) => Math.min(Math.max(i < 0 ? i + n : i, 0), n);

/**
 * Pieces of x along dim (default 0), each a view (torch.tensor_split): with an integer n, n
 * pieces as equal as can be (the first size % n one longer, empty ones past the size); with
 * indices, the pieces before, between and after them (Python slice rules: negative from the
 * end, clamped, empty when out of order). An integer tensor gives either form.
 * @example tpu.tensorSplit(tpu.arange(7), 3).map((t) => t.shape[0]) // [3, 2, 2]
 * @example tpu.arange(7).tensorSplit([1, 5]).map((t) => t.shape[0]) // [1, 4, 2]
 */
export function tensorSplit(x: Tensor, sectionsOrIndices: number | readonly number[] | Tensor, dim: number | { dim?: number } = 0): Tensor[] {
  if (!(x instanceof Tensor)) throw new TypeError(`tensorSplit: input must be a tensor; got ${describeValue(x)}`);
  const d0 = isOptions(dim) ? readOptions<{ dim: number }>('tensorSplit', dim, ['dim']).dim ?? 0 : dim;
  if (x.ndim === 0) throw new RangeError(`tensorSplit: expected at least a 1-dimensional tensor, but got a tensor with 0 dims`);
  const d = normalizeDim('tensorSplit', d0, x.ndim);
  const n = x.shape[d]!;
  const spec = sectionsOrList(specialized(sectionsOrIndices));
  let bounds: number[];
  if (typeof spec === 'number') {
    if (spec <= 0) throw new RangeError(`tensorSplit: the number of sections must be larger than 0; got ${spec}`);
    const [size, extra] = [Math.floor(n / spec), n % spec];
    bounds = Array.from({ length: spec - 1 }, (_, k) => (k + 1) * size + Math.min(k + 1, extra));
  } else bounds = spec;
  let start = 0;
  return [...bounds, n].map((b) => {
    const from = clampIndex(start, n);
    const to = Math.max(clampIndex(b, n), from);
    start = b;
    return x.narrow(d, from, to - from);
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Pieces along dim as views: n as equal as can be, or split at indices (torch.Tensor.tensor_split).
     * @example tpu.arange(7).tensorSplit(3).map((t) => t.shape[0]) // [3, 2, 2]
     */
    tensorSplit(sectionsOrIndices: number | readonly number[] | Tensor, dim?: number | { dim?: number }): Tensor[];
  }
}
installMethods({
  tensorSplit(sectionsOrIndices, dim) { return tensorSplit(this, sectionsOrIndices, dim); },
});
