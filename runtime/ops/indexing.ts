// x.at(...): NumPy/PyTorch subscripts. Each item indexes one dim:
//   3 / -1        an integer: picks one element, the dim goes away
//   '1:5:2' ':'   a Python slice string (start:stop:step, parts optional; step > 0 as in PyTorch)
//   '...'         as many ':' as needed;  null: a new dim of size 1
//   int tensor    picks elements along that dim; several (and lists) index together, broadcast
//                 as PyTorch's advanced indexing: x[arange(n), y] (advanced-index.ts)
//   [1, -1]       a list of integers: the same, as x[[1, -1]] in PyTorch
//   bool tensor   a mask over the leading dims, the only index: x[mask] (masked-select.ts)
// A single string holds a whole subscript: x.at('0, :, ::2') is x[0, :, ::2].
// x.index(idx) is x[idx] with one tensor: an int tensor along dim 0, or a bool mask; x.index(i, j) is x.at(i, j).
import { isInteger } from '../dtype.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { applySlice, fullSlice, resolveRange } from './slice.js';
import { indexWith } from './gather-scatter.js';
import { advancedIndex, type Pick } from './advanced-index.js';
import { maskedIndex } from './masked-select.js';
import { constantTensor } from './constant.js';
import { INT32_INDEX_HINT } from './gather-scatter.js';
import { installMethods } from '../install-methods.js';
import { reshapeKeepingDims } from '../views/layout.js';
import { traced } from '../views/view-tracking.js';
import { LiveNumber, numberValue, specialized } from '../jit/live-number.js';
import { fedStart } from '../jit/live-position.js';

export type IndexItem = number | string | null | Tensor | readonly number[];

/** '1:5:2' -> [1, 5, 2]; absent parts are null. */
function parseSlice(item: string): [number | null, number | null, number] {
  const parts = item.split(':').map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => p !== '' && !/^[+-]?\d+$/.test(p))) {
    throw new SyntaxError(`at: '${item}' is not a slice; write start:stop:step with integers, e.g. '1:5', '::2', '1::3'`);
  }
  const num = (p: string | undefined) => (p === undefined || p === '' ? null : Number(p));
  return [num(parts[0]), num(parts[1]), num(parts[2]) ?? 1];
}

/** Splits a one-string subscript into items: '0, :, ::2' -> [0, ':', '::2']. */
function parseSubscript(spec: string): IndexItem[] {
  return spec.split(',').map((raw) => {
    const p = raw.trim();
    if (p === 'None' || p === 'null') return null;
    if (/^[+-]?\d+$/.test(p)) return Number(p);
    if (p === '...' || p.includes(':')) return p;
    throw new SyntaxError(`at: '${p}' in '${spec}' is not an index: use an integer, a slice like '1:3' or '::2', '...' or 'None'`);
  });
}

/** The items of a subscript, one per dim of x (or null, a new dim): a one-string subscript split, '...' and the dims left out as ':'. */
export function expandItems(x: Tensor, items: readonly IndexItem[]): IndexItem[] {
  const list = items.length === 1 && typeof items[0] === 'string' && (items[0].includes(',') || !items[0].includes(':') && items[0] !== '...') ? parseSubscript(items[0]) : [...items];
  const consumes = (it: IndexItem) => it !== null && it !== '...';
  const used = list.filter(consumes).length;
  const ellipses = list.filter((it) => it === '...').length;
  if (ellipses > 1) throw new SyntaxError("at: only one '...' is allowed");
  if (used > x.ndim) throw new RangeError(`at: ${used} indices for a tensor of ${x.ndim} dims ${formatShape(x.shape)}`);
  const expanded: IndexItem[] = [];
  for (const it of list) {
    if (it === '...') for (let k = 0; k < x.ndim - used; k++) expanded.push(':');
    else expanded.push(it);
  }
  while (expanded.filter(consumes).length < x.ndim) expanded.push(':');
  return expanded;
}

/** A list of integers indexing dim `dim` of size n (x[[0, 2]]): each in [-n, n - 1], else an error naming `op`. */
export function indexList(op: string, list: readonly number[], dim: number, n: number): readonly number[] {
  const values = specialized(list);
  if (!values.every((i) => Number.isInteger(i) && i >= -n && i < n)) {
    throw new RangeError(`${op}: the index list ${JSON.stringify(values)} must hold integers in [${-n}, ${n - 1}] for dim ${dim} of size ${n}`);
  }
  return values;
}

export function at(x: Tensor, items: readonly IndexItem[]): Tensor {
  const mask = items.find((it): it is Tensor => it instanceof Tensor && it.dtype === 'bool');
  if (mask) {
    if (items.length > 1) throw new TypeError(`at: a bool mask must be the only index (x[mask]); got ${items.length} indices: chain .at() calls, e.g. x.at(mask).at(':', 0) for x[mask, 0]`);
    return maskedIndex(x, mask);
  }
  const expanded = expandItems(x, items);
  const attrs = fullSlice(x.shape);
  const outShape: number[] = [];
  /** The input dim of each output dim (-1: a new one), for the layout of the view. */
  const dimOf: number[] = [];
  const picks: Pick[] = [];
  /** Dims picked by a JS number, and their positions: fed to the program (one program for every row). */
  const fed: number[] = [];
  const starts: number[] = [];
  let d = 0;
  for (const it of expanded) {
    if (it === null) {
      outShape.push(1);
      dimOf.push(-1);
      continue;
    }
    const position = typeof it === 'number' || it instanceof LiveNumber;
    if (!position) dimOf.push(d);
    const n = x.shape[d]!;
    if (position) {
      const fits = (i: number) => Number.isInteger(i) && i >= -n && i < n;
      const i = numberValue(it) as number;
      if (!Number.isInteger(i)) throw new TypeError(`at: an index must be an integer; got ${i} for dim ${d}`);
      if (!fits(i)) throw new RangeError(`at: index ${i} is out of range for dim ${d} of size ${n} (input ${formatShape(x.shape)})`);
      attrs.count[d] = 1;
      fed.push(d);
      starts.push(fedStart(it as number, n, `at: the index for dim ${d}`, fits));
    } else if (typeof it === 'string') {
      const [start, stop, step] = parseSlice(it);
      const r = resolveRange('at', n, start, stop, step, `'${it}' for dim ${d}`);
      attrs.begin[d] = r.begin;
      attrs.step[d] = step;
      attrs.count[d] = r.count;
      outShape.push(r.count);
    } else if (it instanceof Tensor || Array.isArray(it)) {
      const list = it instanceof Tensor ? null : indexList('at', it, d, n);
      const index = list ? constantTensor(list, [list.length], 'int32') : it as Tensor;
      if (!isInteger(index.dtype)) throw new TypeError(`at: a tensor index must be int32 or int64, or a bool mask; got ${index.dtype}${index.dtype === 'float32' ? ` ${INT32_INDEX_HINT}` : ''}`);
      picks.push({ index, dim: outShape.length });
      outShape.push(n);
    } else {
      throw new TypeError(`at: an index must be an integer, a slice string, '...', null, a list of integers or an int32 or int64 tensor; got ${JSON.stringify(it)}`);
    }
    d++;
  }
  const select = () => {
    const y = fed.length ? applySlice(x, { begin: attrs.begin, step: attrs.step, count: attrs.count, fed }, starts) : applySlice(x, attrs);
    return outShape.length !== y.ndim || outShape.some((n, i) => n !== y.shape[i]) ? reshapeKeepingDims(dimOf, () => y.reshape(outShape)) : y;
  };
  if (picks.length === 0) return select();
  if (picks.length > 1) return advancedIndex(select(), picks);
  // the strides of the slices picked from (PyTorch indexes a view), for the result's layout
  const { out: y, layout } = traced(x, select);
  return indexWith(y, picks[0]!.index, picks[0]!.dim, layout ? layout.strides : undefined);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * NumPy-style subscript: x.at(0), x.at(1, -1), x.at(':', '::2'), x.at('0, :, ::2'), x.at('...', idx);
     * x.at(mask) with a bool mask over the leading dims is PyTorch's x[mask] (a sync: its count sizes the result).
     * @example tpu.tensor([[1, 2], [3, 4]]).at(1, -1) // 4
     */
    at(...items: IndexItem[]): Tensor;
    /**
     * x[idx] in PyTorch: an int32 or int64 index picks along dim 0 (negatives count from the end);
     * a bool index is a mask over the leading dims, as x.at(mask) (a sync: its count sizes the result);
     * several, x[i, j], index together as x.at(i, j) (PyTorch's advanced indexing, broadcast).
     * @example tpu.tensor([[1, 2, 3], [4, 5, 6]]).index(tpu.arange(2), tpu.tensor([2, 0], { dtype: 'int64' })) // [3, 4]
     * @example tpu.tensor([10, 20, 30]).index(tpu.tensor([2, -3], { dtype: 'int32' })) // [30, 10]
     * @example tpu.tensor([10, 20, 30]).index(tpu.tensor([true, false, true])) // [10, 30]
     */
    index(...indices: [Tensor, ...(Tensor | readonly number[])[]]): Tensor;
  }
}
installMethods({
  at(...items) { return at(this, items); },
  index(...indices) {
    if (indices.length === 0) throw new TypeError('index: give at least one index (x.index(i), or x.index(i, j) for x[i, j])');
    if (indices.length > 1) return at(this, indices);
    const [index] = indices;
    return index instanceof Tensor && index.dtype === 'bool' ? maskedIndex(this, index, 'index(mask)') : indexWith(this, index);
  },
});
