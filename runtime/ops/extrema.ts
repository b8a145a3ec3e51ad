// amin, argmax, argmin, and max/min in PyTorch's three forms:
// x.max() (a value), x.max(dim) ((values, indices), values-indices.ts), x.max(other) (elementwise maximum).
import { INDEX_DTYPE, type DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { amax, extremumGrad, reduceAttrs, reducedShape, reduction, type KeepdimOptions, type ReduceAttrs, type OneDimOptions, type ReduceOptions } from './reduce.js';
import { installMethods } from '../install-methods.js';
import { ValuesIndices } from './values-indices.js';
import { tensorArg } from './tensor-arg.js';
import { numberValue } from '../jit/live-number.js';

type DimArg = number | readonly number[] | ReduceOptions;

function noBool(op: string) {
  return (d: DType) => {
    if (d === 'bool') throw new TypeError(`${op}: bool input is not supported; convert it with .to('int32')`);
    return d;
  };
}

export const amin = reduction('amin', noBool('amin'), extremumGrad, { needsElements: true });

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
      if (dim === null) return { shape: keepdim ? x!.shape.map(() => 1) : [], dtype: INDEX_DTYPE };
      return { shape: reducedShape(x!.shape, { dims: [dim], keepdim }), dtype: INDEX_DTYPE };
    },
    grad: 'not-differentiable',
  });
}
export const argmaxOp = argReduction('argmax');
export const argminOp = argReduction('argmin');

export function argAttrs(op: string, x: { readonly ndim: number }, dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): ArgAttrs {
  const o: ArgOptions = isOptions(dim) ? readOptions<ArgOptions>(op, dim, ['dim', 'keepdim'])
    : isOptions(keepdim) ? withPositional(op, 'dim', dim, keepdim, ['dim', 'keepdim']) : { dim: dim as number | undefined, keepdim: keepdim as boolean | undefined };
  if (o.dim === undefined || o.dim === null) return { dim: null, keepdim: o.keepdim ?? false };
  const { dims, keepdim: k } = reduceAttrs(op, x, o.dim, o.keepdim ?? (typeof keepdim === 'boolean' ? keepdim : undefined), undefined,
    `For the index over several dims, flatten them first: x.flatten(start, end).${op}(start).`);
  return { dim: dims[0]!, keepdim: k };
}

export interface ArgOptions {
  dim?: number | null;
  keepdim?: boolean;
}

/** max/min's dim forms: `withDim` when a dim is given (then (values, indices)), else all dims (a value). */
export function extremumArgs(who: string, op: 'max' | 'min', x: { readonly ndim: number }, arg?: DimArg, keepdim?: boolean | KeepdimOptions): { withDim: boolean; attrs: ReduceAttrs } {
  const withDim = typeof numberValue(arg) === 'number' || Array.isArray(arg) || (isOptions(arg) && (arg as ReduceOptions).dim !== undefined);
  return { withDim, attrs: reduceAttrs(who, x, arg, keepdim, undefined, `For the ${op}imum over several dims, x.a${op}(dims) takes a list (values only).`) };
}

function extremum(op: 'max' | 'min', x: Tensor, arg?: Tensor | number | ReduceOptions | readonly number[], keepdim?: boolean | KeepdimOptions): Tensor | ValuesIndices {
  if (arg instanceof Tensor) return op === 'max' ? x.maximum(arg) : x.minimum(arg);
  if (x.dtype === 'bool') {
    // PyTorch orders bools (False < True); the reductions order numbers: int32 there, bool back
    const r = extremum(op, x.to('int32'), arg, keepdim);
    return r instanceof Tensor ? r.to('bool') : new ValuesIndices(r.values.to('bool'), r.indices);
  }
  const { withDim, attrs } = extremumArgs(op, op, x, arg as DimArg, keepdim);
  if (!withDim) return apply(op === 'max' ? amax : amin, [x], { ...attrs, wholeTensor: true });
  const dim = attrs.dims[0]!;
  const kept = apply(op === 'max' ? argmaxOp : argminOp, [x], { dim, keepdim: true });
  // values picked at the indices: the gradient goes to that element only, as in PyTorch
  const values = x.ndim === 0 ? x.mul(1) : x.gather(dim, kept);
  return attrs.keepdim ? new ValuesIndices(values, kept) : new ValuesIndices(values.squeeze(dim), kept.squeeze(dim));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Minimum over all dims or the given dim(s) (torch.amin; values only).
     * @example x.amin(1)
     */
    amin(dim?: DimArg, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * Index of the maximum, of the flattened tensor or along dim (int32).
     * @example logits.argmax(-1)
     */
    argmax(dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * Index of the minimum, of the flattened tensor or along dim (int32).
     * @example x.argmin(0)
     */
    argmin(dim?: number | ArgOptions, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * The largest value (x.max()), per dim with indices (x.max(1): PyTorch's (values, indices)
     * named tuple), or elementwise (x.max(other)).
     * @example const [values, indices] = x.max(1); tpu.tensor([[1, 5], [7, 2]]).max(1).indices // [1, 0]
     */
    max(): Tensor;
    max(other: Tensor): Tensor;
    max(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
    /**
     * Minimum of all elements, or (values, indices) along dim (torch.min), or elementwise.
     * @example x.min(); x.min(1).indices
     */
    min(): Tensor;
    min(other: Tensor): Tensor;
    min(dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
  }
}

installMethods({
  amin(dim, keepdim) {
    // bools as int32 and back: see extremum
    if (this.dtype === 'bool') return this.to('int32').amin(dim, keepdim).to('bool');
    return apply(amin, [this], reduceAttrs('amin', this, dim, keepdim));
  },
  argmax(dim, keepdim) { return apply(argmaxOp, [this], argAttrs('argmax', this, dim, keepdim)); },
  argmin(dim, keepdim) { return apply(argminOp, [this], argAttrs('argmin', this, dim, keepdim)); },
  // Overloaded (three forms each): one body serves them all.
  max: function (this: Tensor, arg?: Tensor | DimArg, keepdim?: boolean | KeepdimOptions) { return extremum('max', this, arg, keepdim); } as Tensor['max'],
  min: function (this: Tensor, arg?: Tensor | DimArg, keepdim?: boolean | KeepdimOptions) { return extremum('min', this, arg, keepdim); } as Tensor['min'],
});

/**
 * torch.max(x), torch.max(x, dim) (values, indices) and torch.max(x, other) (elementwise), as tpu.max.
 * @example tpu.max(tpu.tensor([1, 5]), tpu.tensor([3, 2])) // [3, 5]
 */
export function max(x: Tensor): Tensor;
export function max(x: Tensor, other: Tensor): Tensor;
export function max(x: Tensor, dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
export function max(x: Tensor, arg?: Tensor | DimArg, keepdim?: boolean | KeepdimOptions): Tensor | ValuesIndices {
  return extremum('max', tensorArg('tpu.max', 'input', x), arg, keepdim);
}
/**
 * torch.min(x), torch.min(x, dim) (values, indices) and torch.min(x, other) (elementwise), as tpu.min.
 * @example tpu.min(tpu.tensor([[1, 5], [0, 2]]), 1).values // [1, 0]
 */
export function min(x: Tensor): Tensor;
export function min(x: Tensor, other: Tensor): Tensor;
export function min(x: Tensor, dim: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): ValuesIndices;
export function min(x: Tensor, arg?: Tensor | DimArg, keepdim?: boolean | KeepdimOptions): Tensor | ValuesIndices {
  return extremum('min', tensorArg('tpu.min', 'input', x), arg, keepdim);
}
