// nn.MultiheadAttention's masks and attention weights. Its masks speak PyTorch's nn language,
// the opposite of F.scaledDotProductAttention's bool: true = may NOT attend; a float mask is
// added to the scores. Both masks (attnMask [L, S] or [N·heads, L, S], keyPaddingMask [N, S])
// act together, as PyTorch's sum of their float forms.
import { isFloating } from '../dtype.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { filled } from '../ops/constant.js';
import { where } from '../ops/where.js';
import { softmax } from '../ops/composed.js';
import { dropout } from '../ops/nn/attention.js';
import { describeValue } from '../distributed/describe-value.js';

/** The sizes the masks are checked against: batch, heads, target and source lengths. */
export interface AttentionSizes {
  batch: number;
  heads: number;
  targetLength: number;
  sourceLength: number;
  /** An unbatched call: keyPaddingMask is [S], a 3-D attnMask [heads, L, S]. */
  batched: boolean;
}

function checkMaskDType(op: string, name: string, mask: unknown): Tensor {
  if (!(mask instanceof Tensor)) throw new TypeError(`${op}: ${name} must be a tensor; got ${describeValue(mask)}`);
  if (mask.dtype !== 'bool' && !isFloating(mask.dtype)) throw new TypeError(`${op}: ${name} must be a bool tensor (true = may not attend) or a floating one (added to the scores); got ${mask.dtype}`);
  return mask;
}

/** attnMask as [L, S] or [N, heads, L, S]: broadcasts against the scores [N, heads, L, S]. */
export function attnMaskFor(op: string, given: unknown, z: AttentionSizes): Tensor {
  const mask = checkMaskDType(op, 'attnMask', given);
  const { batch, heads, targetLength: L, sourceLength: S } = z;
  if (mask.ndim === 2 && mask.shape[0] === L && mask.shape[1] === S) return mask;
  const rows = z.batched ? batch * heads : heads;
  if (mask.ndim === 3 && mask.shape[0] === rows && mask.shape[1] === L && mask.shape[2] === S) return mask.reshape([batch, heads, L, S]);
  const three = z.batched ? `[N·numHeads, L, S] = [${rows}, ${L}, ${S}]` : `[numHeads, L, S] = [${rows}, ${L}, ${S}]`;
  throw new RangeError(`${op}: attnMask must be [L, S] = [${L}, ${S}] or ${three}; got ${formatShape(mask.shape)}`);
}

/** keyPaddingMask ([N, S], or [S] unbatched) as [N, 1, 1, S]. */
export function keyPaddingMaskFor(op: string, given: unknown, z: AttentionSizes): Tensor {
  const mask = checkMaskDType(op, 'keyPaddingMask', given);
  const want = z.batched ? [z.batch, z.sourceLength] : [z.sourceLength];
  if (mask.ndim !== want.length || mask.shape.some((d, i) => d !== want[i])) {
    throw new RangeError(`${op}: keyPaddingMask must be ${z.batched ? '[N, S]' : '[S]'} = ${formatShape(want)}; got ${formatShape(mask.shape)}`);
  }
  return mask.reshape([z.batch, 1, 1, z.sourceLength]);
}

/** The causal mask of isCausal: position i may not attend to j > i. */
export function causalMask(op: string, z: AttentionSizes): Tensor {
  return filled(op, [z.targetLength, z.sourceLength], true, 'bool').triu(1);
}

export interface ProbabilityOptions {
  /** Masks as attnMaskFor / keyPaddingMaskFor give them. */
  masks: readonly Tensor[];
  /** A row that may attend to nothing gives zeros (PyTorch's path without weights) instead of NaN (its path with them). */
  safe: boolean;
  dropoutP: number;
}

/**
 * softmax(q·kᵀ/√d + masks) over q [N, heads, L, d], k [N, heads, S, d]: the attention weights
 * [N, heads, L, S], dropped out when dropoutP > 0 (PyTorch returns them after dropout too).
 */
export function attentionProbabilities(q: Tensor, k: Tensor, o: ProbabilityOptions): Tensor {
  return composite('multiheadAttention', () => {
    let scores = q.mul(1 / Math.sqrt(q.shape[q.ndim - 1]!)).matmul(k.mT);
    for (const m of o.masks) scores = m.dtype === 'bool' ? where(m, -Infinity, scores) : scores.add(m);
    let p: Tensor;
    if (o.safe) {
      // rows with no finite score: zeros, and no NaN through softmax's gradient either
      const attends = scores.amax(-1, true).gt(-Infinity);
      p = where(attends, softmax(where(attends, scores, 0), -1), 0);
    } else p = softmax(scores, -1);
    return o.dropoutP > 0 ? dropout(p, { p: o.dropoutP }) : p;
  });
}
