// sum and mean over dims (a number, a list, or all), with keepdim.
import { assertDType, isFloating, type DType } from '../dtype.js';
import { formatShape, normalizeDim, type Shape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type OpDef } from './op.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { specialized } from '../jit/live-number.js';
import { installMethods } from '../install-methods.js';
import { where } from './where.js';
import { inShape } from './grad-helpers.js';

export interface ReduceAttrs {
  /** Normalized, sorted, unique dims. */
  readonly dims: readonly number[];
  readonly keepdim: boolean;
  /**
   * Called without a dim (x.max(), x.prod()), where PyTorch's gradient differs from the dim
   * form's: max()/min() share a NaN result's gradient among the NaN elements (its
   * evenly_distribute_backward; amax/amin's is NaN), prod() gives zeros for two or more zeros.
   */
  readonly wholeTensor?: boolean;
  /**
   * mean's result dtype where it is not its floating input's (PyTorch's mean(dtype=...)): the
   * input reduced in float32 as it is and rounded once, as PyTorch's CPU mean (measured: a float32
   * row [1.3, -0.7, 2.9] with dtype=bfloat16 gives 1.1640625, not the 1.171875 of casting first).
   * The gradient is divided in this dtype and then cast to the input's, as PyTorch's.
   */
  readonly dtype?: DType;
}

export function reducedShape(shape: Shape, { dims, keepdim }: ReduceAttrs): number[] {
  const out: number[] = [];
  shape.forEach((d, i) => {
    if (!dims.includes(i)) out.push(d);
    else if (keepdim) out.push(1);
  });
  return out;
}

/** The gradient of a reduction, broadcast back over the reduced dims. */
export function spread(grad: Tensor, input: Tensor, attrs: ReduceAttrs): Tensor {
  const kept = input.shape.map((d, i) => (attrs.dims.includes(i) ? 1 : d));
  return inShape(grad, kept).expand([...input.shape]);
}

export type ReduceGrad = (spreadGrad: Tensor, input: Tensor, out: Tensor, attrs: ReduceAttrs) => Tensor;

/**
 * `needsElements`: reducing an empty dim is an error (max, min), not an identity value;
 * `gradReads`: as OpDef's (sum and mean read no value).
 */
export function reduction(name: string, resultType: (d: DType, attrs: ReduceAttrs) => DType, grad: ReduceGrad, { needsElements = false, gradReads }: { needsElements?: boolean; gradReads?: OpDef['gradReads'] } = {}): OpDef<ReduceAttrs> {
  return defineOp<ReduceAttrs>({
    name,
    infer([x], attrs) {
      if (needsElements && attrs.dims.some((d) => x!.shape[d] === 0)) {
        throw new RangeError(`${name}: cannot reduce over an empty dimension (input ${formatShape(x!.shape)}, dims ${formatShape(attrs.dims)})`);
      }
      return { shape: reducedShape(x!.shape, attrs), dtype: resultType(x!.dtype, attrs) };
    },
    grad: (g, [x], out, attrs) => [grad(spread(g, x as Tensor, attrs), x as Tensor, out, attrs)],
    gradReads,
    attrKey: (a) => `${a.dims.join(',')}${a.keepdim ? 'k' : ''}${a.wholeTensor ? 'w' : ''}${a.dtype ?? ''}`,
  });
}

const floatOnly = (op: string) => (d: DType) => {
  if (!isFloating(d)) throw new TypeError(`${op}: input dtype must be floating point (float32 or bfloat16); got ${d}. Give x.${op}({ dtype: 'float32' }) (PyTorch's dtype=) or x.to('float32').${op}()`);
  return d;
};

// integer and bool sums are int64, as PyTorch's
export const sum = reduction('sum', (d) => (isFloating(d) ? d : 'int64'), (g) => g, { gradReads: 'none' });

// g has the result's dtype, so the division rounds as PyTorch's; backward casts it to the input's
export const mean = reduction('mean', (d, { dtype }) => {
  const input = floatOnly('mean')(d);
  return dtype ?? input;
}, (g, x, _out, { dims }) =>
  g.div(dims.reduce((n, d) => n * x.shape[d]!, 1)),
{ gradReads: 'none' });

/** The gradient of amax/amin: shared evenly between tied extrema. */
export const extremumGrad: ReduceGrad = (g, x, out, attrs) => {
  const extreme = spread(out, x, attrs);
  const tie = x.eq(extreme);
  const count = (hit: Tensor) => spread(hit.to(g.dtype).sum({ dim: [...attrs.dims], keepdim: true }), x, attrs);
  // amax/amin multiply by the mask (PyTorch's scale_grad_by_count); max()/min() select, as its
  // masked_fill does (a NaN gradient gives the others 0)
  if (!attrs.wholeTensor) return g.mul(tie.to(g.dtype)).div(count(tie));
  const hit = tie.logicalOr(x.isnan().logicalAnd(extreme.isnan()));
  return where(hit, g.div(count(hit)), 0);
};

/** Maximum over dims (values only). */
export const amax = reduction('amax', (d) => {
  if (d === 'bool') throw new TypeError('amax: bool input is not supported');
  return d;
}, extremumGrad, { needsElements: true });

export interface ReduceOptions {
  dim?: number | readonly number[];
  keepdim?: boolean;
}
export const REDUCE_KEYS: readonly (keyof ReduceOptions)[] = ['dim', 'keepdim'];
/** The options of a reduction whose PyTorch dim is one int (max, min, prod). */
export interface OneDimOptions extends ReduceOptions {
  dim?: number;
}
/** The options after a positional dim: `x.sum(1, { keepdim: true })`. */
export type KeepdimOptions = Omit<ReduceOptions, 'dim'>;

/** The options of sum and mean. */
export interface SumOptions extends ReduceOptions {
  /** The result's dtype (PyTorch's sum(dtype=...), mean(dtype=...)): sum casts the input to it first. */
  dtype?: DType;
}

/**
 * Accepts x.sum(), x.sum(1), x.sum([0, 1], true), x.sum({ dim: 1, keepdim: true }) and
 * x.sum(1, { keepdim: true }). `oneDim`: the op's PyTorch dim is one int (max, min, argmax,
 * argmin, prod), so a list is an error rather than a reduction over several dims; the string
 * says what does reduce over several.
 */
export function reduceAttrs(
  op: string, x: { readonly ndim: number }, dimOrOptions?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions,
  accepted: readonly string[] = REDUCE_KEYS, oneDim?: string,
): ReduceAttrs {
  let dim: number | readonly number[] | undefined;
  let keep: unknown = keepdim;
  if (isOptions(keepdim)) {
    const o = withPositional(op, 'dim', dimOrOptions, keepdim, accepted) as ReduceOptions;
    dim = o.dim;
    keep = o.keepdim;
  } else if (isOptions(dimOrOptions)) {
    const o = readOptions<ReduceOptions>(op, dimOrOptions, accepted as (keyof ReduceOptions)[]);
    dim = o.dim;
    keep = o.keepdim ?? keepdim;
  } else dim = dimOrOptions as number | readonly number[] | undefined;
  dim = specialized(dim);
  if (keep !== undefined && typeof keep !== 'boolean') throw new TypeError(`${op}: keepdim must be a boolean; got ${JSON.stringify(keep)}`);
  if (dim !== undefined && typeof dim !== 'number' && !Array.isArray(dim)) {
    throw new TypeError(`${op}: dim must be a number or an array of numbers; got ${JSON.stringify(dim)}`);
  }
  if (oneDim !== undefined && Array.isArray(dim)) {
    throw new TypeError(`${op}: dim must be one integer, as in PyTorch's ${op}; got the array ${JSON.stringify(dim)}. ${oneDim}`);
  }
  // One dim, the common case, without the list, set and sort.
  if (typeof dim === 'number') return { dims: [normalizeDim(op, dim, x.ndim)], keepdim: (keep as boolean | undefined) ?? false };
  const list = dim === undefined || dim.length === 0 ? Array.from({ length: x.ndim }, (_, i) => i) : (dim as number[]);
  const dims = list.map((d) => normalizeDim(op, d, x.ndim)).sort((a, b) => a - b);
  // PyTorch refuses a dim named twice (sum([1, -1]) of a matrix); reducing once would hide the slip
  const twice = dims.find((d, i) => dims[i + 1] === d);
  if (twice !== undefined) throw new RangeError(`${op}: dim ${twice} appears multiple times in the list of dims ${JSON.stringify(dim)}, as PyTorch refuses`);
  return { dims, keepdim: (keep as boolean | undefined) ?? false };
}

/**
 * sum's and mean's arguments: reduceAttrs' and the result's dtype (undefined when none is
 * asked for). mean's must be floating point: PyTorch's mean(dtype=torch.long) raises.
 */
export function sumArgs(op: 'sum' | 'mean' | 'nansum' | 'nanmean' | `DTensor.${'sum' | 'mean' | 'nansum' | 'nanmean'}`, x: { readonly ndim: number }, dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): { attrs: ReduceAttrs; dtype: DType | undefined } {
  const attrs = reduceAttrs(op, x, dim, keepdim, ['dim', 'keepdim', 'dtype']);
  const options = isOptions(keepdim) ? keepdim : isOptions(dim) ? dim : undefined;
  const given = (options as SumOptions | undefined)?.dtype;
  const dtype = given === undefined ? undefined : assertDType(given, op);
  if (dtype !== undefined && op.endsWith('mean') && !isFloating(dtype)) throw new TypeError(`${op}: dtype must be floating point, as PyTorch's mean(dtype=...); got ${dtype}`);
  return { attrs, dtype };
}

/**
 * A sum in the dtype its `{ dtype }` asked for: the primitive sums integers in int64, and
 * PyTorch's sum(dtype=torch.int32) is int32 (wrapping as int32 arithmetic does).
 */
export function inAskedDType(out: Tensor, dtype: DType | undefined): Tensor {
  return dtype === undefined || out.dtype === dtype ? out : out.to(dtype);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Sum of elements, over all dims or the given dim(s); keepdim keeps them as size 1.
     * @example x.sum(); x.sum(1); x.sum(1, { keepdim: true }); x.sum({ dim: [0, 1], keepdim: true })
     */
    sum(dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor;
    /**
     * Mean of elements, over all dims or the given dim(s); `{ dtype }` is the result's (an int input needs it).
     * @example x.mean(-1, true); x.mean(0, { dtype: 'float32' }) // of an int tensor
     */
    mean(dim?: number | readonly number[] | SumOptions, keepdim?: boolean | Omit<SumOptions, 'dim'>): Tensor;
    /**
     * Maximum over all dims or the given dim(s) (torch.amax; values only).
     * @example x.amax(1)
     */
    amax(dim?: number | readonly number[] | ReduceOptions, keepdim?: boolean | KeepdimOptions): Tensor;
  }
}
installMethods({
  sum(dim, keepdim) {
    const { attrs, dtype } = sumArgs('sum', this, dim, keepdim);
    return inAskedDType(apply(sum, [dtype === undefined ? this : this.to(dtype)], attrs), dtype);
  },
  mean(dim, keepdim) {
    const { attrs, dtype } = sumArgs('mean', this, dim, keepdim);
    // the primitive reduces floats: an int input goes in as float32
    const x = dtype === undefined || isFloating(this.dtype) ? this : this.to('float32');
    return apply(mean, [x], dtype === undefined || dtype === x.dtype ? attrs : { ...attrs, dtype });
  },
  amax(dim, keepdim) {
    // PyTorch orders bools (False < True); the reduction orders numbers: int32 there, bool back
    if (this.dtype === 'bool') return this.to('int32').amax(dim, keepdim).to('bool');
    return apply(amax, [this], reduceAttrs('amax', this, dim, keepdim));
  },
});
