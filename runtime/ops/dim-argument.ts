// The one required dim of softmax/logSoftmax/cumsum/cumprod: `x.op(1)` or `x.op({ dim: 1 })`.
import { formatShape, normalizeDim } from '../shape.js';
import { isOptions, readOptions } from '../options.js';

export function dimArgument(op: string, x: { readonly shape: readonly number[] }, dim: unknown): number {
  const d = isOptions(dim) ? readOptions<{ dim: number }>(op, dim, ['dim']).dim : dim;
  if (d === undefined) throw new TypeError(`${op}: dim is required (input ${formatShape(x.shape)})`);
  if (typeof d !== 'number') throw new TypeError(`${op}: dim must be a number; got ${JSON.stringify(d)}`);
  return normalizeDim(op, d, x.shape.length);
}
