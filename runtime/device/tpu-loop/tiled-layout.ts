// XLA:TPU's tiled layouts, read from the shapes of its optimized HLO, e.g.
// `f32[100,60]{0,1:T(8,128)}`: minor_to_major {0,1} (dim 0 is the minor one, laid along the
// 128 lanes), then tiles of 8 x 128 over the two most minor dims. Only the first tile pads:
// the later ones (`(2,1)` packing bf16 pairs) split it evenly. So f32[100,60] above takes
// 64 x 128 x 4 bytes, and a scalar f32[]{:T(128)} 512 bytes: XLA's memory analysis counts the
// same bytes for arguments and outputs.
import type { DType } from '../../dtype.js';

export interface TiledArray {
  /** HLO element type: f32, bf16, s32, pred, ... */
  readonly elementType: string;
  readonly dims: readonly number[];
  readonly minorToMajor: readonly number[];
  /** Tiles in order, e.g. [[8, 128], [2, 1]]; empty for an untiled layout. */
  readonly tiles: readonly (readonly number[])[];
  /** The layout as written, e.g. `1,0:T(8,128)(2,1)`. */
  readonly layout: string;
}

const ELEMENT_BYTES: Record<string, number> = {
  pred: 1, s8: 1, u8: 1, bf16: 2, f16: 2, s16: 2, u16: 2, f32: 4, s32: 4, u32: 4, f64: 8, s64: 8, u64: 8,
};
const HLO_TYPE: Record<DType, string> = { float32: 'f32', bfloat16: 'bf16', int32: 's32', int64: 's64', bool: 'pred' };

/** An array shape with its layout, as HLO text writes it. */
const ARRAY = /\b([a-z]+\d*)\[([\d,]*)\]\{([^}]*)\}/g;

/** `f32[100,60]{0,1:T(8,128)}` -> its parts; undefined for anything else (tuples, tokens). */
export function parseTiledArray(text: string): TiledArray | undefined {
  const m = new RegExp(`^${ARRAY.source}$`).exec(text.trim());
  return m ? fromMatch(m) : undefined;
}

function fromMatch(m: RegExpExecArray): TiledArray | undefined {
  const [, elementType, dimText, layout] = m as unknown as [string, string, string, string];
  const dims = dimText === '' ? [] : dimText.split(',').map(Number);
  const [order = '', tiling = ''] = layout.split(':');
  const minorToMajor = order === '' ? [] : order.split(',').map(Number);
  if (minorToMajor.length !== dims.length) return undefined;
  const tiles = [...tiling.matchAll(/T\(([\d,]+)\)((?:\([\d,]+\))*)/g)].flatMap((t) =>
    [t[1]!, ...[...t[2]!.matchAll(/\(([\d,]+)\)/g)].map((s) => s[1]!)].map((s) => s.split(',').map(Number)));
  return { elementType, dims, minorToMajor, tiles, layout };
}

/**
 * The dims as stored, in the shape's own order: the first tile rounds up the most minor dims
 * (its last entry pads the most minor one). A tile with more dims than the shape pads the
 * missing ones as size-1 dims, which the returned shape leaves out, so [] for a scalar.
 */
export function tiledDims(a: TiledArray): number[] {
  const out = [...a.dims];
  const tile = a.tiles[0] ?? [];
  for (let i = 0; i < Math.min(tile.length, a.dims.length); i++) {
    const dim = a.minorToMajor[i]!;
    const t = tile[tile.length - 1 - i]!;
    out[dim] = Math.ceil(a.dims[dim]! / t) * t;
  }
  return out;
}

/** Bytes of one element; undefined for an element type of unknown size. */
export function elementBytes(a: TiledArray): number | undefined {
  return ELEMENT_BYTES[a.elementType];
}

/** Bytes the array takes on the chip; undefined for an element type of unknown size. */
export function tiledBytes(a: TiledArray): number | undefined {
  const size = elementBytes(a);
  if (size === undefined) return undefined;
  const tile = a.tiles[0] ?? [];
  // Tile dims beyond the shape's rank stand for size-1 dims, padded to the tile.
  const missing = tile.slice(0, Math.max(0, tile.length - a.dims.length));
  return [...tiledDims(a), ...missing].reduce((n, d) => n * d, 1) * size;
}

/** The entry computation's parameters and outputs, from `entry_computation_layout={(...)->...}`. */
export function entryLayout(hloText: string): { parameters: TiledArray[]; outputs: TiledArray[] } | undefined {
  const line = /entry_computation_layout=\{(.*?)\}(?:, [a-z_]+=|$)/m.exec(hloText)?.[1];
  if (line === undefined) return undefined;
  const arrow = line.lastIndexOf(')->');
  if (arrow < 0) return undefined;
  return { parameters: arraysIn(line.slice(0, arrow + 1)), outputs: arraysIn(line.slice(arrow + 3)) };
}

function arraysIn(text: string): TiledArray[] {
  return [...text.matchAll(ARRAY)].map((m) => fromMatch(m)).filter((a) => a !== undefined);
}

/** `%name = <array> op(...)` lines of an HLO module (names are unique in a module). */
const INSTRUCTION = /^\s*(?:ROOT\s+)?%([\w.-]+)\s*=\s*(\S+)\s+([\w-]+)\((.*)$/gm;

/** The operands of every dot and convolution (XLA:TPU's matmuls) of the module, with their layouts. */
export function matmulOperandLayouts(hloText: string): TiledArray[] {
  const byName = new Map<string, TiledArray>();
  const matmuls: string[][] = [];
  for (const m of hloText.matchAll(INSTRUCTION)) {
    const [, name, shape, op, rest] = m as unknown as [string, string, string, string, string];
    const array = parseTiledArray(shape);
    if (array) byName.set(name, array);
    if (op === 'dot' || op === 'convolution') {
      matmuls.push([...rest.split(')')[0]!.matchAll(/%([\w.-]+)/g)].map((o) => o[1]!));
    }
  }
  return matmuls.flat().map((name) => byName.get(name)).filter((a) => a !== undefined);
}

/** The layouts of one module, parsed once. */
export interface ModuleLayouts {
  readonly matmulOperands: readonly TiledArray[];
  /** Every array shape written in the module (parameters, instructions, fusion bodies). */
  readonly all: readonly TiledArray[];
}

export function moduleLayouts(hloText: string): ModuleLayouts {
  return { matmulOperands: matmulOperandLayouts(hloText), all: arraysIn(hloText) };
}

/**
 * The layout XLA:TPU gave an array of this dtype and shape in these modules: as a matmul
 * operand first, else anywhere (a batched operand XLA reshaped still enters as a parameter).
 */
export function findLayout(modules: Iterable<ModuleLayouts>, dtype: DType, shape: readonly number[]): TiledArray | undefined {
  const type = HLO_TYPE[dtype];
  const same = (a: TiledArray) => a.elementType === type && a.dims.length === shape.length && a.dims.every((d, i) => d === shape[i]);
  const list = [...modules];
  for (const m of list) {
    const found = m.matmulOperands.find(same);
    if (found) return found;
  }
  for (const m of list) {
    const found = m.all.find((a) => same(a) && a.tiles.length > 0);
    if (found) return found;
  }
  return undefined;
}
