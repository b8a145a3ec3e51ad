// Writes through indices in place: x.indexPut_, indexAdd_, indexCopy_, indexFill_, scatter_,
// scatterAdd_, scatterReduce_ (each the
// op's value written back into x, so views and other names of x see it), and setItem, PyTorch's
// x[items] = v with any subscript: the numbers, slices and nulls pick a view of x, the tensors
// and lists index_put_ into it (what a cell's `x[idx] = v` runs).
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { upload } from '../upload.js';
import { arithmeticInPlace } from './inplace-ops.js';
import { expandItems, indexList, type IndexItem } from '../ops/indexing.js';
import { indexPutAs, type IndexPutOptions, type PutIndex } from '../ops/index-put.js';
import type { IndexAddOptions } from '../ops/index-update.js';
import type { ScatterOptions, ScatterReduceOptions, ScatterReduction } from '../ops/scatter-reduce.js';
import { LiveNumber } from '../jit/live-number.js';

type Values = Tensor | number | boolean;

/** The item's index for indexPut_ into the view: a tensor as it is, a list uploaded (its values then known on the host), else null (a whole dim). */
function putIndex(item: IndexItem, dim: number, size: number, chip: number): PutIndex {
  if (item instanceof Tensor) return item;
  if (!Array.isArray(item)) return null;
  const list = indexList('setItem', item, dim, size);
  return upload('setItem', () => Int32Array.from(list), [list.length], 'int32', chip);
}

/** value without its leading dims of size 1, as PyTorch's __setitem__ takes it (index_put_ itself does not). */
function withoutLeadingOnes(value: Values): Values {
  if (!(value instanceof Tensor)) return value;
  const lead = value.shape.findIndex((n) => n !== 1);
  const drop = lead === -1 ? value.ndim : lead;
  return drop === 0 ? value : value.reshape(value.shape.slice(drop));
}

/** x[items] = value, as PyTorch's __setitem__. */
function setItem(x: Tensor, items: readonly IndexItem[], given: Values): Tensor {
  const value = withoutLeadingOnes(given);
  if (!Array.isArray(items)) throw new TypeError(`setItem: items must be a list of indices, as x.at takes them (x.setItem([':', idx], v)); got ${describeValue(items)}`);
  const mask = items.find((it) => it instanceof Tensor && it.dtype === 'bool');
  if (mask) {
    if (items.length > 1) throw new TypeError(`setItem: a bool mask must be the only index (x[mask] = v); got ${items.length} indices`);
    return x.indexPut_([mask as Tensor], value);
  }
  const expanded = expandItems(x, items);
  const indices: PutIndex[] = [];
  let d = 0;
  for (const item of expanded) {
    // a null is a new dim of size 1 in the view; a number's dim goes away (a tpu.compile number
    // argument's too: a row position, fed to the program)
    if (item === null) indices.push(null);
    else if (typeof item !== 'number' && !(item instanceof LiveNumber)) indices.push(putIndex(item, d, x.shape[d]!, x.chip));
    if (item !== null) d++;
  }
  const basic = expanded.map((it) => (it instanceof Tensor || Array.isArray(it) ? ':' : it));
  const whole = basic.every((it) => it === ':');
  const view = whole ? x : x.at(...basic);
  if (indices.some((i) => i !== null)) view.indexPut_(indices, value);
  else if (value instanceof Tensor) view.copy_(value);
  else view.fill_(value);
  return x;
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * In place: values written (or with accumulate added) at x[indices], as indexPut; returns x (torch.Tensor.index_put_).
     * @example tpu.zeros([2, 2]).indexPut_([tpu.tensor([1], { dtype: 'int64' }), tpu.tensor([0], { dtype: 'int64' })], 7) // [[0, 0], [7, 0]]
     */
    indexPut_(indices: readonly PutIndex[], values: Values, accumulate?: boolean | IndexPutOptions): Tensor;
    /**
     * In place: alpha·source added to the slices along dim at index, as indexAdd; returns x (torch.Tensor.index_add_).
     * @example tpu.zeros([3]).indexAdd_(0, tpu.tensor(new Int32Array([1, 1])), tpu.tensor([1, 2])) // [0, 3, 0]
     */
    indexAdd_(dim: number, index: Tensor, source: Tensor, options?: IndexAddOptions): Tensor;
    /**
     * In place: the slices along dim at index replaced by source's, as indexCopy; returns x (torch.Tensor.index_copy_).
     * @example tpu.zeros([3]).indexCopy_(0, tpu.tensor(new Int32Array([2])), tpu.tensor([5])) // [0, 0, 5]
     */
    indexCopy_(dim: number, index: Tensor, source: Tensor): Tensor;
    /**
     * In place: value written to the slices along dim at index, as indexFill; returns x (torch.Tensor.index_fill_).
     * @example tpu.zeros([3]).indexFill_(0, tpu.tensor(new Int32Array([0, 2])), 1) // [1, 0, 1]
     */
    indexFill_(dim: number, index: Tensor, value: number | boolean | Tensor): Tensor;
    /**
     * In place: src (a tensor or one value) written at index along dim, or combined with `{ reduce: 'add' | 'multiply' }`, as scatter; returns x (torch.Tensor.scatter_).
     * @example tpu.zeros([2, 3]).scatter_(1, tpu.tensor([[2], [0]], { dtype: 'int64' }), 1) // [[0, 0, 1], [1, 0, 0]]
     */
    scatter_(dim: number, index: Tensor, src: Tensor | number | boolean, options?: ScatterOptions): Tensor;
    /**
     * In place: src added at index along dim, as scatterAdd; returns x (torch.Tensor.scatter_add_).
     * @example tpu.zeros([3]).scatterAdd_(0, tpu.tensor([1, 1], { dtype: 'int64' }), tpu.tensor([1, 2])) // [0, 3, 0]
     */
    scatterAdd_(dim: number, index: Tensor, src: Tensor): Tensor;
    /**
     * In place: src combined in at index along dim by `reduce`, as scatterReduce; returns x (torch.Tensor.scatter_reduce_).
     * @example tpu.ones([2]).scatterReduce_(0, tpu.tensor([0, 0], { dtype: 'int64' }), tpu.tensor([2, 3]), 'prod') // [6, 1]
     */
    scatterReduce_(dim: number, index: Tensor, src: Tensor, reduce: ScatterReduction, options?: ScatterReduceOptions): Tensor;
    /**
     * In place: x[items] = value, as PyTorch's; items as x.at takes them (numbers, slice strings,
     * '...', null, int or bool tensors, lists of integers). Numbers and slices write through a
     * view; index tensors and lists as indexPut_ (of repeated positions the last write is kept).
     * A cell's `x[idx] = v` and `x[':', idx] = v` run it. Returns x.
     * @example tpu.zeros([2, 3]).setItem([':', [0, 2]], 1) // [[1, 0, 1], [1, 0, 1]]
     */
    setItem(items: readonly IndexItem[], value: Values): Tensor;
  }
}
installMethods({
  indexPut_(indices, values, accumulate) { return arithmeticInPlace('indexPut_', this, (self) => indexPutAs('indexPut_', self, indices, values, accumulate)); },
  indexAdd_(dim, index, source, options) { return arithmeticInPlace('indexAdd_', this, (self) => self.indexAdd(dim, index, source, options)); },
  indexCopy_(dim, index, source) { return arithmeticInPlace('indexCopy_', this, (self) => self.indexCopy(dim, index, source)); },
  indexFill_(dim, index, value) { return arithmeticInPlace('indexFill_', this, (self) => self.indexFill(dim, index, value)); },
  scatter_(dim, index, src, options) { return arithmeticInPlace('scatter_', this, (self) => self.scatter(dim, index, src, options), options?.reduce === 'multiply' ? [this, src] : []); },
  scatterAdd_(dim, index, src) { return arithmeticInPlace('scatterAdd_', this, (self) => self.scatterAdd(dim, index, src)); },
  // prod, amax and amin read x's old values in their gradient
  scatterReduce_(dim, index, src, reduce, options) { return arithmeticInPlace('scatterReduce_', this, (self) => self.scatterReduce(dim, index, src, reduce, options), [this, src]); },
  setItem(items, value) { return setItem(this, items, value); },
});
