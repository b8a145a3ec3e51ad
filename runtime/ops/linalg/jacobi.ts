// Jacobi rotations in parallel (round-robin) order, unrolled: each round rotates n/2 disjoint
// pairs of columns (p, q) at once, so a sweep over all pairs is n - 1 rounds of a few dozen ops.
// The state is kept with the round's pairs arranged as [p's | q's]: one indexSelect moves it
// from one round's arrangement to the next, and a sweep ends where it began, so every sweep is
// the same program (strict mode compiles it once per shape; one program for all sweeps took
// 15 s to compile at n = 32). Odd n is padded with a zero column that no rotation touches.
// The number of sweeps is fixed, log2(n) + 3 (no host read to test convergence: tpu.compile
// and fused mode work, at the cost of the sweeps a converged matrix did not need): measured
// for n = 8, 32 and 64, eigenvalues of random symmetric matrices and singular values of
// matrices of condition 1e6 (through svd.ts's QR) stop changing after log2(n), log2(n) - 1 and
// log2(n) sweeps: 2 to 3 sweeps of margin.
import type { Tensor } from '../../tensor.js';
import { tensor } from '../../creation.js';
import { eye } from '../../creation-computed.js';
import { composite } from '../../modes/composite.js';
import { concat } from '../concat.js';
import { pad } from '../pad.js';
import { where } from '../where.js';

/** Sweeps of float32 Jacobi over n columns. */
export function jacobiSweeps(n: number): number {
  return n <= 2 ? 1 : Math.ceil(Math.log2(n)) + 3;
}

/** Round r's order over even `size` columns: the p of each pair in the first half, its q in the second (the circle method). */
function roundRobin(size: number): number[][] {
  const players = Array.from({ length: size }, (_, i) => i);
  const rounds: number[][] = [];
  for (let r = 0; r < size - 1; r++) {
    rounds.push([...players.slice(0, size / 2), ...players.slice(size / 2).reverse()]);
    players.splice(1, 0, players.pop()!);
  }
  return rounds;
}

/** Indices taking columns arranged as `from` to the arrangement `to` (both lists of column numbers by place). */
function move(from: readonly number[], to: readonly number[]): number[] {
  const place: number[] = [];
  from.forEach((col, i) => (place[col] = i));
  return to.map((col) => place[col]!);
}

const natural = (size: number) => Array.from({ length: size }, (_, i) => i);
const indices = (idx: readonly number[], chip: number) => tensor(Int32Array.from(idx), { chip });

/**
 * c and s of the rotation that zeroes the (p, q) entry of [[app, apq], [apq, aqq]]: θ with
 * tan 2θ = 2·apq / (aqq - app) and |θ| ≤ π/4 (the inner rotation, which converges); θ = 0 when apq = 0.
 */
function rotation(app: Tensor, aqq: Tensor, apq: Tensor): { c: Tensor; s: Tensor } {
  const gap = aqq.sub(app);
  const theta = apq.mul(where(gap.lt(0), -2, 2)).atan2(gap.abs()).mul(0.5);
  return { c: theta.cos(), s: theta.sin() };
}

/** x's pairs along dim (-1 columns, -2 rows; p's then q's, `half` each, then `rest` untouched): p ← c·p − s·q, q ← s·p + c·q. */
function rotate(x: Tensor, dim: -1 | -2, half: number, c: Tensor, s: Tensor, rest = 0): Tensor {
  const p = x.narrow(dim, 0, half);
  const q = x.narrow(dim, half, half);
  const rotated = [c.mul(p).sub(s.mul(q)), s.mul(p).add(c.mul(q))];
  return concat(rest === 0 ? rotated : [...rotated, x.narrow(dim, 2 * half, rest)], dim);
}

/**
 * Runs the sweeps over the `size` columns of state g (the columns' order natural before and
 * after): `round(g, half)` rotates one arrangement's pairs; `rows` also reorders g's first
 * `size` rows with the columns (a symmetric matrix on top).
 */
function sweeps(op: string, g: Tensor, size: number, rows: boolean, round: (g: Tensor, half: number) => Tensor): Tensor {
  const rounds = roundRobin(size);
  const extra = g.shape[g.ndim - 2]! - (rows ? size : 0);
  const arrange = (x: Tensor, idx: readonly number[]) => {
    const cols = x.indexSelect(-1, indices(idx, x.chip));
    return rows ? cols.indexSelect(-2, indices([...idx, ...Array.from({ length: extra }, (_, i) => size + i)], x.chip)) : cols;
  };
  const steps = rounds.map((order, r) => move(order, rounds[(r + 1) % rounds.length]!));
  let state = composite(op, () => arrange(g, rounds[0]!));
  for (let k = 0; k < jacobiSweeps(size); k++) {
    state = composite(op, () => steps.reduce((x, step) => arrange(round(x, size / 2), step), state));
  }
  return composite(op, () => arrange(state, move(rounds[0]!, natural(size))));
}

/** Pads the last dim (and with `square` the one before) of x to even size with zeros. */
function padEven(x: Tensor, n: number, square: boolean): Tensor {
  if (n % 2 === 0) return x;
  return pad(x, square ? [0, 1, 0, 1] : [0, 1]);
}

/**
 * Two-sided Jacobi on symmetric A [..., n, n]: A ≈ V·diag(λ)·Vᵀ. Returns λ (A's final
 * diagonal, unsorted) [..., n] and V [..., n, n].
 */
export function symmetricJacobi(op: string, a: Tensor): { values: Tensor; vectors: Tensor } {
  const n = a.shape[a.ndim - 1]!;
  const size = n + (n % 2);
  // [A; V], V from I: the columns rotate together, A's rows too
  const start = composite(op, () => concat([padEven(a, n, true), eye(size, { chip: a.chip }).expand([...a.shape.slice(0, -2), size, size])], -2));
  const g = sweeps(op, start, size, true, (x, half) => {
    const top = x.narrow(-2, 0, size);
    const diagonal = top.diagonal(0, -2, -1);
    const apq = top.narrow(-2, 0, half).narrow(-1, half, half).diagonal(0, -2, -1);
    const { c, s } = rotation(diagonal.narrow(-1, 0, half), diagonal.narrow(-1, half, half), apq);
    const cols = rotate(x, -1, half, c.unsqueeze(-2), s.unsqueeze(-2));
    return rotate(cols, -2, half, c.unsqueeze(-1), s.unsqueeze(-1), size);
  });
  return { values: g.diagonal(0, -2, -1).narrow(-1, 0, n), vectors: g.narrow(-2, size, n).narrow(-1, 0, n) };
}

/**
 * One-sided (Hestenes) Jacobi on A [..., m, n]: rotates A's columns until they are
 * orthogonal, A·V = W. Returns W [..., m, n] (its column norms: the singular values) and V [..., n, n].
 */
export function oneSidedJacobi(op: string, a: Tensor): { columns: Tensor; vectors: Tensor } {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const size = n + (n % 2);
  // [A; V], V from I, rotated together by the angles of A's columns' inner products
  const start = composite(op, () => concat([padEven(a, n, false), eye(size, { chip: a.chip }).expand([...a.shape.slice(0, -2), size, size])], -2));
  const g = sweeps(op, start, size, false, (x, half) => {
    const w = x.narrow(-2, 0, m);
    const p = w.narrow(-1, 0, half);
    const q = w.narrow(-1, half, half);
    const { c, s } = rotation(p.square().sum(-2), q.square().sum(-2), p.mul(q).sum(-2));
    return rotate(x, -1, half, c.unsqueeze(-2), s.unsqueeze(-2));
  });
  const cols = g.narrow(-1, 0, n);
  return { columns: cols.narrow(-2, 0, m), vectors: cols.narrow(-2, m, n) };
}
