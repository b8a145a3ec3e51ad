// diff: the n-th forward difference along a dim, with tensors joined before and after first
// (torch.diff), composed over narrow and sub; bools differ by xor, as PyTorch's.
import { formatShape, normalizeDim } from '../shape.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions } from '../options.js';
import { concat } from './concat.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface DiffOptions {
  /** How many times to difference (1 by default). */
  n?: number;
  /** The dim (the last by default). */
  dim?: number;
  /** Joined before x along dim first: as many dims as x, its sizes elsewhere. */
  prepend?: Tensor | null;
  /** Joined after x along dim first. */
  append?: Tensor | null;
}

/**
 * x[i + 1] - x[i] along dim, n times (torch.diff); positionally diff(n, dim, prepend, append),
 * as PyTorch's, or { n, dim, prepend, append }.
 * @example tpu.diff(tpu.tensor([1, 4, 9, 16])) // [3, 5, 7]
 */
export function diff(x: Tensor, n?: number | DiffOptions, dim?: number, prepend?: Tensor | null, append?: Tensor | null): Tensor {
  tensorArg('diff', 'input', x);
  const o: DiffOptions = isOptions(n) ? readOptions<DiffOptions>('diff', n, ['n', 'dim', 'prepend', 'append']) : { n: n as number | undefined, dim, prepend, append };
  const times = specialized(o.n ?? 1);
  if (!Number.isInteger(times) || times < 0) throw new RangeError(`diff: n must be a non-negative integer (the order); got ${JSON.stringify(times)}`);
  if (x.ndim === 0) throw new RangeError('diff: the input must have at least one dim; got a 0-d tensor');
  const d = normalizeDim('diff', o.dim ?? -1, x.ndim);
  const parts = [o.prepend, x, o.append].filter((t, i) => i === 1 || (t !== undefined && t !== null)) as Tensor[];
  for (const [name, t] of [['prepend', o.prepend], ['append', o.append]] as const) {
    if (t === undefined || t === null) continue;
    tensorArg('diff', name, t);
    if (t.ndim !== x.ndim) throw new RangeError(`diff: ${name} must have as many dims as the input, as in PyTorch; got ${name} ${formatShape(t.shape)} for input ${formatShape(x.shape)}`);
  }
  if (times === 0) return parts.length === 1 ? x : concat(parts, d);
  return composite('diff', () => {
    let v = parts.length === 1 ? x : concat(parts, d);
    for (let k = 0; k < times && v.shape[d]! > 0; k++) {
      const m = v.shape[d]! - 1;
      const [later, earlier] = [v.narrow(d, 1, m), v.narrow(d, 0, m)];
      v = v.dtype === 'bool' ? later.logicalXor(earlier) : later.sub(earlier);
    }
    return v;
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The n-th forward difference along dim (the last by default) (torch.diff).
     * @example tpu.tensor([1, 4, 9, 16]).diff(2) // [2, 2]
     * @example tpu.tensor([1, 4]).diff({ prepend: tpu.tensor([0]) }) // [1, 3]
     */
    diff(n?: number | DiffOptions, dim?: number, prepend?: Tensor | null, append?: Tensor | null): Tensor;
  }
}
installMethods({
  diff(n, dim, prepend, append) { return diff(this, n, dim, prepend, append); },
});
