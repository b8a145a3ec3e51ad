// rot90: a quarter turn k times in the plane of two dims (torch.rot90), composed over flip and
// transpose as PyTorch's kernel is, so the result has PyTorch's strides (k odd: transposed).
import { formatShape, normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions } from '../options.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface Rot90Options {
  /** Quarter turns from dims[0] toward dims[1] (1 by default; negative turns the other way). */
  k?: number;
  /** The plane: two different dims ([0, 1] by default). */
  dims?: readonly number[];
}

/**
 * x turned by 90° k times from dims[0] toward dims[1] (torch.rot90); positionally
 * rot90(x, k, dims) as PyTorch's, or rot90(x, { k, dims }).
 * @example tpu.rot90(tpu.tensor([[1, 2], [3, 4]])) // [[2, 4], [1, 3]]
 */
export function rot90(x: Tensor, k?: number | Rot90Options, dims?: readonly number[]): Tensor {
  tensorArg('rot90', 'input', x);
  const o: Rot90Options = isOptions(k) ? readOptions<Rot90Options>('rot90', k, ['k', 'dims']) : { k: k as number | undefined, dims };
  const turns = specialized(o.k ?? 1);
  if (!Number.isInteger(turns)) throw new TypeError(`rot90: k must be an integer (quarter turns); got ${JSON.stringify(turns)}`);
  const plane = specialized(o.dims ?? [0, 1]);
  if (!Array.isArray(plane) || plane.length !== 2) throw new RangeError(`rot90: dims must be two dims, as in PyTorch; got ${JSON.stringify(plane)}`);
  if (x.ndim < 2) throw new RangeError(`rot90: the input must have at least 2 dims; got ${formatShape(x.shape)}`);
  const [a, b] = plane.map((d, i) => normalizeDim('rot90', d as number, x.ndim, `dims[${i}]`)) as [number, number];
  if (a === b) throw new RangeError(`rot90: dims must be two different dims; got ${JSON.stringify(plane)} for a tensor of rank ${x.ndim}`);
  switch (((turns % 4) + 4) % 4) {
    case 1: return x.flip(b).transpose(a, b);
    case 2: return x.flip(a, b);
    case 3: return x.flip(a).transpose(a, b);
    default: return x.clone();
  }
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Turned by 90° k times from dims[0] toward dims[1] (torch.Tensor.rot90): rot90(k, dims) or { k, dims }.
     * @example tpu.tensor([[1, 2], [3, 4]]).rot90(-1) // [[3, 1], [4, 2]]
     */
    rot90(k?: number | Rot90Options, dims?: readonly number[]): Tensor;
  }
}
installMethods({
  rot90(k, dims) { return rot90(this, k, dims); },
});
