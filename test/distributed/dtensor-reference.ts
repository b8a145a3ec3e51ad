// Float64 host arrays and the few ops the DTensor tests need, written with plain loops, and
// what each chip should hold: torch.chunk pieces taken mesh dimension by mesh dimension.
import { expect } from 'vitest';
import type { DTensor, Placement, Tensor } from 'tpu-kernel/runtime';

export interface Host { shape: number[]; data: number[] }

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function indexOf(shape: readonly number[], flat: number): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = flat % shape[d]!;
    flat = Math.floor(flat / shape[d]!);
  }
  return idx;
}

function flatOf(shape: readonly number[], idx: readonly number[]): number {
  let f = 0;
  for (let d = 0; d < shape.length; d++) f = f * shape[d]! + idx[d]!;
  return f;
}

export function fromFn(shape: number[], f: (idx: number[]) => number): Host {
  return { shape, data: Array.from({ length: size(shape) }, (_, i) => f(indexOf(shape, i))) };
}

/** Deterministic values in [-5, 6), with fractions. */
export function values(shape: number[], seed = 1): Host {
  return fromFn(shape, (idx) => Math.round(((flatOf(shape, idx) * 3.17 + seed * 7.31) % 11) * 100) / 100 - 5);
}

export function map(h: Host, f: (v: number) => number): Host {
  return { shape: h.shape, data: h.data.map(f) };
}

/** NumPy broadcasting. */
export function zip(a: Host, b: Host, f: (x: number, y: number) => number): Host {
  const n = Math.max(a.shape.length, b.shape.length);
  const pad = (s: number[]) => [...new Array<number>(n - s.length).fill(1), ...s];
  const sa = pad(a.shape);
  const sb = pad(b.shape);
  const shape = sa.map((m, d) => Math.max(m, sb[d]!));
  return fromFn(shape, (idx) => f(
    a.data[flatOf(sa, idx.map((i, d) => (sa[d] === 1 ? 0 : i)))]!,
    b.data[flatOf(sb, idx.map((i, d) => (sb[d] === 1 ? 0 : i)))]!,
  ));
}

export function matmul(a: Host, b: Host): Host {
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  return fromFn([m, n], ([i, j]) => {
    let s = 0;
    for (let t = 0; t < k; t++) s += a.data[i! * k + t]! * b.data[t * n + j!]!;
    return s;
  });
}

export function reduce(h: Host, dims: number[], keepdim: boolean, kind: 'sum' | 'mean' | 'amax'): Host {
  const kept = h.shape.map((m, d) => (dims.includes(d) ? 1 : m));
  const acc = new Array<number>(size(kept)).fill(kind === 'amax' ? -Infinity : 0);
  h.data.forEach((v, i) => {
    const o = flatOf(kept, indexOf(h.shape, i).map((x, d) => (dims.includes(d) ? 0 : x)));
    acc[o] = kind === 'amax' ? Math.max(acc[o]!, v) : acc[o]! + v;
  });
  const count = dims.reduce((c, d) => c * h.shape[d]!, 1);
  return { shape: keepdim ? kept : h.shape.filter((_, d) => !dims.includes(d)), data: kind === 'mean' ? acc.map((v) => v / count) : acc };
}

export function softmax(h: Host, dim: number): Host {
  const max = reduce(h, [dim], true, 'amax');
  const e = zip(h, max, (x, m) => Math.exp(x - m));
  return zip(e, reduce(e, [dim], true, 'sum'), (x, s) => x / s);
}

export function permute(h: Host, perm: number[]): Host {
  return fromFn(perm.map((d) => h.shape[d]!), (idx) => {
    const src = new Array<number>(h.shape.length);
    perm.forEach((d, i) => (src[d] = idx[i]!));
    return h.data[flatOf(h.shape, src)]!;
  });
}

/** torch.chunk(h, n, dim)[c] (an empty piece past the end). */
export function chunk(h: Host, dim: number, n: number, c: number): Host {
  const step = Math.ceil(h.shape[dim]! / n);
  const start = Math.min(c * step, h.shape[dim]!);
  const len = Math.max(0, Math.min(step, h.shape[dim]! - start));
  const shape = h.shape.map((m, d) => (d === dim ? len : m));
  return fromFn(shape, (idx) => h.data[flatOf(h.shape, idx.map((x, d) => (d === dim ? x + start : x)))]!);
}

/** The chip's coordinates on a row-major mesh. */
export function coords(meshShape: number[], k: number): number[] {
  return indexOf(meshShape, k);
}

/** What chip k holds of the global `h` (Partial mesh dimensions ignored: they hold parts). */
export function pieceOf(h: Host, meshShape: number[], placements: readonly Placement[], k: number): Host {
  const c = coords(meshShape, k);
  return placements.reduce((p, pl, i) => (pl.kind === 'shard' ? chunk(p, pl.dim, meshShape[i]!, c[i]!) : p), h);
}

/** The values as numbers (int64's bigints too). */
export const host = (t: Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number | bigint>, Number);

export function expectClose(got: number[], want: number[], tol = 1e-5): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => {
    const w = want[i]!;
    if (!Number.isFinite(w)) expect(g).toBe(w);
    else expect(Math.abs(g - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w)));
  });
}

const COMBINE = {
  sum: (a: number, b: number) => a + b,
  mean: (a: number, b: number) => a + b,
  max: Math.max,
  min: Math.min,
};

/**
 * Checks a DTensor against the global reference: its shape and placements, each chip's piece
 * (chip, shape, values; for Partial mesh dimensions the reduction of the parts), and fullTensor().
 */
export function expectDTensor(dt: DTensor, want: Host, placements: string, tol = 1e-5): void {
  expect(dt.shape).toEqual(want.shape);
  expect(`[${dt.placements.map(String).join(', ')}]`).toBe(placements);
  const meshShape = [...dt.mesh.shape];
  const locals = dt.localTensors();
  expect(locals.map((t) => t.chip)).toEqual(dt.mesh.chips);
  const partialDims = dt.placements.flatMap((p, i) => (p.kind === 'partial' ? [i] : []));
  locals.forEach((t, k) => {
    const piece = pieceOf(want, meshShape, dt.placements, k);
    expect(t.shape).toEqual(piece.shape);
    // The parts of chips that differ only along Partial mesh dimensions reduce to the piece.
    const c = coords(meshShape, k);
    const peers = locals.filter((_, j) => coords(meshShape, j).every((x, i) => partialDims.includes(i) || x === c[i]));
    const ops = partialDims.map((i) => (dt.placements[i] as { reduceOp: keyof typeof COMBINE }).reduceOp);
    const op = ops[0] ?? 'sum';
    const parts = peers.map(host);
    let got = parts.reduce((acc, p) => acc.map((v, i) => COMBINE[op](v, p[i]!)));
    if (op === 'mean') got = got.map((v) => v / peers.length);
    expectClose(got, piece.data, tol);
  });
  const full = dt.fullTensor();
  expect(full.chip).toBe(dt.mesh.chips[0]);
  expect(full.shape).toEqual(want.shape);
  expectClose(host(full), want.data, tol);
}
