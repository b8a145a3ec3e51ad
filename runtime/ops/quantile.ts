// quantile and nanquantile (torch.quantile, torch.nanquantile): each row sorted (NaN last),
// the q-th quantile at rank q·(count − 1), count the row's length (quantile: NaN where the row
// holds one) or its count of non-NaN elements (nanquantile: NaN where all are), and the
// values at the ranks around it interpolated. Ranks are float32 products, as PyTorch's, so
// 'lower', 'higher' and 'nearest' pick the same elements.
import { formatShape, normalizeDim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { composite } from '../modes/composite.js';
import { tracing } from '../jit/trace-record.js';
import { describeValue } from '../distributed/describe-value.js';
import { where } from './where.js';
import { constantTensor } from './constant.js';
import { zeroOrFail } from './gather-scatter.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

const INTERPOLATIONS = ['linear', 'lower', 'higher', 'midpoint', 'nearest'] as const;
export type QuantileInterpolation = (typeof INTERPOLATIONS)[number];

export interface QuantileOptions {
  /** The dim to reduce; none (the default): all elements. */
  dim?: number | null;
  keepdim?: boolean;
  interpolation?: QuantileInterpolation;
}
const KEYS: readonly (keyof QuantileOptions)[] = ['dim', 'keepdim', 'interpolation'];

function readArgs(op: string, dim: number | null | QuantileOptions | undefined, keepdim: boolean | Omit<QuantileOptions, 'dim'> | undefined): QuantileOptions {
  if (isOptions(dim)) return readOptions<QuantileOptions>(op, dim, KEYS);
  if (isOptions(keepdim)) return withPositional(op, 'dim', dim, keepdim, KEYS) as QuantileOptions;
  return { dim: dim as number | null | undefined, keepdim };
}

/** q as a float32 tensor: a number in [0, 1], or a 0-d or 1-d tensor of them (checked on the host, or on the device under tpu.compile). */
function quantiles(op: string, given: number | Tensor, x: Tensor): Tensor {
  const q = specialized(given);
  if (typeof q === 'number') {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`${op}: q must be in the range [0, 1]; got ${q}`);
    return constantTensor([q], [], x.dtype);
  }
  if (!(q instanceof Tensor)) throw new TypeError(`${op}: q must be a number or a tensor; got ${describeValue(q)}`);
  if (q.dtype !== x.dtype) throw new TypeError(`${op}: q must have the input's dtype ${x.dtype}, as in PyTorch; got ${q.dtype}`);
  if (q.ndim > 1) throw new RangeError(`${op}: q must be a number, a 0-d or a 1-d tensor; got shape ${formatShape(q.shape)}`);
  const outside = q.lt(0).logicalOr(q.gt(1)).logicalOr(q.isnan());
  if (tracing()) return q.add(zeroOrFail(outside.any()));
  const values = q._readSync(`the q read of ${op}`);
  const bad = Array.from(values as ArrayLike<number>).find((v) => !(v >= 0 && v <= 1));
  if (bad !== undefined) throw new RangeError(`${op}: q must hold values in the range [0, 1]; got ${bad}`);
  return q;
}

function quantileOf(op: 'quantile' | 'nanquantile', x: Tensor, q: number | Tensor, dim?: number | null | QuantileOptions, keepdim?: boolean | Omit<QuantileOptions, 'dim'>): Tensor {
  tensorArg(op, 'input', x);
  const o = readArgs(op, dim, keepdim);
  const interpolation = o.interpolation ?? 'linear';
  if (!INTERPOLATIONS.includes(interpolation)) throw new RangeError(`${op}: interpolation must be one of ${INTERPOLATIONS.join(', ')}; got ${JSON.stringify(interpolation)}`);
  if (o.keepdim !== undefined && typeof o.keepdim !== 'boolean') throw new TypeError(`${op}: keepdim must be a boolean; got ${JSON.stringify(o.keepdim)}`);
  if (x.dtype !== 'float32') throw new TypeError(`${op}: input must be float32 (PyTorch's float or double), got ${x.dtype}; cast it first: x.to('float32')`);
  if (x.numel() === 0) throw new RangeError(`${op}: input must be non-empty; got shape ${formatShape(x.shape)}`);
  const d = o.dim === undefined || o.dim === null ? null : normalizeDim(op, o.dim, x.ndim);
  const qs = quantiles(op, q, x);
  return composite(op, () => {
    // rows along the last dim; q's dim first
    const rows = d === null ? x.reshape([-1]) : x.ndim === 0 ? x.reshape([1]) : x.movedim(d, -1);
    const n = rows.shape[rows.ndim - 1]!;
    const qShape = qs.ndim === 1 ? [qs.shape[0]!, ...rows.shape.map(() => 1)] : [];
    const sorted = rows.sort(-1).values;
    const wide = qs.ndim === 1 ? sorted.unsqueeze(0).expand([qs.shape[0]!, ...sorted.shape]) : sorted;
    const nan = sorted.isnan();
    const q1 = qs.reshape(qShape);
    const rank = op === 'nanquantile'
      ? q1.mul(nan.logicalNot().sum(-1, true).to('float32').sub(1)).clamp(0)
      : where(nan.any(-1, true), n - 1, q1.mul(n - 1));
    const at = (r: Tensor) => wide.gather(-1, r.to('int64').expand([...wide.shape.slice(0, -1), 1]));
    let value: Tensor;
    if (interpolation === 'lower') value = at(rank.floor());
    else if (interpolation === 'higher') value = at(rank.ceil());
    else if (interpolation === 'nearest') value = at(rank.round());
    else {
      const below = rank.floor();
      value = at(below).lerp(at(rank.ceil()), interpolation === 'midpoint' ? 0.5 : rank.sub(below).expand([...wide.shape.slice(0, -1), 1]));
    }
    const reduced = value.squeeze(-1);
    if (!o.keepdim) return reduced;
    const kept = x.shape.map((m, k) => (d === null || k === d ? 1 : m));
    return reduced.reshape(qs.ndim === 1 ? [qs.shape[0]!, ...kept] : kept);
  });
}

/**
 * The q-th quantiles (q a number or a 1-d tensor in [0, 1]; a 1-d q adds a first dim) of all
 * elements or along `{ dim }`, NaN where a row holds NaN; `{ keepdim, interpolation }`
 * (torch.quantile).
 * @example tpu.quantile(tpu.tensor([1, 2, 3, 4]), 0.5) // 2.5
 */
export function quantile(x: Tensor, q: number | Tensor, dim?: number | null | QuantileOptions, keepdim?: boolean | Omit<QuantileOptions, 'dim'>): Tensor {
  return quantileOf('quantile', x, q, dim, keepdim);
}

/**
 * quantile of the elements that are not NaN, NaN where all are (torch.nanquantile).
 * @example tpu.nanquantile(tpu.tensor([1, NaN, 3]), 0.5) // 2
 */
export function nanquantile(x: Tensor, q: number | Tensor, dim?: number | null | QuantileOptions, keepdim?: boolean | Omit<QuantileOptions, 'dim'>): Tensor {
  return quantileOf('nanquantile', x, q, dim, keepdim);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The q-th quantiles, of all elements or along dim (torch.quantile); `{ dim, keepdim, interpolation }`.
     * @example tpu.tensor([[1, 2, 3, 4]]).quantile(tpu.tensor([0.25, 0.5]), 1) // [[1.75], [2.5]]
     */
    quantile(q: number | Tensor, dim?: number | null | QuantileOptions, keepdim?: boolean | Omit<QuantileOptions, 'dim'>): Tensor;
    /**
     * quantile ignoring NaN (torch.nanquantile).
     * @example tpu.tensor([1, NaN, 3]).nanquantile(0.5) // 2
     */
    nanquantile(q: number | Tensor, dim?: number | null | QuantileOptions, keepdim?: boolean | Omit<QuantileOptions, 'dim'>): Tensor;
  }
}
installMethods({
  quantile(q, dim, keepdim) { return quantile(this, q, dim, keepdim); },
  nanquantile(q, dim, keepdim) { return nanquantile(this, q, dim, keepdim); },
});
