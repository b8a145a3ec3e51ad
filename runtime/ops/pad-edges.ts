// pad's 'reflect', 'replicate' and 'circular' modes (torch.nn.functional.pad): per padded dim
// one indexSelect with host-computed source indices (program constants): the edge mirrored
// without repeating it, repeated, or the other end wrapped around. Composed, so the gradient is indexSelect's scatter-add, as PyTorch's
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

/**
 * x padded at its last padding.length / 2 dims (1, 2 or 3 of them, after one or two leading
 * dims, as PyTorch's reflection and replication pads take), `padding` last dim first.
 */
export function padEdges(x: Tensor, padding: readonly number[], mode: EdgeMode): Tensor {
  const dims = padding.length / 2;
  if (dims > 3 || x.ndim < dims + 1 || x.ndim > dims + 2) {
    throw new RangeError(`pad: mode '${mode}' pads the last 1, 2 or 3 dims of a tensor with 1 or 2 more dims before them ([C, W] or [N, C, W] for 2 amounts, ...); got ${padding.length} amounts for input ${formatShape(x.shape)}`);
  }
  if (padding.some((p) => p < 0)) throw new RangeError(`pad: mode '${mode}' takes amounts ≥ 0 (only 'constant' crops); got ${JSON.stringify(padding)}`);
  for (let i = 0; i < dims; i++) {
    const n = x.shape[x.ndim - 1 - i]!;
    const [before, after] = [padding[2 * i]!, padding[2 * i + 1]!];
    // PyTorch's limits: reflect mirrors less than the dim, circular wraps at most once around it
    const bad = mode === 'reflect' ? before >= n || after >= n : mode === 'circular' ? before > n || after > n : n === 0 && before + after > 0;
    if (bad) {
      const need = mode === 'reflect' ? 'each amount less than' : mode === 'circular' ? 'each amount at most' : 'a non-empty';
      throw new RangeError(`pad: mode '${mode}' needs ${need} dim ${x.ndim - 1 - i} (size ${n}); got amounts ${before} and ${after}`);
    }
  }
  return composite('pad', () => {
    let y = x;
    for (let i = 0; i < dims; i++) {
      const dim = x.ndim - 1 - i;
      const [before, after] = [padding[2 * i]!, padding[2 * i + 1]!];
      if (before === 0 && after === 0) continue;
      const n = x.shape[dim]!;
      const src = Array.from({ length: before + n + after }, (_, k) => sourceIndex(mode, k - before, n));
      y = y.indexSelect(dim, constantTensor(src, [src.length], 'int32'));
    }
    return y;
  });
}
