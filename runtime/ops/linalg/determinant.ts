// det and slogdet (torch.linalg.det, torch.linalg.slogdet) from the pivots of elimination.ts:
// det = sign·Πpivots, a chain of products whose gradient is right at singular matrices too.
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { SignLogAbsDet } from './named-results.js';
import { filled } from '../constant.js';
import { stack } from '../concat.js';
import { eliminate } from './elimination.js';
import { squareArg } from './matrix-args.js';

/** The pivots and row-swap sign of A's elimination, and A's batch shape. */
function pivotsOf(a: Tensor): { pivots: readonly Tensor[]; sign: Tensor; batch: number[] } {
  const { pivots, sign } = eliminate(a, a.shape[a.ndim - 1]!);
  return { pivots, sign, batch: a.shape.slice(0, -2) };
}

/**
 * Determinant of each square matrix [..., n, n] (torch.linalg.det, torch.det); 0 for a
 * singular matrix, 1 for a 0×0 one.
 * @example tpu.linalg.det(tpu.tensor([[1, 2], [3, 4]])) // -2
 */
export function det(a: Tensor): Tensor {
  squareArg('linalg.det', 'A', a);
  if (a.shape[a.ndim - 1] === 0) return filled('linalg.det', a.shape.slice(0, -2), 1, a.dtype, a.chip);
  return composite('linalg.det', () => {
    const { pivots, sign, batch } = pivotsOf(a);
    return pivots.reduce((d, p) => d.mul(p), sign).reshape(batch);
  });
}

/**
 * The sign of each determinant and the log of its magnitude (torch.linalg.slogdet), without
 * the overflow of det: a singular matrix gives sign 0 and logabsdet -inf.
 * @example tpu.linalg.slogdet(tpu.tensor([[-2, 0], [0, 3]])).logabsdet // 1.791759
 */
export function slogdet(a: Tensor): SignLogAbsDet {
  squareArg('linalg.slogdet', 'A', a);
  if (a.shape[a.ndim - 1] === 0) {
    const batch = a.shape.slice(0, -2);
    return new SignLogAbsDet(filled('linalg.slogdet', batch, 1, a.dtype, a.chip), filled('linalg.slogdet', batch, 0, a.dtype, a.chip));
  }
  // one composed op: both results from one elimination, stacked, then taken apart
  const both = composite('linalg.slogdet', () => {
    const { pivots, sign, batch } = pivotsOf(a);
    const s = pivots.reduce((d, p) => d.mul(p.sign()), sign);
    const log = pivots.map((p) => p.abs().log()).reduce((x, y) => x.add(y));
    return stack([s.reshape(batch), log.reshape(batch)]);
  });
  return new SignLogAbsDet(both.select(0, 0), both.select(0, 1));
}
