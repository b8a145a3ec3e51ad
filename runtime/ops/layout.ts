// reshape, permute (transpose, T, mT) and expand: static shapes resolved on the host.
import { formatShape, normalizeDim, numel, type Shape } from '../shape.js';
import { intArgs, type IntArgs } from '../shape-args.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { inShape, unbroadcast } from './grad-helpers.js';
import { installGetters, installMethods } from '../install-methods.js';

export const reshape = defineOp<{ shape: readonly number[] }>({
  name: 'reshape',
  infer: ([x], { shape }) => ({ shape, dtype: x!.dtype }),
  grad: (g, [x]) => [inShape(g, (x as Tensor).shape)],
  gradReads: 'none',
});

export const permute = defineOp<{ perm: readonly number[] }>({
  name: 'permute',
  infer: ([x], { perm }) => ({ shape: perm.map((p) => x!.shape[p]!), dtype: x!.dtype }),
  grad: (g, _x, _out, { perm }) => {
    const inverse = new Array<number>(perm.length);
    perm.forEach((p, i) => (inverse[p] = i));
    return [g.permute(...inverse)];
  },
  gradReads: 'none',
});

export const expand = defineOp<{ shape: readonly number[] }>({
  name: 'expand',
  infer: ([x], { shape }) => ({ shape, dtype: x!.dtype }),
  grad: (g, [x]) => [unbroadcast(g, (x as Tensor).shape)],
  gradReads: 'none',
});

/**
 * Resolves one -1 and checks the element count of integers ≥ -1 (shape-args.ts checks them).
 * Plain loops: reshape runs ~16 times in a W6 training step, and the array methods' closures
 * and copies were ~7 KiB of its allocations.
 */
export function resolveReshape(op: string, from: Shape, to: readonly number[]): number[] {
  let unknownAt = -1;
  let known = 1;
  for (let i = 0; i < to.length; i++) {
    if (to[i] !== -1) known *= to[i]!;
    else if (unknownAt >= 0) throw new RangeError(`${op}: only one dimension can be -1; got ${formatShape(to)}`);
    else unknownAt = i;
  }
  const total = numel(from);
  if (unknownAt >= 0 && known === 0) {
    throw new RangeError(`${op}: cannot reshape ${total} elements into ${formatShape(to)}: with another dimension 0, the -1 could be any size`);
  }
  const out = to.slice();
  if (unknownAt >= 0) out[unknownAt] = total / known;
  if (numel(out) !== total || !Number.isInteger(out[unknownAt] ?? 0)) {
    throw new RangeError(`${op}: shape ${formatShape(to)} is invalid for input of shape ${formatShape(from)} (${total} elements)`);
  }
  return out;
}

/** Sizes for expand: integers ≥ -1 (shape-args.ts checks them), -1 keeping the input's size. */
function resolveExpand(from: Shape, to: readonly number[]): number[] {
  if (to.length < from.length) {
    throw new RangeError(`expand: shape ${formatShape(to)} has fewer dimensions than the input ${formatShape(from)}`);
  }
  const lead = to.length - from.length;
  return to.map((d, i) => {
    const src = i < lead ? undefined : from[i - lead]!;
    const size = d === -1 ? src : d;
    if (size === undefined) throw new RangeError(`expand: -1 is not allowed for the new leading dimension ${i}`);
    if (src !== undefined && src !== 1 && src !== size) {
      throw new RangeError(`expand: input ${formatShape(from)} cannot expand to ${formatShape(to)}: dimension ${i} is ${src}, not 1 or ${size}`);
    }
    return size;
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The same elements in a new shape, as integers or one array; one size may be -1 (torch.reshape).
     * @example tpu.zeros(2, 6).reshape(3, -1).shape // [3, 4]
     * @example x.reshape([2, -1])
     */
    reshape(...shape: IntArgs): Tensor;
    /**
     * The same elements in a new shape, as integers or one array, -1 inferred; a view of this
     * tensor, or PyTorch's error when no strides express it (torch.view).
     * @example tpu.zeros(2, 6).view(-1).shape // [12]
     * @example x.view([4, -1])
     */
    view(...shape: IntArgs): Tensor;
    /**
     * Reorders the dims, as integers or one array (torch.permute).
     * @example images.permute(0, 2, 3, 1)
     */
    permute(...dims: IntArgs): Tensor;
    /**
     * Swaps two dims (torch.transpose; x.T for 2-D).
     * @example x.transpose(0, 1)
     */
    transpose(dim0: number, dim1: number): Tensor;
    /**
     * Broadcasts size-1 dims to a larger shape without copying, as integers or one array; -1
     * keeps a dim's size (torch.expand).
     * @example tpu.zeros(3, 1).expand(3, 4).shape // [3, 4]
     * @example x.expand([2, -1, -1])
     */
    expand(...shape: IntArgs): Tensor;
    /** All dims reversed (the transpose of a matrix). */
    readonly T: Tensor;
    /** The last two dims swapped. */
    readonly mT: Tensor;
  }
}

installMethods({
  reshape(...shape) {
    return apply(reshape, [this], { shape: resolveReshape('reshape', this.shape, intArgs('reshape', shape, 'shape', -1)) });
  },
  view(...shape) {
    return apply(reshape, [this], { shape: resolveReshape('view', this.shape, intArgs('view', shape, 'shape', -1)) });
  },
  permute(...dims) {
    return apply(permute, [this], { perm: readPermutation('permute', dims, this.shape) });
  },
  transpose(dim0, dim1) {
    const a = normalizeDim('transpose', dim0, this.ndim, 'dim0');
    const b = normalizeDim('transpose', dim1, this.ndim, 'dim1');
    const perm = Array.from({ length: this.ndim }, (_, i) => (i === a ? b : i === b ? a : i));
    return apply(permute, [this], { perm });
  },
  expand(...shape) {
    return apply(expand, [this], { shape: resolveExpand(this.shape, intArgs('expand', shape, 'shape', -1)) });
  },
});
/** permute's dims (as numbers or one list), each dim of `shape` once, negative ones counted from the end. */
export function readPermutation(who: string, dims: readonly unknown[], shape: readonly number[]): number[] {
  const perm = intArgs(who, dims, 'dims');
  if (perm.length !== shape.length) {
    throw new RangeError(`${who}: dims ${formatShape(perm)} must list each of the ${shape.length} dims of the input ${formatShape(shape)} once`);
  }
  const norm = perm.map((d) => normalizeDim(who, d, shape.length));
  if (new Set(norm).size !== norm.length) throw new RangeError(`${who}: dims ${formatShape(perm)} repeat a dimension`);
  return norm;
}

installGetters({
  T() {
    return this.ndim < 2 ? this : this.permute(...Array.from({ length: this.ndim }, (_, i) => this.ndim - 1 - i));
  },
  mT() {
    if (this.ndim < 2) throw new RangeError(`mT: the input must have at least 2 dims; got ${formatShape(this.shape)}`);
    return this.transpose(-2, -1);
  },
});
