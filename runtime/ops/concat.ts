// concat (the primitive) and what is built on it: stack, hstack, vstack, split, chunk, roll.
import { isOptions, readOptions } from '../options.js';
import { promoteTypes } from '../dtype.js';
import { formatShape, normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { narrow } from './slice.js';
import { installMethods } from '../install-methods.js';
import { concatLayout } from '../views/result-layout.js';
import { specialized } from '../jit/live-number.js';

export const concatOp = defineOp<{ dim: number }>({
  name: 'concat',
  infer(inputs, { dim }) {
    const first = inputs[0]!;
    let dtype = first.dtype;
    let total = 0;
    inputs.forEach((t, i) => {
      const same = t.shape.length === first.shape.length && t.shape.every((n, d) => d === dim || n === first.shape[d]);
      if (!same) {
        throw new RangeError(`concat: tensor ${i} has shape ${formatShape(t.shape)}, which does not match tensor 0's ${formatShape(first.shape)} outside dim ${dim}`);
      }
      total += t.shape[dim]!;
      dtype = promoteTypes(dtype, t.dtype);
    });
    return { shape: first.shape.map((n, d) => (d === dim ? total : n)), dtype };
  },
  grad(g, inputs, _out, { dim }) {
    let offset = 0;
    return inputs.map((t) => {
      const n = (t as Tensor).shape[dim]!;
      offset += n;
      return narrow(g, dim, offset - n, n);
    });
  },
});

function tensorList(op: string, tensors: readonly Tensor[]): void {
  if (!Array.isArray(tensors) || tensors.length === 0) throw new TypeError(`${op}: tensors must be a non-empty array of tensors`);
  tensors.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`${op}: tensors[${i}] must be a tensor; got ${typeof t}`);
  });
}

/**
 * Joins tensors along an existing dim (torch.cat).
 * @example tpu.concat([tpu.ones([1, 2]), tpu.zeros([1, 2])]) // [[1, 1], [0, 0]]
 */
export function concat(tensors: readonly Tensor[], dim: number | { dim?: number } = 0): Tensor {
  tensorList('concat', tensors);
  const d = isOptions(dim) ? readOptions<{ dim: number }>('concat', dim, ['dim']).dim ?? 0 : dim;
  const first = tensors[0]!;
  if (first.ndim === 0) throw new RangeError('concat: zero-dimensional tensors cannot be concatenated; use tpu.stack');
  const axis = normalizeDim('concat', d, first.ndim);
  return concatLayout(tensors, tensors.length === 1 ? first : apply(concatOp, tensors, { dim: axis }));
}

/**
 * Joins tensors along a new dim.
 * @example tpu.stack([tpu.tensor([1, 2]), tpu.tensor([3, 4])], 1) // [[1, 3], [2, 4]]
 */
export function stack(tensors: readonly Tensor[], dim: number | { dim?: number } = 0): Tensor {
  tensorList('stack', tensors);
  const d = isOptions(dim) ? readOptions<{ dim: number }>('stack', dim, ['dim']).dim ?? 0 : dim;
  const first = tensors[0]!;
  tensors.forEach((t, i) => {
    if (t.shape.length !== first.shape.length || t.shape.some((n, k) => n !== first.shape[k])) {
      throw new RangeError(`stack: tensor ${i} has shape ${formatShape(t.shape)} but tensor 0 has ${formatShape(first.shape)}; all must match`);
    }
  });
  const axis = normalizeDim('stack', d, first.ndim + 1);
  const parts = tensors.map((t) => t.unsqueeze(axis));
  // a new tensor, also of one input (its unsqueezed view is copied)
  return concatLayout(parts, parts.length === 1 ? parts[0]! : apply(concatOp, parts, { dim: axis }));
}

/**
 * Joins tensors along dim 0 when they are 1-D, else along dim 1; a 0-d tensor counts as 1-D
 * (torch.hstack).
 * @example tpu.hstack([tpu.tensor([1, 2]), tpu.tensor([3])]) // [1, 2, 3]
 */
export function hstack(tensors: readonly Tensor[]): Tensor {
  tensorList('hstack', tensors);
  const parts = tensors.map((t) => (t.ndim === 0 ? t.reshape([1]) : t));
  return concat(parts, parts[0]!.ndim === 1 ? 0 : 1);
}

/**
 * Joins tensors along dim 0, a 1-D tensor [n] as a row [1, n] and a 0-d one as [1, 1]
 * (torch.vstack).
 * @example tpu.vstack([tpu.tensor([1, 2]), tpu.tensor([3, 4])]) // [[1, 2], [3, 4]]
 */
export function vstack(tensors: readonly Tensor[]): Tensor {
  tensorList('vstack', tensors);
  return concat(tensors.map((t) => (t.ndim >= 2 ? t : t.reshape([1, t.numel()]))), 0);
}

/**
 * split(size) into pieces of `size` (the last may be smaller) or split([sizes]) exactly.
 * @example tpu.split(tpu.arange(5), 2).map((t) => t.shape) // [[2], [2], [1]]
 */
export function split(x: Tensor, sizes: number | readonly number[], dim = 0): Tensor[] {
  const d = normalizeDim('split', dim, x.ndim);
  const n = x.shape[d]!;
  let list: number[];
  sizes = specialized(sizes);
  if (typeof sizes === 'number') {
    if (!Number.isInteger(sizes) || sizes <= 0) throw new RangeError(`split: split size must be a positive integer; got ${sizes}`);
    list = [];
    for (let s = 0; s < n; s += sizes) list.push(Math.min(sizes, n - s));
    if (n === 0) list.push(0);
  } else {
    list = [...sizes];
    if (!list.every((s) => Number.isInteger(s) && s >= 0) || list.reduce((a, b) => a + b, 0) !== n) {
      throw new RangeError(`split: sizes ${formatShape(list)} must be non-negative integers summing to dim ${dim}'s size ${n}`);
    }
  }
  let offset = 0;
  return list.map((s) => {
    offset += s;
    return x.narrow(d, offset - s, s); // the method: each piece is a view, as in PyTorch
  });
}

/**
 * chunk(k): at most k pieces of ceil(n/k) elements.
 * @example tpu.chunk(tpu.arange(6), 3).length // 3
 */
export function chunk(x: Tensor, chunks: number, dim = 0): Tensor[] {
  chunks = specialized(chunks);
  if (!Number.isInteger(chunks) || chunks <= 0) throw new RangeError(`chunk: chunks must be a positive integer; got ${chunks}`);
  const d = normalizeDim('chunk', dim, x.ndim);
  return split(x, Math.max(1, Math.ceil(x.shape[d]! / chunks)), d);
}

/**
 * Rotates elements along dims (or the flattened tensor when dims are not given).
 * @example tpu.roll(tpu.tensor([1, 2, 3]), 1) // [3, 1, 2]
 */
export function roll(x: Tensor, shifts: number | readonly number[], dims?: number | readonly number[]): Tensor {
  shifts = specialized(shifts);
  dims = specialized(dims);
  const s = typeof shifts === 'number' ? [shifts] : [...shifts];
  if (dims === undefined) {
    if (s.length !== 1) throw new RangeError('roll: without dims, shifts must be one number');
    return roll(x.reshape([-1]), s, 0).reshape([...x.shape]);
  }
  const ds = typeof dims === 'number' ? [dims] : [...dims];
  if (ds.length !== s.length) throw new RangeError(`roll: shifts ${formatShape(s)} and dims ${formatShape(ds)} must have the same length`);
  let y = x;
  ds.forEach((dim, i) => {
    const d = normalizeDim('roll', dim, x.ndim);
    const n = x.shape[d]!;
    if (!Number.isInteger(s[i])) throw new TypeError(`roll: shifts must be integers; got ${s[i]}`);
    const k = n === 0 ? 0 : ((s[i]! % n) + n) % n;
    if (k !== 0) y = apply(concatOp, [narrow(y, d, n - k, k), narrow(y, d, 0, n - k)], { dim: d });
  });
  return y;
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Pieces of `size` along dim (the last may be smaller), or of the listed sizes (torch.split).
     * @example x.split(2, 0)
     */
    split(sizes: number | readonly number[], dim?: number): Tensor[];
    /**
     * At most k pieces along dim (torch.chunk).
     * @example x.chunk(3)
     */
    chunk(chunks: number, dim?: number): Tensor[];
    /**
     * Rotates elements along dims (torch.roll).
     * @example x.roll(1, 0)
     */
    roll(shifts: number | readonly number[], dims?: number | readonly number[]): Tensor;
  }
}
installMethods({
  split(sizes, dim) { return split(this, sizes, dim); },
  chunk(chunks, dim) { return chunk(this, chunks, dim); },
  roll(shifts, dims) { return roll(this, shifts, dims); },
});
