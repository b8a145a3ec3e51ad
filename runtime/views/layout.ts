// PyTorch's memory layout of a view: strides and a storage offset into its base's (contiguous)
// storage. The runtime's values are functional, but which reshapes alias, which views exist
// and which writes are allowed follow from these numbers, as in PyTorch.
import type { Shape } from '../shape.js';
import type { Operand } from '../ops/op.js';
import { sliceBegin, type SliceAttrs } from '../ops/slice.js';

export interface Layout {
  readonly strides: readonly number[];
  readonly offset: number;
}

/** Row-major strides: the layout of every tensor that is not a view. */
export function contiguousStrides(shape: Shape): number[] {
  const strides = new Array<number>(shape.length);
  for (let d = shape.length - 1, s = 1; d >= 0; d--) {
    strides[d] = s;
    s *= Math.max(shape[d]!, 1);
  }
  return strides;
}

/** torch.Tensor.is_contiguous: size-1 dims' strides do not matter; an empty tensor is contiguous. */
export function isContiguous(shape: Shape, strides: readonly number[]): boolean {
  if (shape.some((n) => n === 0)) return true;
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] === 1) continue;
    if (strides[d] !== expected) return false;
    expected *= shape[d]!;
  }
  return true;
}

/** Two elements share one memory location (an expanded dim): PyTorch refuses most writes. */
export function hasInternalOverlap(shape: Shape, strides: readonly number[]): boolean {
  return shape.some((n, d) => n > 1 && strides[d] === 0);
}

/**
 * The strides of `to` viewing a tensor of shape `from` with `strides`, or null when no view
 * exists (ATen's computeStride): the dims split into chunks of memory-contiguous dims, and
 * each chunk must be made of whole new dims.
 */
export function viewStrides(from: Shape, strides: readonly number[], to: Shape): number[] | null {
  if (from.length === 0) return to.map(() => 1);
  const numel = from.reduce((a, b) => a * b, 1);
  if (numel === 0) return sameShape(from, to) ? [...strides] : contiguousStrides(to);
  const out = new Array<number>(to.length);
  let v = to.length - 1;
  let base = strides[from.length - 1]!;
  let chunkNumel = 1;
  let viewNumel = 1;
  for (let d = from.length - 1; d >= 0; d--) {
    chunkNumel *= from[d]!;
    const chunkEnds = d === 0 || (from[d - 1] !== 1 && strides[d - 1] !== chunkNumel * base);
    if (!chunkEnds) continue;
    while (v >= 0 && (viewNumel < chunkNumel || to[v] === 1)) {
      out[v] = viewNumel * base;
      viewNumel *= to[v]!;
      v--;
    }
    if (viewNumel !== chunkNumel) return null;
    if (d > 0) {
      base = strides[d - 1]!;
      chunkNumel = 1;
      viewNumel = 1;
    }
  }
  return v === -1 ? out : null;
}

function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

// squeeze, unsqueeze and at() reshape with a known correspondence of dims (output dim ->
// input dim, -1 for a new size-1 dim): PyTorch keeps the strides of the dims it keeps, even
// of size 1, where a plain reshape would recompute them.
let dimMap: readonly number[] | null = null;

/** Runs `reshape` (one reshape primitive) telling the layout which input dim each output dim is. */
export function reshapeKeepingDims<T>(map: readonly number[], reshape: () => T): T {
  dimMap = map;
  try {
    return reshape();
  } finally {
    dimMap = null;
  }
}

/** Kept dims keep their strides; a new dim gets PyTorch's unsqueeze stride (size · stride of the dim after it). */
function keptStrides(map: readonly number[], strides: readonly number[], to: Shape): number[] {
  const out = new Array<number>(to.length);
  for (let d = to.length - 1; d >= 0; d--) {
    out[d] = map[d]! >= 0 ? strides[map[d]!]! : d === to.length - 1 ? 1 : to[d + 1]! * out[d + 1]!;
  }
  return out;
}

/** The layout of a layout primitive's result from its input's, or null when it cannot be a view. */
export function layoutAfter(op: string, attrs: any, operands: readonly Operand[], from: Shape, layout: Layout, to: Shape): Layout | null {
  const { strides, offset } = layout;
  switch (op) {
    case 'reshape': {
      const map = dimMap;
      dimMap = null;
      const s = map && map.length === to.length ? keptStrides(map, strides, to) : viewStrides(from, strides, to);
      return s && { strides: s, offset };
    }
    case 'permute':
      return { strides: (attrs.perm as number[]).map((p) => strides[p]!), offset };
    case 'expand': {
      const lead = to.length - from.length;
      return { strides: to.map((n, d) => (d < lead ? 0 : from[d - lead] === n ? strides[d - lead]! : 0)), offset };
    }
    case 'slice': {
      const step = (attrs as SliceAttrs).step;
      const begin = sliceBegin(attrs, operands);
      return {
        strides: strides.map((s, d) => s * step[d]!),
        offset: offset + begin.reduce((sum, b, d) => sum + b * strides[d]!, 0),
      };
    }
    default:
      return null;
  }
}
