// cummax cummin logcumsumexp: running extrema and log-sum-exp along a dim, composed by
// doubling scans (scan.ts). A running extremum's indices are PyTorch's: the last position at
// or before each whose element equals it (a NaN, once met, is the extremum and its index the
// last NaN's); its values are read at those indices, so the gradient goes to them, as PyTorch's.
import { isFloating } from '../dtype.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { dimArgument } from './dim-argument.js';
import { doublingScan } from './scan.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { ValuesIndices } from './values-indices.js';
import { inFloat32 } from './nn/activations.js';
import { logAddExpOf } from './float-functions.js';
import { tensorArg } from './tensor-arg.js';

function runningExtremum(op: 'cummax' | 'cummin', x: Tensor, dim: number | { dim: number }): ValuesIndices {
  tensorArg(op, 'input', x);
  const d = dimArgument(op, x, dim);
  if (x.ndim === 0 || x.numel() === 0) return new ValuesIndices(x.clone(), filled(op, x.shape, 0, 'int64', x.chip));
  const max = op === 'cummax';
  // bools ordered as 0 < 1, as PyTorch orders them
  const v = x.dtype === 'bool' ? x.to('int32') : x;
  const indices = composite(op, () => {
    // the first element fills the slots shifted in: it never beats a running extremum (int64's
    // largest value has no exact JS number to fill with)
    const running = doublingScan(v, d, v.narrow(d, 0, 1), (a, b) => (max ? a.maximum(b) : a.minimum(b)));
    // a position whose element is the extremum so far (a NaN is: it makes the extremum NaN)
    const record = isFloating(v.dtype) ? v.eq(running).logicalOr(v.isnan()) : v.eq(running);
    const positions = filled(op, x.shape.map((n, i) => (i === d ? n : 1)), 1, 'int64').cumsum(d).sub(1);
    return doublingScan(where(record, positions, 0), d, 0, (a, b) => a.maximum(b));
  });
  return new ValuesIndices(x.gather(d, indices), indices);
}

/**
 * The running maximum along dim and the index of each (torch.cummax).
 * @example tpu.cummax(tpu.tensor([1, 3, 2, 3]), 0).indices // [0, 1, 1, 3]
 */
export function cummax(x: Tensor, dim: number | { dim: number }): ValuesIndices {
  return runningExtremum('cummax', x, dim);
}

/**
 * The running minimum along dim and the index of each (torch.cummin).
 * @example tpu.cummin(tpu.tensor([3, 1, 2, 1]), 0).values // [3, 1, 1, 1]
 */
export function cummin(x: Tensor, dim: number | { dim: number }): ValuesIndices {
  return runningExtremum('cummin', x, dim);
}

/**
 * log Σ exp of the elements up to each along dim, without overflow (torch.logcumsumexp);
 * floating-point tensors only, as PyTorch's.
 * @example tpu.logcumsumexp(tpu.tensor([0, 0, 1000]), 0) // [0, 0.693147, 1000]
 */
export function logcumsumexp(x: Tensor, dim: number | { dim: number }): Tensor {
  tensorArg('logcumsumexp', 'input', x);
  const d = dimArgument('logcumsumexp', x, dim);
  if (x.ndim === 0) return inFloat32('logcumsumexp', x, (v) => v.mul(1));
  return composite('logcumsumexp', () => inFloat32('logcumsumexp', x, (v) => doublingScan(v, d, -Infinity, logAddExpOf)));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The running maximum along dim and its indices (torch.cummax).
     * @example const { values, indices } = x.cummax(1); tpu.tensor([1, 3, 2]).cummax(0).values // [1, 3, 3]
     */
    cummax(dim: number | { dim: number }): ValuesIndices;
    /**
     * The running minimum along dim and its indices (torch.cummin).
     * @example tpu.tensor([3, 1, 2]).cummin(0).indices // [0, 1, 1]
     */
    cummin(dim: number | { dim: number }): ValuesIndices;
    /**
     * log Σ exp of the elements up to each along dim (torch.logcumsumexp).
     * @example tpu.tensor([0, 0]).logcumsumexp(0) // [0, 0.693147]
     */
    logcumsumexp(dim: number | { dim: number }): Tensor;
  }
}
installMethods({
  cummax(dim) { return cummax(this, dim); },
  cummin(dim) { return cummin(this, dim); },
  logcumsumexp(dim) { return logcumsumexp(this, dim); },
});
