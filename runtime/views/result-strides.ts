// ATen's strides of a computed result, so that stride(), isContiguous(), view() and which
// reshapes alias are PyTorch's for results too: an elementwise op (TensorIterator) lays its
// output out in the memory order of its operands; clone(), .to(dtype) and the *Like
// factories (memory_format=preserve_format) copy a dense input's strides. The runtime's
// values are functional, so these numbers are all there is to a result's layout.
import type { Shape } from '../shape.js';
import { contiguousStrides, isContiguous } from './layout.js';

export interface Strided {
  readonly shape: Shape;
  readonly strides: readonly number[];
}

/** torch's is_non_overlapping_and_dense: the elements fill their storage, in some order of dims. */
export function isNonOverlappingAndDense(shape: Shape, strides: readonly number[]): boolean {
  if (isContiguous(shape, strides)) return true;
  // size-0 and size-1 dims sort last and end the check
  const order = shape.map((_, d) => d).sort((a, b) => (shape[a]! < 2 ? (shape[b]! < 2 ? 0 : 1) : shape[b]! < 2 ? -1 : strides[a]! - strides[b]!));
  let expected = 1;
  for (const d of order) {
    if (shape[d]! < 2) return true;
    if (strides[d] !== expected) return false;
    expected *= shape[d]!;
  }
  return true;
}

/** ATen's channels-last (NHWC) contiguity of a 4-d tensor: C, then W, H, N in memory. */
function isChannelsLast(shape: Shape, strides: readonly number[]): boolean {
  if (shape.length !== 4) return false;
  let expected = 1;
  for (const d of [1, 3, 2, 0]) {
    if (shape[d] === 1) continue;
    if (strides[d] !== expected) return false;
    expected *= shape[d]!;
  }
  return true;
}

/**
 * ATen's suggest_memory_format of a 4-d tensor is channels-last (is_channels_last_strides_2d):
 * its strides grow in the order C, W, H, N; ambiguous cases (a single channel, N111) are row-major.
 */
export function suggestsChannelsLast(shape: Shape, strides: readonly number[]): boolean {
  if (shape.length !== 4 || strides[1] === 0) return false;
  let min = 0;
  for (const d of [1, 3, 2, 0]) {
    if (shape[d] === 0 || strides[d]! < min || (d === 0 && min === strides[1])) return false;
    min = strides[d]! * (shape[d]! > 1 ? shape[d]! : 1);
  }
  return true;
}

/** empty(shape, memory_format=channels_last): unlike row-major strides, size 0 is not taken as 1. */
export function channelsLastStrides(shape: Shape): number[] {
  const [, c, h, w] = shape as [number, number, number, number];
  return [h * w * c, 1, w * c, c];
}

/**
 * Insertion sort of dims, fastest first, with ambiguous comparisons (0) leaving the order as
 * it is: ATen's TensorIterator::reorder_dimensions and infer_dense_strides.
 */
function memoryOrder(ndim: number, compare: (a: number, b: number) => number): number[] {
  const perm = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
  for (let i = 1; i < ndim; i++) {
    let d1 = i;
    for (let d0 = i - 1; d0 >= 0; d0--) {
      const c = compare(perm[d0]!, perm[d1]!);
      if (c > 0) {
        [perm[d0], perm[d1]] = [perm[d1]!, perm[d0]!];
        d1 = d0;
      } else if (c < 0) break;
    }
  }
  return perm;
}

/**
 * The strides of an elementwise op's result of `shape` over `operands` (JS scalars as 0-d
 * operands), as ATen's TensorIterator allocates it: operands of the result's shape that are
 * all contiguous (or all channels-last) give that layout, all dense with equal strides give
 * those strides; otherwise the dims are sorted by the operands' strides, the first operand
 * deciding (broadcast dims do not count; equal strides put the smaller dim first).
 */
export function iteratorStrides(shape: Shape, operands: readonly Strided[]): number[] {
  const ndim = shape.length;
  if (ndim === 0) return [];
  if (operands.every((o) => sameShape(o.shape, shape))) {
    if (operands.every((o) => isContiguous(o.shape, o.strides))) return contiguousStrides(shape);
    if (operands.every((o) => isChannelsLast(o.shape, o.strides))) return channelsLastStrides(shape);
    const first = operands[0]!.strides;
    if (operands.every((o) => isNonOverlappingAndDense(o.shape, o.strides) && sameShape(o.strides, first))) {
      // ATen copies the last operand's strides; they are all equal here
      return [...operands[operands.length - 1]!.strides];
    }
  }
  // Each operand's strides over the result's dims: 0 where it is broadcast.
  const aligned = operands.map((o) => {
    const lead = ndim - o.shape.length;
    return shape.map((n, d) => (d < lead || (o.shape[d - lead] === 1 && n !== 1) ? 0 : o.strides[d - lead]!));
  });
  const perm = ndim === 1 ? [0] : memoryOrder(ndim, (a, b) => {
    for (const s of aligned) {
      if (s[a] === 0 || s[b] === 0) continue;
      if (s[a]! !== s[b]!) return s[a]! < s[b]! ? -1 : 1;
      if (shape[a]! > shape[b]!) return 1;
    }
    return 0;
  });
  // the row-major order itself: ATen allocates a contiguous tensor
  if (perm.every((d, i) => d === ndim - 1 - i)) return contiguousStrides(shape);
  const strides = new Array<number>(ndim);
  for (let i = 0, next = 1; i < ndim; i++) {
    strides[perm[i]!] = next;
    next *= shape[perm[i]!]!;
  }
  return strides;
}

/**
 * The strides of a copy made with memory_format=preserve_format (clone, .to(dtype), zerosLike):
 * a dense input's own strides, else dense strides in the input's order of dims (infer_dense_strides).
 */
export function preservedStrides(shape: Shape, strides: readonly number[]): number[] {
  if (isNonOverlappingAndDense(shape, strides)) return [...strides];
  const ndim = shape.length;
  if (ndim === 1) return [1];
  const perm = memoryOrder(ndim, (a, b) => {
    if (strides[a] === 0 || strides[b] === 0) return 0;
    if (strides[a] !== strides[b]) return strides[a]! < strides[b]! ? -1 : 1;
    return shape[a]! > shape[b]! ? 1 : 0;
  });
  const out = new Array<number>(ndim);
  for (let i = 0, next = 1; i < ndim; i++) {
    out[perm[i]!] = next;
    // a size-0 dim counts as 1 here (the tensor has no elements anyway)
    if (shape[perm[i]!]! > 1) next *= shape[perm[i]!]!;
  }
  return out;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}
