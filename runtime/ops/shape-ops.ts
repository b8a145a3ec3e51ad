// Views built on reshape/permute/expand: squeeze unsqueeze flatten movedim (moveaxis) repeat tile.
import { formatShape, normalizeDim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { tensorArg } from './tensor-arg.js';
import { resolveReshape } from './layout.js';
import { intArgs, intArray, type IntArgs } from '../shape-args.js';
import { reshapeKeepingDims } from '../views/layout.js';
import { specialized } from '../jit/live-number.js';

/**
 * Removes size-1 dims (all, or the given one) (torch.squeeze).
 * @example tpu.squeeze(x, 0)
 */
export function squeeze(x: Tensor, dim?: number | readonly number[]): Tensor {
  const dims = dim === undefined ? x.shape.map((_, i) => i) : (typeof dim === 'number' ? [dim] : dim).map((d) => normalizeDim('squeeze', d, x.ndim));
  // PyTorch: a listed dim whose size is not 1 is left alone.
  const kept = x.shape.map((_, i) => i).filter((i) => !(dims.includes(i) && x.shape[i] === 1));
  return kept.length === x.ndim ? x : reshapeKeepingDims(kept, () => x.reshape(kept.map((i) => x.shape[i]!)));
}

/**
 * Inserts a size-1 dim at dim (torch.unsqueeze).
 * @example tpu.unsqueeze(x, 0)
 */
export function unsqueeze(x: Tensor, dim: number): Tensor {
  const d = normalizeDim('unsqueeze', dim, x.ndim + 1);
  const map = x.shape.map((_, i) => i);
  map.splice(d, 0, -1);
  return reshapeKeepingDims(map, () => x.reshape([...x.shape.slice(0, d), 1, ...x.shape.slice(d)]));
}

/**
 * Joins dims startDim..endDim into one (torch.flatten).
 * @example tpu.flatten(images, 1)
 */
export function flatten(x: Tensor, startDim = 0, endDim = -1): Tensor {
  if (x.ndim === 0) return x.reshape([1]);
  const s = normalizeDim('flatten', startDim, x.ndim, 'startDim');
  const e = normalizeDim('flatten', endDim, x.ndim, 'endDim');
  if (s > e) throw new RangeError(`flatten: startDim ${startDim} comes after endDim ${endDim} for input ${formatShape(x.shape)}`);
  const merged = x.shape.slice(s, e + 1).reduce((a, b) => a * b, 1);
  return x.reshape([...x.shape.slice(0, s), merged, ...x.shape.slice(e + 1)]);
}

/**
 * Splits dim into the given sizes, one of which may be -1 (torch.unflatten): always a view.
 * @example tpu.unflatten(tpu.zeros([2, 6]), 1, [3, -1]).shape // [2, 3, 2]
 */
export function unflatten(x: Tensor, dim: number, sizes: readonly number[]): Tensor {
  const d = normalizeDim('unflatten', dim, x.ndim);
  if (Array.isArray(sizes) && sizes.length === 0) throw new TypeError('unflatten: sizes must be a non-empty array of integers; got []');
  const split = resolveReshape('unflatten', [x.shape[d]!], intArray('unflatten', sizes, 'sizes', -1));
  return x.reshape([...x.shape.slice(0, d), ...split, ...x.shape.slice(d + 1)]);
}

/**
 * Moves dims `source` to positions `destination`, the others keeping their order.
 * @example tpu.movedim(tpu.zeros([2, 3, 4]), 0, -1).shape // [3, 4, 2]
 */
export function movedim(x: Tensor, source: number | readonly number[], destination: number | readonly number[]): Tensor {
  source = specialized(source);
  destination = specialized(destination);
  const src = (typeof source === 'number' ? [source] : source).map((d) => normalizeDim('movedim', d, x.ndim, 'source'));
  const dst = (typeof destination === 'number' ? [destination] : destination).map((d) => normalizeDim('movedim', d, x.ndim, 'destination'));
  if (src.length !== dst.length) throw new RangeError(`movedim: source ${formatShape(src)} and destination ${formatShape(dst)} must have the same length`);
  const perm = new Array<number>(x.ndim).fill(-1);
  src.forEach((s, i) => (perm[dst[i]!] = s));
  const rest = x.shape.map((_, i) => i).filter((i) => !src.includes(i));
  for (let i = 0, k = 0; i < x.ndim; i++) if (perm[i] === -1) perm[i] = rest[k++]!;
  return x.permute(...perm);
}

/** Tiles the tensor `sizes[i]` times along dim i (leading sizes add dims), as torch.Tensor.repeat; sizes checked by shape-args.ts. */
export function repeat(x: Tensor, sizes: readonly number[]): Tensor {
  if (sizes.length < x.ndim) throw new RangeError(`repeat: ${sizes.length} sizes given for an input of ${x.ndim} dims ${formatShape(x.shape)}`);
  const shape = [...new Array(sizes.length - x.ndim).fill(1), ...x.shape];
  // [a, b] -> [1, a, 1, b] -> expand [r0, a, r1, b] -> [r0·a, r1·b]
  const interleaved = shape.flatMap((n) => [1, n]);
  const expanded = sizes.flatMap((r, i) => [r, shape[i]!]);
  return x.reshape(interleaved).expand(expanded).reshape(shape.map((n, i) => n * sizes[i]!));
}

/** torch.tile: like repeat, but fewer reps than dims pads the reps with leading 1s. */
export function tile(x: Tensor, reps: readonly number[]): Tensor {
  return repeat(x, [...new Array(Math.max(x.ndim - reps.length, 0)).fill(1), ...reps]);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Removes size-1 dims: all, or the given ones, as integers or one array (torch.squeeze).
     * @example x.squeeze(0)
     * @example tpu.zeros(1, 2, 1).squeeze(0, 2).shape // [2]
     */
    squeeze(...dims: IntArgs): Tensor;
    /**
     * Inserts a size-1 dim at dim (torch.unsqueeze).
     * @example x.unsqueeze(0)
     */
    unsqueeze(dim: number): Tensor;
    /**
     * Joins dims startDim..endDim into one (torch.flatten).
     * @example x.flatten(1)
     */
    flatten(startDim?: number, endDim?: number): Tensor;
    /**
     * Splits dim into sizes, one may be -1 (torch.unflatten); a view.
     * @example tpu.zeros([2, 6]).unflatten(1, [3, -1]).shape // [2, 3, 2]
     */
    unflatten(dim: number, sizes: readonly number[]): Tensor;
    /**
     * Moves dims to new positions (torch.movedim).
     * @example x.movedim(0, -1)
     */
    movedim(source: number | readonly number[], destination: number | readonly number[]): Tensor;
    /**
     * movedim's NumPy name (torch.moveaxis).
     * @example tpu.zeros([2, 3, 4]).moveaxis(0, -1).shape // [3, 4, 2]
     */
    moveaxis(source: number | readonly number[], destination: number | readonly number[]): Tensor;
    /**
     * Tiles the tensor, repeats[i] times along dim i, as integers or one array (torch.Tensor.repeat).
     * @example x.repeat([2, 1])
     */
    repeat(...sizes: IntArgs): Tensor;
    /**
     * Like repeat, padding the repeats with 1 on the left, as integers or one array (torch.tile).
     * @example x.tile([2])
     * @example tpu.zeros(2, 3).tile(2, 1).shape // [4, 3]
     */
    tile(...reps: IntArgs): Tensor;
    /**
     * expand to the shape of other (torch.expand_as).
     * @example tpu.tensor([[1], [2]]).expandAs(tpu.zeros([2, 3])) // [[1, 1, 1], [2, 2, 2]]
     */
    expandAs(other: Tensor): Tensor;
    /**
     * reshape to the shape of other (torch.reshape_as).
     * @example x.reshapeAs(y)
     */
    reshapeAs(other: Tensor): Tensor;
    /**
     * A view of x in the shape of other (torch.Tensor.view_as).
     * @example tpu.arange(6).viewAs(tpu.zeros([2, 3])).shape // [2, 3]
     */
    viewAs(other: Tensor): Tensor;
  }
}
installMethods({
  squeeze(...dims) { return squeeze(this, dims.length === 0 ? undefined : intArgs('squeeze', dims, 'dims')); },
  unsqueeze(dim) { return unsqueeze(this, dim); },
  flatten(startDim, endDim) { return flatten(this, startDim, endDim); },
  unflatten(dim, sizes) { return unflatten(this, dim, sizes); },
  movedim(source, destination) { return movedim(this, source, destination); },
  moveaxis(source, destination) { return movedim(this, source, destination); },
  repeat(...sizes) { return repeat(this, intArgs('repeat', sizes, 'sizes', 0)); },
  tile(...reps) { return tile(this, intArgs('tile', reps, 'reps', 0)); },
  expandAs(other) { return this.expand([...tensorArg('expandAs', 'other', other).shape]); },
  reshapeAs(other) { return this.reshape([...tensorArg('reshapeAs', 'other', other).shape]); },
  viewAs(other) { return this.view([...tensorArg('viewAs', 'other', other).shape]); },
});
