// tpu.linalg on a chip other than 0: each function gives chip 0's values and keeps its result on
// the input's chip (the constants the decompositions make inside, row indices, identities,
// Jacobi's orderings, are made on the input's chip). Chip 0's values are the reference: the
// functions' own tests check those against PyTorch. The mode set back to strict after each.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 2 });
const L = tpu.linalg;

const SPD = [[4, 1, 0.5], [1, 3, 0.25], [0.5, 0.25, 2]];
const WIDE = [[1, 2, 0], [0, 1, 3]];

/** Each function of a matrix on `chip`, its results as [chip, values] pairs. */
const CASES: [string, (a: Tensor, w: Tensor) => Tensor | Tensor[]][] = [
  ['det', (a) => L.det(a)],
  ['slogdet', (a) => { const { sign, logabsdet } = L.slogdet(a); return [sign, logabsdet]; }],
  ['inv', (a) => L.inv(a)],
  ['invEx', (a) => { const { inverse, info } = L.invEx(a); return [inverse, info]; }],
  ['solve', (a) => L.solve(a, tpu.ones([3, 1], { chip: a.chip }))],
  ['solveEx', (a) => { const { result, info } = L.solveEx(a, tpu.ones([3, 1], { chip: a.chip })); return [result, info]; }],
  ['cholesky', (a) => L.cholesky(a)],
  ['choleskyEx', (a) => { const { L: l, info } = L.choleskyEx(a); return [l, info]; }],
  ['qr', (a) => { const { Q, R } = L.qr(a); return [Q, R]; }],
  ['eigh', (a) => { const { eigenvalues, eigenvectors } = L.eigh(a); return [eigenvalues, eigenvectors.abs()]; }],
  ['eigvalsh', (a) => L.eigvalsh(a)],
  ['svd', (_, w) => { const { U, S, Vh } = L.svd(w); return [U.abs(), S, Vh.abs()]; }],
  ['svdvals', (_, w) => L.svdvals(w)],
  ['pinv', (_, w) => L.pinv(w)],
  ['lstsq', (a) => L.lstsq(a, tpu.ones([3, 1], { chip: a.chip })).solution],
  ['matrixRank', (_, w) => L.matrixRank(w)],
  ['matrixNorm 2 and nuc', (a) => [L.matrixNorm(a, 2), L.matrixNorm(a, 'nuc')]],
  ['empty det and inv', (a) => [L.det(tpu.zeros([0, 0], { chip: a.chip })), L.inv(tpu.zeros([2, 0, 0], { chip: a.chip }))]],
];

function run(chip: number, f: (a: Tensor, w: Tensor) => Tensor | Tensor[]): { chips: number[]; values: unknown[] } {
  const out = [f(tpu.tensor(SPD, { chip }), tpu.tensor(WIDE, { chip }))].flat();
  return { chips: out.map((t) => t.chip), values: out.map((t) => t.tolist()) };
}

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it.each(CASES)('%s on chip 1: chip 0 values, on chip 1', (_, f) => {
    tpu.mode(mode);
    try {
      const on0 = run(0, f);
      const on1 = run(1, f);
      expect(on0.chips.every((c) => c === 0)).toBe(true);
      expect(on1.chips.every((c) => c === 1)).toBe(true);
      expect(on1.values).toEqual(on0.values);
    } finally {
      tpu.mode('strict');
    }
  });
});
