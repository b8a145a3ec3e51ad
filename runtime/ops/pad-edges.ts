// pad's 'reflect', 'replicate' and 'circular' modes (torch.nn.functional.pad): per padded dim
// one indexSelect with host-computed source indices (program constants): the edge mirrored
// without repeating it, repeated, or the other end wrapped round. Composed, so the gradient is indexSelect's scatter-add, as PyTorch's
// accumulating backward kernels.
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { composite } from '../modes/composite.js';
import { constantTensor } from './constant.js';

export type EdgeMode = 'reflect' | 'replicate' | 'circular';

/** Source index of each output position j ∈ [-before, n + after) along a dim of length n. */
function sourceIndex(mode: EdgeMode, j: number, n: number): number {
  if (mode === 'replicate') return Math.min(Math.max(j, 0), n - 1);
  if (mode === 'circular') return ((j % n) + n) % n;
  return j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
}

/** Why amounts before/after cannot pad a dim of size n in this mode, or undefined. */
function badAmounts(mode: EdgeMode, before: number, after: number, n: number): string | undefined {
  if (mode === 'reflect') return before >= n || after >= n ? 'each amount less than' : undefined;
  if (mode === 'replicate') return n === 0 && before + after > 0 ? 'a non-empty' : undefined;
  if (before > n || after > n) return 'each amount at most (no wrapping round twice)';
  // negative amounts crop first, as PyTorch's; what is left must be there to wrap
  const kept = n + Math.min(before, 0) + Math.min(after, 0);
  return kept < 0 || (kept === 0 && Math.max(before, after) > 0) ? 'a crop leaving some of' : undefined;
}

/**
 * x padded at its last padding.length / 2 dims (1, 2 or 3 of them, after one or two leading
 * dims, as PyTorch's reflection and replication pads take), `padding` last dim first.
 */
export function padEdges(x: Tensor, padding: readonly number[], mode: EdgeMode): Tensor {
  const dims = padding.length / 2;
  if (dims > 3 || x.ndim < dims + 1 || x.ndim > dims + 2) {
    throw new RangeError(`pad: mode '${mode}' pads the last 1, 2 or 3 dims of a tensor with 1 or 2 more dims before them ([C, W] or [N, C, W] for 2 amounts, ...); got ${padding.length} amounts for input ${formatShape(x.shape)}`);
  }
  if (mode !== 'circular' && padding.some((p) => p < 0)) throw new RangeError(`pad: mode '${mode}' takes amounts ≥ 0 (only 'constant' and 'circular' crop); got ${JSON.stringify(padding)}`);
  for (let i = 0; i < dims; i++) {
    const n = x.shape[x.ndim - 1 - i]!;
    const [before, after] = [padding[2 * i]!, padding[2 * i + 1]!];
    const bad = badAmounts(mode, before, after, n);
    if (bad !== undefined) throw new RangeError(`pad: mode '${mode}' needs ${bad} dim ${x.ndim - 1 - i} (size ${n}); got amounts ${before} and ${after}`);
  }
  return composite('pad', () => {
    let y = x;
    for (let i = 0; i < dims; i++) {
      const dim = x.ndim - 1 - i;
      const [before, after] = [padding[2 * i]!, padding[2 * i + 1]!];
      if (before === 0 && after === 0) continue;
      // a negative amount crops first: the wrapped copies are of what is kept (PyTorch's order)
      const lo = Math.max(-before, 0);
      const n = x.shape[dim]! - lo - Math.max(-after, 0);
      const [b, a] = [Math.max(before, 0), Math.max(after, 0)];
      const src = Array.from({ length: b + n + a }, (_, k) => lo + sourceIndex(mode, k - b, n));
      y = y.indexSelect(dim, constantTensor(src, [src.length], 'int32'));
    }
    return y;
  });
}
