// tpu.linalg cholesky qr eigh eigvalsh svd svdvals pinv lstsq matrixRank and the spectral
// matrix norms against PyTorch 2.13 computed in float64: values, gradients, batches, odd and
// even sizes, ill-conditioned and rank-deficient matrices, and bad input. Eigen- and singular
// vectors are unique only up to sign: they are compared through reconstructions
// (V·diag(λ)·Vᵀ, U·diag(S)·Vh), orthogonality, magnitudes, and sign-invariant losses for gradients.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';
import { f32, grads, i32, seq, torchTier, type InputSpec, type TorchCase } from './torch-tier.js';

const square = (values: number[], n: number): InputSpec => ({ values, shape: [n, n], dtype: 'float32' });
/** R·Rᵀ + n·I for R of seeded values: symmetric positive definite, cond ≈ 10. */
function spd(n: number, seed: number): InputSpec {
  const r = seededValues(n * n, seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let sum = i === j ? n : 0;
    for (let k = 0; k < n; k++) sum += r[i * n + k]! * r[j * n + k]!;
    out.push(sum);
  }
  return square(out, n);
}

const SPD3 = f32([[4, 2, 0.6], [2, 5, 1], [0.6, 1, 3]]);
const SPD_BATCH = f32([[[5, 1, 0, 1], [1, 4, 1, 0], [0, 1, 3, 1], [1, 0, 1, 6]], [[2, -1, 0, 0], [-1, 2, -1, 0], [0, -1, 2, -1], [0, 0, -1, 2]]]);
/** Its lower triangle mirrored is positive definite; its upper is not. */
const LOWER_PD = f32([[2, 100, -7], [1, 3, 9], [0.5, -1, 4]]);
/** Its upper triangle mirrored is positive definite; its lower is not. */
const UPPER_PD = f32([[2, 1, 0.5], [100, 3, -1], [-7, 9, 4]]);
const R12 = square(seededValues(144, 7), 12);
const R5 = square(seededValues(25, 5), 5);
const TALL = { values: seededValues(15, 11), shape: [5, 3], dtype: 'float32' } as const;
const WIDE = { values: seededValues(15, 13), shape: [3, 5], dtype: 'float32' } as const;
const BATCH = { values: seededValues(36, 17), shape: [3, 4, 3], dtype: 'float32' } as const;
/** Hilbert's 6×6 matrix: cond ≈ 1.5e7, positive definite. */
const H6 = f32(Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => 1 / (i + j + 1))));
const RANK1 = f32([[1, 2, 3], [2, 4, 6], [3, 6, 9], [1, 2, 3]]);
const d = (expr: string) => `(${expr}).float()`;
const WELL = { rtol: 2e-5, atol: 2e-5 };
/** The symmetric matrix of x's lower triangle, as eigh reads it. */
const LOWER = (x: string) => `(torch.tril(${x}) + torch.tril(${x}, -1).mT)`;

/** V·diag(λ)·Vᵀ, VᵀV, the eigenvalues and |V|: everything eigh determines. */
function eighParts(a: Tensor, options?: { UPLO: 'L' | 'U' }): Tensor[] {
  const { eigenvalues: l, eigenvectors: v } = tpu.linalg.eigh(a, options);
  return [l, v.mul(l.unsqueeze(-2)).matmul(v.mT), v.mT.matmul(v), v.abs()];
}
const eighPy = (x: string, uplo = 'L') => `[t.float() for t in (lambda l, v: (l, (v * l.unsqueeze(-2)) @ v.mT, v.mT @ v, v.abs()))(*torch.linalg.eigh(${x}.double(), UPLO='${uplo}'))]`;

/** U·diag(S)·Vh over the first k = |S| columns of U and rows of Vh. */
function reconstruct({ U, S, Vh }: { U: Tensor; S: Tensor; Vh: Tensor }): Tensor {
  const k = S.shape[S.ndim - 1]!;
  return U.narrow(-1, 0, k).mul(S.unsqueeze(-2)).matmul(Vh.narrow(-2, 0, k));
}

/** U·diag(S)·Vh, UᵀU, Vh·Vhᵀ, S, |U| and |Vh|. */
function svdParts(a: Tensor, fullMatrices = false): Tensor[] {
  const { U, S, Vh } = tpu.linalg.svd(a, { fullMatrices });
  return [reconstruct({ U, S, Vh }), U.mT.matmul(U), Vh.matmul(Vh.mT), S, U.abs(), Vh.abs()];
}
const svdPy = (x: string, full = false) => `[t.float() for t in (lambda u, s, vh: ((u[..., :s.shape[-1]] * s.unsqueeze(-2)) @ vh[..., :s.shape[-1], :], u.mT @ u, vh @ vh.mT, s, u.abs(), vh.abs()))(*torch.linalg.svd(${x}.double(), full_matrices=${full ? 'True' : 'False'}))]`;

const cases: TorchCase[] = [
  // cholesky
  { name: 'cholesky of SPD matrices and a batch', inputs: [SPD3, SPD_BATCH], js: (a, b) => [tpu.linalg.cholesky(a), tpu.linalg.cholesky(b)], py: `[${d('torch.linalg.cholesky(x.double())')} for x in (x0, x1)]`, ...WELL },
  { name: 'cholesky reads the lower triangle, upper the upper', inputs: [LOWER_PD, UPPER_PD], js: (a, b) => [tpu.linalg.cholesky(a), tpu.linalg.cholesky(b, { upper: true })], py: `(${d('torch.linalg.cholesky(x0.double())')}, ${d('torch.linalg.cholesky(x1.double(), upper=True)')})`, ...WELL },
  { name: 'cholesky of a 12×12 matrix', inputs: [spd(12, 3)], js: (a) => tpu.linalg.cholesky(a), py: d('torch.linalg.cholesky(x0.double())'), rtol: 1e-4, atol: 1e-5 },
  { name: 'cholesky of a matrix that is not positive definite is an error', inputs: [f32([[1, 2], [2, 1]])], js: (a) => tpu.linalg.cholesky(a), py: 'torch.linalg.cholesky(x0)' },
  { name: 'cholesky of non-square matrices is an error', inputs: [seq('float32', [2, 3])], js: (a) => tpu.linalg.cholesky(a), py: 'torch.linalg.cholesky(x0)' },
  { name: 'cholesky of int32 is an error', inputs: [i32([[1, 0], [0, 1]])], js: (a) => tpu.linalg.cholesky(a), py: 'torch.linalg.cholesky(x0)' },
  // qr: LAPACK's signs, so Q and R compare as they are
  { name: 'qr of square, tall and wide matrices', inputs: [R5, TALL, WIDE], js: (a, b, c) => [a, b, c].flatMap((x) => [...tpu.linalg.qr(x)]), py: `[${d('t')} for x in (x0, x1, x2) for t in torch.linalg.qr(x.double())]`, ...WELL },
  { name: "qr modes 'complete' and 'r'", inputs: [TALL, WIDE], js: (a, b) => [...tpu.linalg.qr(a, 'complete'), ...tpu.linalg.qr(b, { mode: 'complete' }), ...tpu.linalg.qr(a, { mode: 'r' })], py: `[${d('t')} for t in (*torch.linalg.qr(x0.double(), 'complete'), *torch.linalg.qr(x1.double(), mode='complete'), *torch.linalg.qr(x0.double(), mode='r'))]`, ...WELL },
  { name: 'qr of a batch and of a matrix with a zero column', inputs: [BATCH, f32([[0, 1], [0, 2], [0, 3]])], js: (a, b) => [...tpu.linalg.qr(a), ...tpu.linalg.qr(b)], py: `[${d('t')} for x in (x0, x1) for t in torch.linalg.qr(x.double())]`, signedZeros: false, ...WELL },
  { name: 'qr of a vector is an error', inputs: [f32([1, 2])], js: (a) => tpu.linalg.qr(a).R, py: 'torch.linalg.qr(x0)' },
  { name: 'qr with an unknown mode is an error', inputs: [TALL], js: (a) => tpu.linalg.qr(a, 'full' as 'r').R, py: "torch.linalg.qr(x0, 'full')" },
  // eigh
  { name: 'eigh of a 3×3 matrix, reading the lower triangle', inputs: [SPD3, LOWER_PD], js: (a, b) => [...eighParts(a), ...eighParts(b)], py: `${eighPy('x0')} + ${eighPy('x1')}`, ...WELL },
  { name: "eigh with UPLO 'U' and eigvalsh", inputs: [UPPER_PD], js: (a) => [...eighParts(a, { UPLO: 'U' }), tpu.linalg.eigvalsh(a), tpu.linalg.eigvalsh(a, 'U')], py: `${eighPy('x0', 'U')} + [${d('torch.linalg.eigvalsh(x0.double())')}, ${d("torch.linalg.eigvalsh(x0.double(), 'U')")}]`, ...WELL },
  // one size a case: a program of both took 1.6 times as long to compile under tpu.compile as the two apart
  { name: 'eigh of a 5×5 (odd) matrix', inputs: [R5], js: (a) => eighParts(a), py: eighPy('x0'), rtol: 1e-4, atol: 2e-5 },
  { name: 'eigh of a 12×12 matrix', inputs: [R12], js: (a) => eighParts(a).slice(0, 3), py: `${eighPy('x0')}[:3]`, rtol: 1e-4, atol: 2e-5 },
  { name: 'eigh of a batch', inputs: [SPD_BATCH], js: (a) => eighParts(a), py: eighPy('x0'), ...WELL },
  { name: 'eigh of the identity: equal eigenvalues', inputs: [f32([[1, 0, 0], [0, 1, 0], [0, 0, 1]])], js: (a) => eighParts(a).slice(0, 3), py: `${eighPy('x0')}[:3]`, ...WELL },
  // absolute accuracy ≈ float32's eps·‖A‖ (2e-7): the smallest eigenvalue (1e-7) to a few percent
  { name: 'eigvalsh of an ill-conditioned matrix', inputs: [H6], js: (a) => tpu.linalg.eigvalsh(a), py: d('torch.linalg.eigvalsh(x0.double())'), rtol: 1e-5, atol: 2e-8 },
  { name: 'eigh of non-square matrices is an error', inputs: [seq('float32', [2, 3])], js: (a) => tpu.linalg.eigh(a).eigenvalues, py: 'torch.linalg.eigh(x0)' },
  { name: 'eigvalsh of int32 is an error', inputs: [i32([[1, 0], [0, 1]])], js: (a) => tpu.linalg.eigvalsh(a), py: 'torch.linalg.eigvalsh(x0)' },
  // svd
  { name: 'svd of square, tall and wide matrices', inputs: [R5, TALL, WIDE], js: (a, b, c) => [a, b, c].flatMap((x) => svdParts(x)), py: `${svdPy('x0')} + ${svdPy('x1')} + ${svdPy('x2')}`, ...WELL },
  { name: 'svd with full matrices (the default)', inputs: [TALL, WIDE], js: (a, b) => [a, b].flatMap((x) => { const { U, S, Vh } = tpu.linalg.svd(x); return [U.matmul(U.mT), Vh.matmul(Vh.mT), S, reconstruct({ U, S, Vh })]; }), py: `[t.float() for x in (x0, x1) for t in (lambda u, s, vh: (u @ u.mT, vh @ vh.mT, s, (u[:, :s.shape[-1]] * s) @ vh[:s.shape[-1]]))(*torch.linalg.svd(x.double()))]`, ...WELL },
  { name: 'svd of a batch', inputs: [BATCH], js: (a) => svdParts(a), py: svdPy('x0'), rtol: 1e-4, atol: 2e-5 },
  { name: 'svd of a 12×12 matrix', inputs: [R12], js: (a) => svdParts(a).slice(0, 4), py: `${svdPy('x0')}[:4]`, rtol: 1e-4, atol: 2e-5 },
  { name: 'svd of a rank-deficient matrix', inputs: [RANK1], js: (a) => { const { U, S, Vh } = tpu.linalg.svd(a); return [U.matmul(U.mT), Vh.matmul(Vh.mT), S, ...svdParts(a).slice(0, 3)]; }, py: `[t.float() for t in (lambda u, s, vh: (u @ u.mT, vh @ vh.mT, s))(*torch.linalg.svd(x0.double()))] + ${svdPy('x0')}[:3]`, ...WELL },
  // one-sided Jacobi after a QR keeps even the smallest singular value (1e-7 = float32's eps·σ_max) to 1%
  // (12×12's S, from the same sweeps, is checked above to 1e-4: a second trace of them costs 10 s under tpu.compile)
  { name: 'svdvals of an ill-conditioned matrix', inputs: [H6], js: (a) => tpu.linalg.svdvals(a), py: d('torch.linalg.svdvals(x0.double())'), rtol: 1e-2, atol: 1e-10 },
  { name: 'svd of a vector is an error', inputs: [f32([1, 2])], js: (a) => tpu.linalg.svd(a).S, py: 'torch.linalg.svd(x0)' },
  { name: 'svdvals of int32 is an error', inputs: [i32([[1, 0], [0, 1]])], js: (a) => tpu.linalg.svdvals(a), py: 'torch.linalg.svdvals(x0)' },
  // pinv, lstsq, matrixRank, spectral norms
  { name: 'pinv of tall, wide and rank-deficient matrices', inputs: [TALL, WIDE, RANK1], js: (a, b, c) => [tpu.linalg.pinv(a), tpu.linalg.pinv(b), tpu.linalg.pinv(c)], py: `[${d('torch.linalg.pinv(x.double())')} for x in (x0, x1, x2)]`, ...WELL },
  { name: 'pinv hermitian and with tolerances', inputs: [LOWER_PD, f32([[1, 0], [0, 1e-3]])], js: (a, b) => [tpu.linalg.pinv(a, { hermitian: true }), tpu.linalg.pinv(b, { rtol: 1e-2 }), tpu.linalg.pinv(b, { atol: 1e-4 })], py: `(${d('torch.linalg.pinv(x0.double(), hermitian=True)')}, ${d('torch.linalg.pinv(x1.double(), rtol=1e-2)')}, ${d('torch.linalg.pinv(x1.double(), atol=1e-4)')})`, ...WELL },
  { name: 'matrixRank of full-rank, rank-1 and batched matrices', inputs: [TALL, RANK1, BATCH, f32([[1, 0], [0, 1e-3]]), SPD3], js: (a, b, c, e, h) => [tpu.linalg.matrixRank(a), tpu.linalg.matrixRank(b), tpu.linalg.matrixRank(c), tpu.linalg.matrixRank(e, { rtol: 1e-2 }), tpu.linalg.matrixRank(e, { atol: 1e-4 }), tpu.linalg.matrixRank(h, { hermitian: true })], py: '[torch.linalg.matrix_rank(x0), torch.linalg.matrix_rank(x1), torch.linalg.matrix_rank(x2), torch.linalg.matrix_rank(x3, rtol=1e-2), torch.linalg.matrix_rank(x3, atol=1e-4), torch.linalg.matrix_rank(x4, hermitian=True)]' },
  { name: 'lstsq with a matrix and a vector', inputs: [TALL, seq('float32', [5, 2], 0.5, -4), f32([1, -2, 0.5, 3, 1])], js: (a, b, v) => { const r = tpu.linalg.lstsq(a, b); return [r.solution, r.rank, r.residuals, r.singularValues, tpu.linalg.lstsq(a, v).solution]; }, py: `(lambda r: [${d('torch.linalg.lstsq(x0.double(), x1.double()).solution')}, r.rank, r.residuals, r.singular_values, ${d('torch.linalg.lstsq(x0.double(), x2.double()).solution')}])(torch.linalg.lstsq(x0, x1))`, ...WELL },
  { name: 'lstsq of a rank-deficient matrix gives the minimum-norm solution', inputs: [RANK1, f32([1, 2, 3, 1])], js: (a, b) => tpu.linalg.lstsq(a, b, { rcond: 1e-5 }).solution, py: d('torch.linalg.lstsq(x0.double(), x1.double(), rcond=1e-5, driver="gelsd").solution'), ...WELL },
  { name: 'lstsq with B of the wrong rows is an error', inputs: [TALL, seq('float32', [4, 2])], js: (a, b) => tpu.linalg.lstsq(a, b).solution, py: 'torch.linalg.lstsq(x0, x1).solution' },
  { name: 'matrixNorm 2, -2 and nuc', inputs: [TALL, BATCH], js: (a, b) => [tpu.linalg.matrixNorm(a, 2), tpu.linalg.matrixNorm(a, -2), tpu.linalg.matrixNorm(a, 'nuc'), tpu.linalg.matrixNorm(b, 2, [0, 2], true), tpu.linalg.norm(b, 'nuc', [-1, -2]), tpu.linalg.norm(a, -2)], py: "[torch.linalg.matrix_norm(x0.double(), o).float() for o in (2, -2, 'nuc')] + [torch.linalg.matrix_norm(x1.double(), 2, (0, 2), True).float(), torch.linalg.norm(x1.double(), 'nuc', (-1, -2)).float(), torch.linalg.norm(x0.double(), -2).float()]", ...WELL },
  { name: 'matrixNorm 2 of bfloat16 is an error', inputs: [{ ...TALL, dtype: 'bfloat16' }], js: (a) => tpu.linalg.matrixNorm(a, 2), py: 'torch.linalg.matrix_norm(x0, 2)' },
  // gradients: PyTorch's are symmetric matrices for cholesky and eigh
  grads('cholesky gradient', [SPD3], (a) => tpu.linalg.cholesky(a), d('torch.linalg.cholesky(x0.double())'), WELL),
  grads('cholesky gradient of a batch, upper', [SPD_BATCH], (a) => tpu.linalg.cholesky(a, { upper: true }), d('torch.linalg.cholesky(x0.double(), upper=True)'), WELL),
  grads('eigvalsh gradient', [LOWER_PD], (a) => tpu.linalg.eigvalsh(a), d('torch.linalg.eigvalsh(x0.double())'), WELL),
  grads('eigh eigenvector gradient through a sign-invariant loss', [SPD3], (a) => tpu.linalg.eigh(a).eigenvectors.square(), d('torch.linalg.eigh(x0.double()).eigenvectors.square()'), { rtol: 1e-4, atol: 1e-5 }),
  grads('svdvals gradient of tall and wide matrices', [TALL, WIDE], (a, b) => concatFlat(tpu.linalg.svdvals(a), tpu.linalg.svdvals(b)), d('torch.cat([torch.linalg.svdvals(x0.double()), torch.linalg.svdvals(x1.double())])'), WELL),
  grads('svd U and Vh gradients through a sign-invariant loss', [TALL], (a) => { const { U, S, Vh } = tpu.linalg.svd(a, { fullMatrices: false }); return concatFlat(U.square(), S, Vh.square()); }, d('(lambda u, s, vh: torch.cat([u.square().flatten(), s, vh.square().flatten()]))(*torch.linalg.svd(x0.double(), full_matrices=False))'), { rtol: 1e-4, atol: 1e-5 }),
  grads('svd gradients of a wide matrix', [WIDE], (a) => { const { U, S, Vh } = tpu.linalg.svd(a, false); return concatFlat(U.square(), S, Vh.square()); }, d('(lambda u, s, vh: torch.cat([u.square().flatten(), s, vh.square().flatten()]))(*torch.linalg.svd(x0.double(), full_matrices=False))'), { rtol: 1e-4, atol: 1e-5 }),
  grads('qr gradients of Q and R', [TALL], (a) => { const { Q, R } = tpu.linalg.qr(a); return concatFlat(Q, R); }, d('(lambda q, r: torch.cat([q.flatten(), r.flatten()]))(*torch.linalg.qr(x0.double()))'), { rtol: 1e-4, atol: 1e-5 }),
  grads('pinv and nuclear norm gradients', [TALL], (a) => concatFlat(tpu.linalg.pinv(a), tpu.linalg.matrixNorm(a, 'nuc').reshape([1])), d('torch.cat([torch.linalg.pinv(x0.double()).flatten(), torch.linalg.matrix_norm(x0.double(), "nuc").reshape(1)])'), { rtol: 1e-4, atol: 1e-5 }),
];

function concatFlat(...ts: Tensor[]): Tensor {
  return tpu.cat(ts.map((t) => t.reshape([-1])));
}

torchTier('linalg decompositions follow PyTorch', cases, { compile: true });
