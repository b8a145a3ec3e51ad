// mode: the most frequent value along a dim and its index (torch.mode): of values equally
// frequent the smallest, and of its occurrences the last index, as PyTorch's CPU kernel in rows
// of up to 16 elements (its std::sort, unstable beyond, names another occurrence in longer rows).
// Each NaN is a value of its own, sorted last: PyTorch's sort, whose < NaN breaks, leaves NaNs
// wherever its algorithm puts them, which no definition reproduces (docs/runtime.md).
// Composed over a stable sort: each element's position in its run of equal values is its
// index minus the run's start (a running max of the starts), and argmax takes the first, so
// smallest, of the longest runs.
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { arange } from '../creation.js';
import { filled } from './constant.js';
import { concat } from './concat.js';
import { where } from './where.js';
import type { KeepdimOptions, OneDimOptions } from './reduce.js';
import { tensorArg } from './tensor-arg.js';
import type { ValuesIndices } from './values-indices.js';
import { oneDimArgs, pickAlong } from './selection-along-dim.js';

/**
 * The most frequent value along dim (default the last) and the last index holding it; of
 * values equally frequent the smallest (torch.mode).
 * @example tpu.tensor([3, 1, 3, 1, 2]).mode().values // 1 (tpu.mode is the eager-mode switch: mode is a method only)
 */
export function mode(x: Tensor, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices {
  tensorArg('mode', 'input', x);
  const a = oneDimArgs('mode', x, dim, keepdim);
  const d = a.dim;
  return pickAlong('mode', x, d, a.keepdim, () => {
    const n = x.shape[d]!;
    const sorted = (x.dtype === 'bool' ? x.to('int32') : x).sort(d);
    const v = sorted.values;
    const position = arange(n, { chip: x.chip }).reshape(x.shape.map((_, k) => (k === d ? n : 1)));
    const startsRun = concat([filled('mode', x.shape.map((m, k) => (k === d ? 1 : m)), true, 'bool'), v.narrow(d, 1, n - 1).ne(v.narrow(d, 0, n - 1))], d);
    const runStart = where(startsRun, position, 0).cummax(d).values;
    return sorted.indices.gather(d, position.sub(runStart).argmax(d, true));
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The most frequent value along dim, default the last, and its last index; of values
     * equally frequent the smallest (torch.mode).
     * @example tpu.tensor([[1, 2, 2], [3, 3, 1]]).mode(1).values // [2, 3]
     */
    mode(dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
  }
}
installMethods({
  mode(dim, keepdim) { return mode(this, dim, keepdim); },
});
