// F.cosine_embedding_loss, in PyTorch's form: 1 - cos for pairs labelled 1, max(0, cos - margin)
// for pairs labelled -1, cos = x1·x2 / √((‖x1‖² + 1e-12)(‖x2‖² + 1e-12)).
import { readOptions } from '../options.js';
import type { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { formatShape, shapesEqual } from '../shape.js';
import { where } from '../ops/where.js';
import { numberOption } from '../ops/nn/number-option.js';
import { checkTensor, reduce, type LossOptions } from './losses.js';

export interface CosineEmbeddingLossOptions extends LossOptions {
  /** Pairs labelled -1 cost nothing below this cosine (default 0). */
  margin?: number;
}

/** PyTorch's ε added to each squared magnitude. */
const EPSILON = 1e-12;

/**
 * Cosine embedding loss of pairs x1, x2 ([N, D], or [D] with a 0-d label) labelled 1 (alike)
 * or -1 (unalike) (F.cosine_embedding_loss).
 * @example tpu.nn.cosineEmbeddingLoss(tpu.tensor([[1, 0]]), tpu.tensor([[0, 1]]), tpu.tensor([1])) // 1
 */
export function cosineEmbeddingLoss(x1: Tensor, x2: Tensor, target: Tensor, options: CosineEmbeddingLossOptions = {}): Tensor {
  const who = 'cosineEmbeddingLoss';
  const o = readOptions<CosineEmbeddingLossOptions>(who, options, ['reduction', 'margin']);
  checkTensor(who, 'x1', x1);
  checkTensor(who, 'x2', x2);
  checkTensor(who, 'target', target);
  const margin = numberOption(who, 'margin', o.margin, 0);
  if (!shapesEqual(x1.shape, x2.shape) || (x1.ndim !== 1 && x1.ndim !== 2)) {
    throw new RangeError(`${who}: x1 and x2 must have one shape, [N, D] or [D]; got ${formatShape(x1.shape)} and ${formatShape(x2.shape)}`);
  }
  const batch = x1.ndim === 2 ? [x1.shape[0]!] : [];
  if (!shapesEqual(target.shape, batch)) throw new RangeError(`${who}: target must have shape ${formatShape(batch)} (one label per pair); got ${formatShape(target.shape)}`);
  const d = x1.ndim - 1;
  return composite(who, () => {
    const dot = x1.mul(x2).sum(d);
    const cos = dot.div(x1.mul(x1).sum(d).add(EPSILON).mul(x2.mul(x2).sum(d).add(EPSILON)).sqrt());
    const alike = where(target.eq(1), cos.neg().add(1), 0);
    const unalike = where(target.eq(-1), cos.sub(margin).clamp(0), 0);
    return reduce(alike.add(unalike), o.reduction, who);
  });
}
