// amin prod any all argmax argmin, and max/min in PyTorch's three forms:
// x.max() (a value), x.max(dim) ({ values, indices }), x.max(other) (elementwise maximum).
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { exclusiveCumprod } from './scan.js';
import { extremumGrad, reduceAttrs, reducedShape, reduction, type ReduceAttrs, type ReduceOptions } from './reduce.js';

type DimArg = number | readonly number[] | ReduceOptions;

function noBool(op: string) {
  return (d: DType) => {
    if (d === 'bool') throw new TypeError(`${op}: bool input is not supported; convert it with .to('int32')`);
    return d;
  };
}

export const amin = reduction('amin', noBool('amin'), extremumGrad, true);

/** Product; the gradient (product of the others) is computed without dividing by zero. */
export const prod = reduction('prod', (d) => (d === 'bool' ? 'int32' : d), (g, x, _out, attrs) =>
  g.mul(productOfOthers(x, attrs.dims)),
);

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

export interface ArgAttrs {
  /** null: over the flattened input. */
  readonly dim: number | null;
  readonly keepdim: boolean;
}

function argReduction(name: string) {
  return defineOp<ArgAttrs>({
    name,
    infer([x], { dim, keepdim }) {
      if (x!.dtype === 'bool') throw new TypeError(`${name}: bool input is not supported`);
      const n = dim === null ? x!.shape.reduce((a, b) => a * b, 1) : x!.shape[dim]!;
      if (n === 0) throw new RangeError(`${name}: cannot reduce over an empty dimension (input ${formatShape(x!.shape)})`);
      if (dim === null) return { shape: keepdim ? x!.shape.map(() => 1) : [], dtype: 'int32' };
      return { shape: reducedShape(x!.shape, { dims: [dim], keepdim }), dtype: 'int32' };
    },
    grad: 'not-differentiable',
  });
}
export const argmaxOp = argReduction('argmax');
export const argminOp = argReduction('argmin');

function argAttrs(op: string, x: Tensor, dim?: number | ArgOptions, keepdim?: boolean): ArgAttrs {
  const o = typeof dim === 'object' && dim !== null ? dim : { dim, keepdim };
  if (o.dim === undefined || o.dim === null) return { dim: null, keepdim: o.keepdim ?? false };
  const { dims, keepdim: k } = reduceAttrs(op, x, o.dim, o.keepdim ?? keepdim);
  return { dim: dims[0]!, keepdim: k };
}

export interface ArgOptions {
  dim?: number | null;
  keepdim?: boolean;
}

export interface ValuesIndices {
  values: Tensor;
  indices: Tensor;
}

function extremum(op: 'max' | 'min', x: Tensor, arg?: Tensor | number | ReduceOptions | readonly number[], keepdim?: boolean): Tensor | ValuesIndices {
  if (arg instanceof Tensor) return op === 'max' ? x.maximum(arg) : x.minimum(arg);
  const reduceOp = op === 'max' ? 'amax' : 'amin';
  const withDim = typeof arg === 'number' || (typeof arg === 'object' && arg !== null && !Array.isArray(arg) && (arg as ReduceOptions).dim !== undefined);
  const attrs = reduceAttrs(op, x, arg as DimArg, keepdim);
  if (!withDim) return x[reduceOp](attrs.dims, attrs.keepdim);
  if (attrs.dims.length !== 1) throw new TypeError(`${op}: dim must be a single dimension when indices are returned; got ${formatShape(attrs.dims)}`);
  const dim = attrs.dims[0]!;
  const kept = apply(op === 'max' ? argmaxOp : argminOp, [x], { dim, keepdim: true });
  // values picked at the indices: the gradient goes to that element only, as in PyTorch
  const values = x.ndim === 0 ? x.mul(1) : x.gather(dim, kept);
  return attrs.keepdim ? { values, indices: kept } : { values: values.squeeze(dim), indices: kept.squeeze(dim) };
}

declare module '../tensor.js' {
  interface Tensor {
    amin(dim?: DimArg, keepdim?: boolean): Tensor;
    prod(dim?: DimArg, keepdim?: boolean): Tensor;
    any(dim?: DimArg, keepdim?: boolean): Tensor;
    all(dim?: DimArg, keepdim?: boolean): Tensor;
    argmax(dim?: number | ArgOptions, keepdim?: boolean): Tensor;
    argmin(dim?: number | ArgOptions, keepdim?: boolean): Tensor;
    /** The largest value (x.max()), per dim with indices (x.max(1)), or elementwise (x.max(other)). */
    max(): Tensor;
    max(other: Tensor): Tensor;
    max(dim: number | ReduceOptions, keepdim?: boolean): ValuesIndices;
    min(): Tensor;
    min(other: Tensor): Tensor;
    min(dim: number | ReduceOptions, keepdim?: boolean): ValuesIndices;
  }
}

Tensor.prototype.amin = function (dim, keepdim) { return apply(amin, [this], reduceAttrs('amin', this, dim, keepdim)); };
Tensor.prototype.prod = function (dim, keepdim) { return apply(prod, [this], reduceAttrs('prod', this, dim, keepdim)); };
Tensor.prototype.any = function (dim, keepdim) { return apply(anyOp, [this], reduceAttrs('any', this, dim, keepdim)); };
Tensor.prototype.all = function (dim, keepdim) { return apply(allOp, [this], reduceAttrs('all', this, dim, keepdim)); };
Tensor.prototype.argmax = function (dim, keepdim) { return apply(argmaxOp, [this], argAttrs('argmax', this, dim, keepdim)); };
Tensor.prototype.argmin = function (dim, keepdim) { return apply(argminOp, [this], argAttrs('argmin', this, dim, keepdim)); };
(Tensor.prototype as unknown as { max: unknown }).max = function (this: Tensor, arg?: Tensor | DimArg, keepdim?: boolean) {
  return extremum('max', this, arg, keepdim);
};
(Tensor.prototype as unknown as { min: unknown }).min = function (this: Tensor, arg?: Tensor | DimArg, keepdim?: boolean) {
  return extremum('min', this, arg, keepdim);
};
