// topk and sort (ONNX TopK; ties keep index order). ONNX gives values and indices from one
// node; ops have one output, so values and indices are two primitives lowering the same
// node, which ONNX Runtime's common-subexpression pass merges inside a fused program.
import { INDEX_DTYPE } from '../dtype.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { formatShape, normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type Abstract } from './op.js';
import { preserveLayout } from '../views/result-layout.js';
import { scatterAddOp } from './gather-scatter.js';
import { zerosLike } from './like.js';
import { installMethods } from '../install-methods.js';
import { ValuesIndices } from './values-indices.js';
import { specialized } from '../jit/live-number.js';

export interface TopkAttrs {
  readonly dim: number;
  readonly k: number;
  readonly largest: boolean;
}

function topkShape(op: string, x: Abstract, { dim, k }: TopkAttrs): number[] {
  if (x.dtype === 'bool') throw new TypeError(`${op}: bool input is not supported`);
  const n = x.shape.length === 0 ? 1 : x.shape[dim]!;
  if (k > n) throw new RangeError(`${op}: k (${k}) is larger than dim ${dim} of the input ${formatShape(x.shape)}`);
  return x.shape.map((m, d) => (d === dim ? k : m));
}

export const topkIndicesOp = defineOp<TopkAttrs>({
  name: 'topkIndices',
  infer: ([x], a) => ({ shape: topkShape('topk', x!, a), dtype: INDEX_DTYPE }),
  grad: 'not-differentiable',
});

export const topkValuesOp = defineOp<TopkAttrs>({
  name: 'topkValues',
  infer: ([x], a) => ({ shape: topkShape('topk', x!, a), dtype: x!.dtype }),
  grad(g, [x], _out, a) {
    const t = x as Tensor;
    if (t.ndim === 0) return [g];
    const indices = apply(topkIndicesOp, [t], a);
    return [apply(scatterAddOp, [zerosLike(t, { dtype: g.dtype }), indices, g], { dim: a.dim })];
  },
});

export interface TopkOptions {
  dim?: number;
  largest?: boolean;
  /** Always sorted here (ONNX TopK); accepted for PyTorch compatibility. */
  sorted?: boolean;
}

const TOPK_KEYS: readonly (keyof TopkOptions)[] = ['dim', 'largest', 'sorted'];

/**
 * topk(k), topk(k, dim, largest?) as PyTorch's positional form, topk(k, { dim, largest }) or
 * topk(k, dim, { largest }).
 * @example tpu.topk(tpu.tensor([1, 5, 3]), 2).values // [5, 3]
 */
export function topk(x: Tensor, k: number, opts: TopkOptions | number = {}, largest?: boolean | Omit<TopkOptions, 'dim'>): ValuesIndices {
  [k, opts] = [specialized(k), specialized(opts)];
  const o: TopkOptions = typeof opts !== 'number' ? readOptions<TopkOptions>('topk', opts, TOPK_KEYS)
    : isOptions(largest) ? withPositional('topk', 'dim', opts, largest, TOPK_KEYS) : { dim: opts, largest };
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`topk: k must be a non-negative integer; got ${JSON.stringify(k)}`);
  if (o.largest !== undefined && typeof o.largest !== 'boolean') throw new TypeError(`topk: largest must be a boolean; got ${JSON.stringify(o.largest)}`);
  const attrs = { dim: normalizeDim('topk', o.dim ?? -1, x.ndim), k, largest: o.largest ?? true };
  return new ValuesIndices(apply(topkValuesOp, [x], attrs), apply(topkIndicesOp, [x], attrs));
}

export interface SortOptions {
  dim?: number;
  descending?: boolean;
  stable?: boolean;
}

const SORT_KEYS: readonly (keyof SortOptions)[] = ['dim', 'descending', 'stable'];

/**
 * Sorted values and their original indices; equal values keep their order. sort(),
 * sort(dim, descending?) as PyTorch's positional form, sort({ dim, descending }) or
 * sort(dim, { descending }).
 * @example tpu.sort(tpu.tensor([3, 1, 2])).indices // [1, 2, 0]
 */
export function sort(x: Tensor, opts: SortOptions | number = {}, descending?: boolean | Omit<SortOptions, 'dim'>): ValuesIndices {
  opts = specialized(opts);
  const o: SortOptions = typeof opts !== 'number' ? readOptions<SortOptions>('sort', opts, SORT_KEYS)
    : isOptions(descending) ? withPositional('sort', 'dim', opts, descending, SORT_KEYS) : { dim: opts, descending };
  if (o.descending !== undefined && typeof o.descending !== 'boolean') throw new TypeError(`sort: descending must be a boolean; got ${JSON.stringify(o.descending)}`);
  const dim = normalizeDim('sort', o.dim ?? -1, x.ndim);
  if (x.dtype === 'bool') {
    // PyTorch sorts bools (False < True); topk orders numbers (and refuses bools, as PyTorch's does)
    const r = sort(x.to('int32'), o);
    return new ValuesIndices(r.values.to('bool'), r.indices);
  }
  const { values, indices } = topk(x, x.ndim === 0 ? 1 : x.shape[dim]!, { dim, largest: o.descending ?? false });
  // PyTorch's sort lays both out as x (preserve_format); topk's are row-major
  return new ValuesIndices(preserveLayout(x, values), preserveLayout(x, indices));
}

/**
 * Indices that sort x along dim (torch.argsort).
 * @example tpu.argsort(x, { dim: -1, descending: true })
 */
export function argsort(x: Tensor, opts: SortOptions | number = {}, descending?: boolean | Omit<SortOptions, 'dim'>): Tensor {
  return sort(x, opts, descending).indices;
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The k largest values and their indices along dim (torch.topk).
     * @example const [values, indices] = x.topk(2); x.topk(2, 0, { largest: false }).values
     */
    topk(k: number, opts?: TopkOptions | number, largest?: boolean | Omit<TopkOptions, 'dim'>): ValuesIndices;
    /**
     * Sorted values and their indices along dim (torch.sort).
     * @example const [values, indices] = x.sort(-1, true); x.sort({ dim: 0, descending: true })
     */
    sort(opts?: SortOptions | number, descending?: boolean | Omit<SortOptions, 'dim'>): ValuesIndices;
    /**
     * Indices that sort x along dim (torch.argsort).
     * @example x.argsort({ descending: true })
     */
    argsort(opts?: SortOptions | number, descending?: boolean | Omit<SortOptions, 'dim'>): Tensor;
  }
}
installMethods({
  topk(k, opts, largest) { return topk(this, k, opts, largest); },
  sort(opts, descending) { return sort(this, opts, descending); },
  argsort(opts, descending) { return argsort(this, opts, descending); },
});
