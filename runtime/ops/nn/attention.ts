// scaledDotProductAttention, dropout, embedding: composed.
import { isInteger } from '../../dtype.js';
import { byPosition, readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { rand } from '../../creation.js';
import { filled } from '../constant.js';
import { where } from '../where.js';
import { softmax } from '../composed.js';
import { INT32_INDEX_HINT, rowsAt } from '../gather-scatter.js';
import { specialized } from '../../jit/live-number.js';
import { renormOptions, renormPickedRows } from './embedding-renorm.js';

/** The lowest finite float: masked scores (debug mode's Inf check stays meaningful). */
const MASKED = -3.4028234663852886e38;

export interface AttentionOptions {
  /** bool: true = may attend; float: added to the scores. Broadcasts to [..., L, S]. */
  attnMask?: Tensor | null;
  dropoutP?: number;
  isCausal?: boolean;
  /** Default 1/√E. */
  scale?: number;
}

/**
 * softmax(q·kᵀ·scale + mask)·v over q [..., L, E], k [..., S, E], v [..., S, Ev].
 * @example
 * const q = tpu.ones([1, 2, 4]);
 * tpu.nn.functional.scaledDotProductAttention(q, q, tpu.tensor([[[1, 2], [3, 4]]])) // [[[2, 3], [2, 3]]]
 */
export function scaledDotProductAttention(q: Tensor, k: Tensor, v: Tensor, opts: AttentionOptions = {}): Tensor {
  readOptions<AttentionOptions>('scaledDotProductAttention', opts, ['attnMask', 'dropoutP', 'isCausal', 'scale']);
  const op = 'scaledDotProductAttention';
  for (const [name, t] of [['query', q], ['key', k], ['value', v]] as const) {
    if (!(t instanceof Tensor) || t.ndim < 2) throw new RangeError(`${op}: ${name} must be a tensor of at least 2 dims; got ${t instanceof Tensor ? formatShape(t.shape) : typeof t}`);
  }
  const e = q.shape[q.ndim - 1]!;
  if (k.shape[k.ndim - 1] !== e || k.shape[k.ndim - 2] !== v.shape[v.ndim - 2]) {
    throw new RangeError(`${op}: query ${formatShape(q.shape)}, key ${formatShape(k.shape)} and value ${formatShape(v.shape)} do not fit [..., L, E], [..., S, E], [..., S, Ev]`);
  }
  if (opts.isCausal && opts.attnMask) throw new TypeError(`${op}: give attnMask or isCausal, not both`);
  const scale = opts.scale ?? 1 / Math.sqrt(e);
  const L = q.shape[q.ndim - 2]!;
  const S = k.shape[k.ndim - 2]!;
  return composite(op, () => {
    let scores = q.matmul(k.mT).mul(scale);
    // a row that may attend to nothing gives zeros (PyTorch's safe softmax), not NaN or a mean
    let attends: Tensor | null = null;
    if (opts.isCausal) scores = where(filled(op, [L, S], true, 'bool').tril(), scores, MASKED);
    else if (opts.attnMask) {
      const m = opts.attnMask;
      if (m.dtype === 'bool') {
        attends = m.any(-1, true);
        scores = where(m, scores, MASKED);
      } else {
        scores = scores.add(m);
        attends = scores.amax(-1, true).gt(-Infinity);
        scores = where(attends, scores, 0);
      }
    }
    let p = softmax(scores, -1);
    if (attends) p = where(attends, p, 0);
    if (opts.dropoutP) p = dropout(p, { p: opts.dropoutP });
    return p.matmul(v);
  });
}

export interface DropoutOptions {
  p?: number;
  training?: boolean;
}

/**
 * Zeroes each element with probability p (tpu.manualSeed generator), scaling the rest by 1/(1−p).
 * p and training by position too, as PyTorch's F.dropout(x, 0.1, self.training).
 * @example tpu.nn.functional.dropout(x, { p: 0.1 }); tpu.nn.functional.dropout(x, 0.1, model.training)
 */
export function dropout(x: Tensor, ...args: [DropoutOptions?] | [number, DropoutOptions?] | [number, boolean]): Tensor {
  const opts = byPosition<DropoutOptions>('dropout', args, ['p', 'training']);
  if (opts.training !== undefined && typeof opts.training !== 'boolean') throw new TypeError(`dropout: training must be a boolean; got ${JSON.stringify(opts.training)}`);
  const p = specialized(opts.p ?? 0.5);
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`dropout: p must be a probability in [0, 1]; got ${JSON.stringify(p)}`);
  if (opts.training === false || p === 0) return x;
  // x * 0, as PyTorch's: -0 for a negative, NaN for a NaN
  if (p === 1) return x.mul(0);
  const keep = rand([...x.shape]).ge(p);
  return x.mul(keep.to(x.dtype)).div(1 - p);
}

export interface EmbeddingOptions {
  /** The row that gets no gradient (PyTorch's padding_idx; negative counts from the end). */
  paddingIdx?: number | null;
  /** Picked rows of a norm above it are scaled down to it in place first (PyTorch's max_norm). */
  maxNorm?: number | null;
  /** The p of maxNorm's norm (2, PyTorch's norm_type). */
  normType?: number;
}

/** The padding row of a table of `rows`, as PyTorch resolves padding_idx; null for none. */
export function paddingRow(op: string, given: unknown, rows: number): number | null {
  const paddingIdx = specialized(given);
  if (paddingIdx === undefined || paddingIdx === null) return null;
  if (!Number.isInteger(paddingIdx) || (paddingIdx as number) < -rows || (paddingIdx as number) >= rows) {
    throw new RangeError(`${op}: paddingIdx must be an integer in [${-rows}, ${rows - 1}] (a row of the ${rows}); got ${JSON.stringify(paddingIdx)}`);
  }
  return (paddingIdx as number) < 0 ? (paddingIdx as number) + rows : (paddingIdx as number);
}

/**
 * Rows of weight [V, D] picked by an int32 or int64 index tensor of any shape: out = [...index.shape, D].
 * `{ paddingIdx }`: that row's lookups pass no gradient to it (PyTorch's padding_idx); `{ maxNorm, normType }`:
 * the picked rows of a larger norm are first scaled down to maxNorm in weight itself (PyTorch's max_norm).
 * @example tpu.nn.functional.embedding(tpu.tensor(new Int32Array([1])), tpu.tensor([[0, 0], [5, 6]])) // [[5, 6]]
 */
export function embedding(input: Tensor, weight: Tensor, opts: EmbeddingOptions = {}): Tensor {
  readOptions<EmbeddingOptions>('embedding', opts, ['paddingIdx', 'maxNorm', 'normType']);
  if (!(weight instanceof Tensor) || weight.ndim !== 2) throw new RangeError(`embedding: weight must be a 2-D tensor [V, D]; got ${weight instanceof Tensor ? formatShape(weight.shape) : typeof weight}`);
  if (!(input instanceof Tensor) || !isInteger(input.dtype)) throw new TypeError(`embedding: input must be an int32 or int64 tensor of indices; got ${input instanceof Tensor ? `${input.dtype} ${INT32_INDEX_HINT}` : typeof input}`);
  const padding = paddingRow('embedding', opts.paddingIdx, weight.shape[0]!);
  const renorm = renormOptions('embedding', opts.maxNorm, opts.normType);
  if (renorm) renormPickedRows(weight, input, renorm.maxNorm, renorm.normType);
  const rows = rowsAt(weight, input); // negative indices are errors, as in PyTorch (no wrapping)
  if (padding === null || !weight.requiresGrad) return rows;
  // the padding row's lookups read it as a constant: no gradient reaches it from them
  return where(input.eq(padding).unsqueeze(-1), rows.detach(), rows);
}
