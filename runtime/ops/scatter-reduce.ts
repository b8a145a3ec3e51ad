// scatterReduce (torch.scatter_reduce): src combined into x at index along dim by sum, prod,
// mean, amax or amin, with x's own values (includeSelf, the default) or without them. sum is
// scatterAdd, mean a sum over a count; prod, amax and amin are one primitive, `scatterReduce`,
// lowered to each backend's scatter with that combiner, after a plain scatter of ones (prod) or
// of src (amax, amin) where x's own values are left out (a NaN is put back after, where a
// backend's max or min would drop it). The primitive keeps x as given, so its gradient counts
// ties with x's values as PyTorch's does, also where they are left out. bool computes in int32, as or (sum, amax) and and
// (prod, amin), as PyTorch's. scatter is here too: its reduce option ('add', 'multiply') is scatterReduce.
import { isFloating, isInteger } from '../dtype.js';
import { normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { readOptions } from '../options.js';
import { composite } from '../modes/composite.js';
import { describeValue } from '../distributed/describe-value.js';
import { checkHostIndices } from '../host-known-indices.js';
import { defineOp, type OpDef } from './op.js';
import { gatherOp, indexAttrs, indexTensor, INT32_INDEX_HINT, narrowedTo, scatterAddOp, scatterOp, scatterShape, type IndexAttrs } from './gather-scatter.js';
import { numberValue } from '../jit/live-number.js';
import { filled } from './constant.js';
import { zerosLike, onesLike } from './like.js';
import { where } from './where.js';
import { tensorArg } from './tensor-arg.js';

const REDUCTIONS = ['sum', 'prod', 'mean', 'amax', 'amin'] as const;
export type ScatterReduction = (typeof REDUCTIONS)[number];
/** includeSelf false: x's values at the slots src reaches take no part, and no gradient. */
export type ScatterReduceAttrs = IndexAttrs & { reduce: 'prod' | 'amax' | 'amin'; includeSelf: boolean };

export interface ScatterReduceOptions {
  /** Whether x's own values take part (default true, as PyTorch's include_self). */
  includeSelf?: boolean;
}

/** The gradient of prod: g times the product of the slot's other elements (r / v, or for a slot's only zero the product of the rest). */
function prodGrad(g: Tensor, x: Tensor, index: Tensor, src: Tensor, r: Tensor, attrs: ScatterReduceAttrs): Tensor[] {
  const atSrc = (t: Tensor) => apply(gatherOp, [t, index], attrs);
  const zx = x.eq(0);
  const zs = src.eq(0);
  const zeros = apply(scatterAddOp, [attrs.includeSelf ? zx.to(g.dtype) : zerosLike(x, { dtype: g.dtype }), index, zs.to(g.dtype)], attrs);
  const rest = apply(scatterReduceOp, [where(zx, 1, x), index, where(zs, 1, src)], attrs);
  const others = where(zeros.eq(1), rest, 0);
  // r / v with the zeros divided by 1: no NaN made on the way (debug mode checks each op)
  const gx = g.mul(where(zx, others, r.div(where(zx, 1, x))));
  return [gx, atSrc(g).mul(where(zs, atSrc(others), atSrc(r).div(where(zs, 1, src))))];
}

/** The gradient of amax and amin: shared evenly among the elements equal to the result, as PyTorch's. */
function extremumGrad(g: Tensor, x: Tensor, index: Tensor, src: Tensor, r: Tensor, attrs: ScatterReduceAttrs): Tensor[] {
  const atSrc = (t: Tensor) => apply(gatherOp, [t, index], attrs);
  // x's ties count also where x is left out (includeSelf false), as PyTorch's
  const tiesX = x.eq(r);
  const tiesS = src.eq(atSrc(r));
  const count = apply(scatterAddOp, [tiesX.to(g.dtype), index, tiesS.to(g.dtype)], attrs);
  const share = g.div(where(count.eq(0), 1, count));
  return [where(tiesX, share, 0), where(tiesS, atSrc(share), 0)];
}

/** x with src combined in at index along dim by prod, amax or amin, x's values included or not. */
export const scatterReduceOp: OpDef<ScatterReduceAttrs> = defineOp<ScatterReduceAttrs>({
  name: 'scatterReduce',
  readsDeviceIndices: true,
  infer: (inputs, { dim }) => scatterShape('scatterReduce', inputs, dim),
  grad(g, [x, index, src], out, attrs) {
    const [gx, gs] = (attrs.reduce === 'prod' ? prodGrad : extremumGrad)(g, x as Tensor, index as Tensor, src as Tensor, out, attrs);
    // x's values left out take no gradient
    const kept = attrs.includeSelf ? gx! : apply(scatterOp, [gx!, index!, zerosLike(src as Tensor, { dtype: g.dtype })], attrs);
    return [kept, null, gs!];
  },
});

/**
 * x with src combined in at index along dim by `reduce` ('sum', 'prod', 'mean', 'amax' or
 * 'amin'); `{ includeSelf: false }` leaves x's values out of the slots src reaches
 * (torch.scatter_reduce). Integer means round down, as PyTorch's.
 * @example tpu.zeros([3]).scatterReduce(0, tpu.tensor([0, 0, 2], { dtype: 'int64' }), tpu.tensor([1, 5, 2]), 'amax') // [5, 0, 2]
 */
export function scatterReduce(input: Tensor, dim: number, index: Tensor, src: Tensor, reduce: ScatterReduction, options?: ScatterReduceOptions): Tensor {
  const op = 'scatterReduce';
  const x = tensorArg(op, 'input', input);
  tensorArg(op, 'index', index);
  tensorArg(op, 'src', src);
  if (!REDUCTIONS.includes(reduce)) {
    const hint = reduce === ('max' as string) || reduce === ('min' as string) ? ` (PyTorch also takes '${reduce}' for 'a${reduce}': write 'a${reduce}')` : '';
    throw new RangeError(`${op}: reduce must be one of ${REDUCTIONS.join(', ')}; got ${describeValue(reduce)}${hint}`);
  }
  if (!isInteger(index.dtype)) throw new TypeError(`${op}: index must be an int32 or int64 tensor; got ${index.dtype} ${INT32_INDEX_HINT}`);
  const { includeSelf = true } = readOptions<ScatterReduceOptions>(op, options, ['includeSelf']);
  if (typeof includeSelf !== 'boolean') throw new TypeError(`${op}: includeSelf must be true or false; got ${JSON.stringify(includeSelf)}`);
  if (src.dtype !== x.dtype) throw new TypeError(`${op}: src must have the input's dtype ${x.dtype}, as in PyTorch; got ${src.dtype}`);
  if (x.dtype === 'bool' && reduce === 'mean') throw new TypeError(`${op}: reduce 'mean' of bool tensors is not supported, as in PyTorch; convert them with .to('float32')`);
  const d = normalizeDim(op, dim, x.ndim);
  const checked = checkHostIndices(op, 'index', index, x.shape[d]!, false);
  const attrs = indexAttrs(d, checked);
  if (x.dtype === 'bool') return scatterReduce(x.to('int32'), d, index, src.to('int32'), reduce, { includeSelf }).to('bool');
  const s = narrowedTo(src, index);
  return composite(op, () => {
    if (reduce === 'sum' || reduce === 'mean') {
      const base = includeSelf ? x : x.scatter(d, index, 0);
      if (reduce === 'sum') return apply(scatterAddOp, [base, index, s], attrs);
      const count = apply(scatterAddOp, [includeSelf ? onesLike(x) : zerosLike(x), index, onesLike(s)], attrs);
      const total = apply(scatterAddOp, [base, index, s], attrs);
      const divisor = where(count.eq(0), 1, count);
      return isFloating(x.dtype) ? total.div(divisor) : total.floorDivide(divisor);
    }
    const combined = apply(scatterReduceOp, [x, index, s], { ...attrs, reduce, includeSelf });
    if (reduce === 'prod' || !isFloating(x.dtype)) return combined;
    // a NaN among a slot's values makes its max or min NaN, as PyTorch's
    const nanSeen = apply(scatterAddOp, [(includeSelf ? x.isnan() : filled(op, x.shape, false, 'bool', x.chip)).to('int32'), index, s.isnan().to('int32')], attrs);
    return where(nanSeen.gt(0), NaN, combined);
  });
}

export interface ScatterOptions {
  /** Combine src with x's values instead of replacing them: 'add' or 'multiply' (PyTorch's scatter reduce=). */
  reduce?: 'add' | 'multiply';
}

/** PyTorch's scatter reduce= names as scatterReduce's (x's values included, as scatter's reduce does). */
const SCATTER_REDUCE = { add: 'sum', multiply: 'prod' } as const;

/**
 * x with src (a tensor, or one value) written at index along dim: x[.., index[i], ..] = src[i]
 * (torch.scatter); `{ reduce: 'add' | 'multiply' }` combines src with x's values instead, as
 * PyTorch's reduce=. src may be larger than index, as in PyTorch.
 * @example tpu.scatter(tpu.zeros([4]), 0, tpu.tensor(new Int32Array([3, 0])), tpu.tensor([5, 6])) // [6, 0, 0, 5]
 * @example tpu.ones([3]).scatter(0, tpu.tensor([0, 0], { dtype: 'int64' }), 2, { reduce: 'multiply' }) // [4, 1, 1]
 */
export function scatter(x: Tensor, dim: number, index: Tensor, src: Tensor | number | boolean, options?: ScatterOptions): Tensor {
  tensorArg('scatter', 'input', x);
  const idx = indexTensor('scatter', index);
  const { reduce } = readOptions<ScatterOptions>('scatter', options, ['reduce']);
  if (reduce !== undefined && !Object.hasOwn(SCATTER_REDUCE, reduce)) throw new RangeError(`scatter: reduce must be 'add' or 'multiply'; got ${describeValue(reduce)}`);
  const d = normalizeDim('scatter', dim, x.ndim);
  let s: Tensor;
  if (src instanceof Tensor) s = narrowedTo(src, idx);
  // a tpu.compile number argument stays live (a program input), as fill_'s value
  else if (typeof numberValue(src) === 'number' || typeof src === 'boolean') s = filled('scatter', idx.shape, src, x.dtype, x.chip);
  else throw new TypeError(`scatter: src must be a tensor or a number (the value form); got ${describeValue(src)}`);
  if (reduce !== undefined) return scatterReduce(x, d, idx, s, SCATTER_REDUCE[reduce]);
  const checked = checkHostIndices('scatter', 'index', idx, x.shape[d]!, false);
  return apply(scatterOp, [x, idx, s], indexAttrs(d, checked));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * src combined in at index along dim by 'sum', 'prod', 'mean', 'amax' or 'amin'; `{ includeSelf }` (torch.scatter_reduce).
     * @example tpu.tensor([1, 1]).scatterReduce(0, tpu.tensor([0, 0, 1], { dtype: 'int64' }), tpu.tensor([2, 3, 4]), 'prod') // [6, 4]
     */
    scatterReduce(dim: number, index: Tensor, src: Tensor, reduce: ScatterReduction, options?: ScatterReduceOptions): Tensor;
    /**
     * A copy of x with src (a tensor or one value) written at index along dim, or with `{ reduce: 'add' | 'multiply' }` combined with x's values (torch.scatter).
     * @example tpu.zeros([2, 3]).scatter(1, tpu.tensor(new Int32Array([2, 0])).reshape([2, 1]), 7) // [[0, 0, 7], [7, 0, 0]]
     */
    scatter(dim: number, index: Tensor, src: Tensor | number | boolean, options?: ScatterOptions): Tensor;
  }
}
installMethods({
  scatterReduce(dim, index, src, reduce, options) { return scatterReduce(this, dim, index, src, reduce, options); },
  scatter(dim, index, src, options) { return scatter(this, dim, index, src, options); },
});
