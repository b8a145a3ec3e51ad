// meshgrid: coordinate grids from 1-D tensors, each an expanded view of its input (as PyTorch's).
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { isOptions, readOptions } from '../options.js';
import { describeValue } from '../distributed/describe-value.js';

export interface MeshgridOptions {
  /** 'ij' (default): tensor i varies along dim i; 'xy': the first two swapped, as NumPy's. */
  indexing?: 'ij' | 'xy';
}

/**
 * Grids of the shape [n0, n1, ...] ([n1, n0, ...] for 'xy'), the k-th holding tensor k's values
 * along its dim (torch.meshgrid): meshgrid([a, b], { indexing }) or meshgrid(a, b). The
 * tensors are 0-d or 1-D, of one dtype.
 * @example tpu.meshgrid([tpu.tensor([1, 2]), tpu.tensor([3, 4, 5])])[1] // [[3, 4, 5], [3, 4, 5]]
 */
export function meshgrid(...args: [readonly Tensor[], MeshgridOptions?] | Tensor[] | [...Tensor[], MeshgridOptions]): Tensor[] {
  const last = args[args.length - 1];
  const options = isOptions(last) ? readOptions<MeshgridOptions>('meshgrid', last, ['indexing']) : {};
  const list = (isOptions(last) ? args.slice(0, -1) : args) as unknown[];
  const tensors = (list.length === 1 && Array.isArray(list[0]) ? list[0] : list) as unknown[];
  const indexing = options.indexing ?? 'ij';
  if (indexing !== 'ij' && indexing !== 'xy') throw new TypeError(`meshgrid: indexing must be 'ij' or 'xy'; got ${JSON.stringify(indexing)}`);
  if (tensors.length === 0) throw new TypeError('meshgrid: expects a non-empty list of tensors');
  tensors.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`meshgrid: tensors[${i}] must be a tensor; got ${describeValue(t)}`);
    if (t.ndim > 1) throw new RangeError(`meshgrid: tensors[${i}] must be 0-D or 1-D, as in PyTorch; got ${formatShape(t.shape)}`);
    if (t.dtype !== (tensors[0] as Tensor).dtype) throw new TypeError(`meshgrid: all tensors must have one dtype, as in PyTorch; tensors[0] is ${(tensors[0] as Tensor).dtype}, tensors[${i}] ${t.dtype}`);
  });
  const sizes = (tensors as Tensor[]).map((t) => t.numel());
  // 'xy': the grid of the first two swapped; each tensor still varies along its own size's dim
  const order = indexing === 'xy' && sizes.length >= 2 ? [1, 0, ...sizes.slice(2).map((_, i) => i + 2)] : sizes.map((_, i) => i);
  const shape = order.map((i) => sizes[i]!);
  return (tensors as Tensor[]).map((t, i) => t.reshape(shape.map((n, d) => (order[d] === i ? n : 1))).expand(shape));
}
