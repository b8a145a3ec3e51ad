// prod (its gradient without dividing by zero), any and all over dims.
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import type { Tensor } from '../tensor.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
import { defineOp } from './op.js';
import { exclusiveCumprod } from './scan.js';
import { reduceAttrs, reducedShape, reduction, spread, type KeepdimOptions, type OneDimOptions, type ReduceAttrs, type ReduceOptions } from './reduce.js';
import { where } from './where.js';
import { installMethods } from '../install-methods.js';

type DimArg = number | readonly number[] | ReduceOptions;

/**
 * Product. Its gradient is PyTorch's: result / x when no element of x is 0, else the product of
 * the others (computed without dividing by zero), a choice for the whole tensor as PyTorch makes
 * it (so a NaN or inf among the values gives its NaNs, as there); x.prod() of two or more zeros
 * gives zeros, selected (an inf gradient gives 0, not inf·0).
 */
// integer and bool products are int64, as PyTorch's
export const prod = reduction('prod', (d) => (isFloating(d) ? d : 'int64'), (g, x, out, attrs) => {
  if (x.ndim === 0) return g; // the product of one value is that value (PyTorch: not g·out/x, NaN at NaN)
  const zero = x.eq(0);
  // the division's zeros replaced by 1: that branch is taken only when there are none
  const quotient = spread(out, x, attrs).div(where(zero, 1, x));
  const grad = g.mul(where(zero.any(), productOfOthers(x, attrs.dims), quotient));
  return attrs.wholeTensor ? where(zero.sum().ge(2), 0, grad) : grad;
});

/** ∏_{j≠i} x_j over dims: exclusive cumulative products from both ends of the flattened dims. */
function productOfOthers(x: Tensor, dims: readonly number[]): Tensor {
  const kept = x.shape.map((_, i) => i).filter((i) => !dims.includes(i));
  const perm = [...kept, ...dims];
  const moved = x.permute(...perm);
  const n = dims.reduce((p, d) => p * x.shape[d]!, 1);
  const rows = moved.reshape([...kept.map((d) => x.shape[d]!), n]);
  const before = exclusiveCumprod(rows);
  const after = exclusiveCumprod(rows.flip(-1)).flip(-1);
  const inverse = new Array<number>(perm.length);
  perm.forEach((p, i) => (inverse[p] = i));
  return before.mul(after).reshape([...moved.shape]).permute(...inverse);
}

/** any / all: bool results over truth values (non-zero is true). */
function truthReduction(name: string) {
  return defineOp<ReduceAttrs>({
    name,
    infer: ([x], attrs) => ({ shape: reducedShape(x!.shape, attrs), dtype: 'bool' }),
    grad: 'not-differentiable',
    attrKey: (a) => `${a.dims.join(',')}${a.keepdim ? 'k' : ''}`,
  });
}
export const anyOp = truthReduction('any');
export const allOp = truthReduction('all');

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Product of elements, over all dims or along one dim (an int, as PyTorch's).
     * @example x.prod(0)
     */
    prod(dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * True if any element (over all dims or along dim) is nonzero.
     * @example x.isnan().any()
     */
    any(dim?: DimArg, keepdim?: boolean | KeepdimOptions): BoolTensor;
    /**
     * True if every element (over all dims or along dim) is nonzero.
     * @example x.gt(0).all()
     */
    all(dim?: DimArg, keepdim?: boolean | KeepdimOptions): BoolTensor;
  }
}

/** prod's arguments, as PyTorch's: one dim (an int), or none: the whole tensor, whose gradient rule differs. */
export function prodAttrs(who: string, x: { readonly ndim: number }, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ReduceAttrs {
  const attrs = reduceAttrs(who, x, dim, keepdim, undefined, 'For the product over several dims, take one dim at a time: x.prod(1).prod(0).');
  return dim === undefined ? { ...attrs, wholeTensor: true } : attrs;
}

installMethods({
  prod(dim, keepdim) { return apply(prod, [this], prodAttrs('prod', this, dim, keepdim)); },
  any(dim, keepdim) { return asBoolTensor(apply(anyOp, [this], reduceAttrs('any', this, dim, keepdim))); },
  all(dim, keepdim) { return asBoolTensor(apply(allOp, [this], reduceAttrs('all', this, dim, keepdim))); },
});
