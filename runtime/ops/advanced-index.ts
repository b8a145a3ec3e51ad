// x[i, j] with several int tensors or lists (PyTorch's advanced indexing, `logits[arange(n), y]`):
// the indices broadcast together to a shape B, and the result holds x[..., i[b], j[b], ...] for
// each b of B. Where the indexed dims are next to each other, B takes their place in the result;
// where a slice or None separates them, B comes first (NumPy's rule, which PyTorch follows).
// Computed as one index_select along the first indexed dim (its rows for each b), then one
// gather per further dim: each step checks its own index values against its own dim, so an
// index past its dim is an error rather than a neighbouring element.
import { broadcastShapes, formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { fromTheEnd, gather, indexWith } from './gather-scatter.js';

/** An index of `at`: the tensor and the dim of the sliced input it picks along. */
export interface Pick {
  readonly index: Tensor;
  readonly dim: number;
}

/** y (x after its integers, slices and Nones) indexed by `picks`, two or more, in dim order. */
export function advancedIndex(y: Tensor, picks: readonly Pick[]): Tensor {
  const shape = picks.map((p) => p.index.shape).reduce((a, b, k) => broadcastShapes('at', a, b, [`the indices before index ${k}`, `index ${k} ${formatShape(b)}`]));
  const adjacent = picks.every((p, k) => k === 0 || p.dim === picks[k - 1]!.dim + 1);
  // the indexed dims together at `base`: in place when adjacent, else moved to the front
  const order = adjacent ? null : [...picks.map((p) => p.dim), ...y.shape.map((_, d) => d).filter((d) => !picks.some((p) => p.dim === d))];
  const z0 = order ? y.permute(order) : y;
  const base = adjacent ? picks[0]!.dim : 0;
  const count = shape.reduce((a, b) => a * b, 1);
  const flat = (index: Tensor) => index.expand([...shape]).reshape([count]);
  let z = indexWith(z0, flat(picks[0]!.index), base);
  for (const pick of picks.slice(1)) {
    // z: [..., count, n, ...] at base; pick each row's element of dim base + 1
    const n = z.shape[base + 1]!;
    const index = fromTheEnd(flat(pick.index), n);
    const spread = z.shape.map((size, d) => (d === base ? count : d === base + 1 ? 1 : size));
    const view = z.shape.map((_, d) => (d === base ? count : 1));
    z = gather(z, base + 1, index.reshape(view).expand(spread)).squeeze(base + 1);
  }
  return z.reshape([...z.shape.slice(0, base), ...shape, ...z.shape.slice(base + 1)]);
}
