// tpu.linalg det slogdet inv solve (and torch.det, torch.inverse, x.det(), x.inverse())
// against PyTorch 2.13 computed in float64: values, gradients, batches, matrices that need
// row swaps (a zero on the diagonal), ill-conditioned and singular matrices, and bad input.
// Tolerances follow each matrix's condition number (float32's 6e-8 times cond, with room).
import { tpu } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';
import { bf16, f32, grads, i32, seq, torchTier, type TorchCase } from './torch-tier.js';

/** A zero on the diagonal: elimination must swap rows (cond ≈ 4). */
const P3 = f32([[0, 2, 1], [1, 1, 0], [3, 0, 1]]);
/** det -240, cond ≈ 2.8. */
const M4 = f32([[2, -1, 0, 3], [1, 0, 4, -2], [0, 5, 1, 1], [-3, 2, 2, 0]]);
/** Hilbert's 4×4 matrix: cond ≈ 1.6e4, det ≈ 1.65e-7. */
const H4 = f32(Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => 1 / (i + j + 1))));
/** Two matrices, the second a permutation (det 1, cond 1). */
const B233 = f32([[[4, 1, 0], [1, 3, 1], [0, 1, 2]], [[0, 1, 0], [0, 0, 1], [1, 0, 0]]]);
/** 12×12 values uniform in [-2, 2) (cond ≈ 12.5, det ≈ 2.2e5): rows swapped at most steps. */
const R12 = { values: seededValues(144, 7), shape: [12, 12], dtype: 'float32' } as const;
const SINGULAR2 = f32([[1, 2], [2, 4]]);
const RANK1 = f32([[1, 2, 3], [2, 4, 6], [3, 6, 9]]);
/** float64 in PyTorch, the result back in float32: the reference is the exact answer, not float32 LAPACK's. */
const d = (expr: string) => `(${expr}).float()`;
const WELL = { rtol: 2e-5, atol: 2e-5 };
const HILBERT = { rtol: 5e-3, atol: 5e-3 };

const cases: TorchCase[] = [
  // det
  { name: 'det of 1×1, 2×2 and a matrix with a zero on the diagonal', inputs: [f32([[-3]]), f32([[1, 2], [3, 4]]), P3], js: (a, b, c) => [tpu.linalg.det(a), tpu.linalg.det(b), tpu.linalg.det(c)], py: `[${d('torch.linalg.det(x.double())')} for x in (x0, x1, x2)]`, ...WELL },
  { name: 'det of a 4×4 matrix', inputs: [M4], js: (a) => tpu.linalg.det(a), py: d('torch.linalg.det(x0.double())'), ...WELL },
  { name: 'det, inv and solve of a 12×12 matrix', inputs: [R12, seq('float32', [12, 2], 0.25, -12)], js: (a, b) => [tpu.linalg.det(a), tpu.linalg.inv(a), tpu.linalg.solve(a, b)], py: `(${d('torch.linalg.det(x0.double())')}, ${d('torch.linalg.inv(x0.double())')}, ${d('torch.linalg.solve(x0.double(), x1.double())')})`, rtol: 1e-4, atol: 1e-5 },
  {
    name: 'inv and solve stay float32 under matmul precision default',
    inputs: [R12, seq('float32', [12, 2], 0.25, -12)],
    js: (a, b) => {
      tpu.setMatmulPrecision('default');
      try {
        return [tpu.linalg.inv(a), tpu.linalg.solve(a, b)];
      } finally {
        tpu.setMatmulPrecision('highest');
      }
    },
    py: `(${d('torch.linalg.inv(x0.double())')}, ${d('torch.linalg.solve(x0.double(), x1.double())')})`,
    rtol: 1e-4,
    atol: 1e-5,
  },
  { name: 'det of an ill-conditioned matrix', inputs: [H4], js: (a) => tpu.linalg.det(a), py: d('torch.linalg.det(x0.double())'), rtol: 5e-3, atol: 0 },
  { name: 'det of batches', inputs: [B233, seq('float32', [2, 1, 2, 2], 0.5, -3)], js: (a, b) => [tpu.linalg.det(a), tpu.linalg.det(b)], py: `[${d('torch.linalg.det(x.double())')} for x in (x0, x1)]`, ...WELL },
  { name: 'det of singular matrices is 0', inputs: [SINGULAR2, RANK1, f32([[0, 0], [0, 0]])], js: (a, b, c) => [tpu.linalg.det(a), tpu.linalg.det(b), tpu.linalg.det(c)], py: `[${d('torch.linalg.det(x.double())')} for x in (x0, x1, x2)]`, signedZeros: false },
  { name: 'det and inv of matrices holding NaN and inf', inputs: [f32([[[NaN, 1], [2, 3]], [[1, 1], [NaN, 3]], [[Infinity, 1], [2, 3]], [[1, 2], [3, Infinity]]])], js: (a) => [tpu.linalg.det(a), tpu.linalg.inv(a)], py: '(torch.linalg.det(x0), torch.linalg.inv(x0))', signedZeros: false },
  { name: 'det of 0×0 matrices is 1', inputs: [seq('float32', [0, 0]), seq('float32', [2, 0, 0])], js: (a, b) => [tpu.linalg.det(a), tpu.linalg.det(b)], py: '(torch.linalg.det(x0), torch.linalg.det(x1))' },
  { name: 'torch.det and x.det()', inputs: [P3], js: (a) => [tpu.det(a), a.det()], py: `(${d('torch.det(x0.double())')}, ${d('x0.double().det()')})`, ...WELL },
  // slogdet
  { name: 'slogdet of positive, negative and singular determinants', inputs: [B233, P3, SINGULAR2], js: (a, b, c) => [...tpu.linalg.slogdet(a), ...b.slogdet(), ...tpu.slogdet(c)], py: '[t.float() for x in (x0, x1, x2) for t in torch.linalg.slogdet(x.double())]', ...WELL },
  { name: 'slogdet of an ill-conditioned matrix', inputs: [H4], js: (a) => { const { sign, logabsdet } = tpu.linalg.slogdet(a); return [sign, logabsdet]; }, py: '[t.float() for t in torch.linalg.slogdet(x0.double())]', rtol: 1e-4, atol: 1e-3 },
  // inv
  { name: 'inv of a matrix with a zero on the diagonal', inputs: [P3], js: (a) => [tpu.linalg.inv(a), tpu.inverse(a), a.inverse()], py: `[${d('torch.linalg.inv(x0.double())')}, ${d('torch.inverse(x0.double())')}, ${d('x0.double().inverse()')}]`, ...WELL },
  { name: 'inv of a 4×4 matrix and a batch', inputs: [M4, B233], js: (a, b) => [tpu.linalg.inv(a), tpu.linalg.inv(b)], py: `[${d('torch.linalg.inv(x.double())')} for x in (x0, x1)]`, ...WELL },
  { name: 'inv of an ill-conditioned matrix', inputs: [H4], js: (a) => tpu.linalg.inv(a), py: d('torch.linalg.inv(x0.double())'), rtol: 5e-3, atol: 1 },
  { name: 'inv of 0×0 matrices', inputs: [seq('float32', [3, 0, 0])], js: (a) => tpu.linalg.inv(a), py: 'torch.linalg.inv(x0)' },
  { name: 'inv and solve of an empty batch', inputs: [seq('float32', [0, 2, 2]), seq('float32', [0, 2, 3])], js: (a, b) => [tpu.linalg.inv(a), tpu.linalg.solve(a, b)], py: '(torch.linalg.inv(x0), torch.linalg.solve(x0, x1))' },
  { name: 'inv of a singular matrix is an error', inputs: [SINGULAR2], js: (a) => tpu.linalg.inv(a), py: 'torch.linalg.inv(x0)' },
  // solve
  { name: 'solve with a vector', inputs: [P3, f32([1, -2, 0.5])], js: (a, b) => tpu.linalg.solve(a, b), py: d('torch.linalg.solve(x0.double(), x1.double())'), ...WELL },
  { name: 'solve with a matrix', inputs: [M4, seq('float32', [4, 2], 0.5, -3)], js: (a, b) => tpu.linalg.solve(a, b), py: d('torch.linalg.solve(x0.double(), x1.double())'), ...WELL },
  { name: 'solve with a batch of vectors of the batch of A', inputs: [B233, f32([[1, 2, 3], [4, 5, 6]])], js: (a, b) => tpu.linalg.solve(a, b), py: d('torch.linalg.solve(x0.double(), x1.double())'), ...WELL },
  { name: 'solve broadcasts batches', inputs: [B233, seq('float32', [4, 1, 3, 2], 0.25, -5), f32([1, 0, -1])], js: (a, b, v) => [tpu.linalg.solve(a, b), tpu.linalg.solve(a, v)], py: `(${d('torch.linalg.solve(x0.double(), x1.double())')}, ${d('torch.linalg.solve(x0.double(), x2.double())')})`, ...WELL },
  { name: 'solve with an ill-conditioned matrix', inputs: [H4, f32([1, 2, 3, 4])], js: (a, b) => tpu.linalg.solve(a, b), py: d('torch.linalg.solve(x0.double(), x1.double())'), rtol: 5e-3, atol: 5 },
  { name: 'solve with a singular matrix is an error', inputs: [SINGULAR2, f32([1, 1])], js: (a, b) => tpu.linalg.solve(a, b), py: 'torch.linalg.solve(x0, x1)' },
  // bad input
  { name: 'det of non-square matrices is an error', inputs: [seq('float32', [2, 3])], js: (a) => tpu.linalg.det(a), py: 'torch.linalg.det(x0)' },
  { name: 'det of a vector is an error', inputs: [f32([1, 2])], js: (a) => a.det(), py: 'x0.det()' },
  { name: 'det of int32 is an error', inputs: [i32([[1, 2], [3, 4]])], js: (a) => tpu.linalg.det(a), py: 'torch.linalg.det(x0)' },
  { name: 'det of bfloat16 is an error', inputs: [bf16([[1, 2], [3, 4]])], js: (a) => tpu.linalg.det(a), py: 'torch.linalg.det(x0)' },
  { name: 'inv of non-square matrices is an error', inputs: [seq('float32', [2, 2, 3])], js: (a) => a.inverse(), py: 'x0.inverse()' },
  { name: 'slogdet of int32 is an error', inputs: [i32([[1, 2], [3, 4]])], js: (a) => [...tpu.linalg.slogdet(a)], py: 'torch.linalg.slogdet(x0)' },
  { name: 'solve with B of the wrong length is an error', inputs: [P3, f32([1, 2])], js: (a, b) => tpu.linalg.solve(a, b), py: 'torch.linalg.solve(x0, x1)' },
  { name: 'solve with B of the wrong rows is an error', inputs: [P3, seq('float32', [2, 3])], js: (a, b) => tpu.linalg.solve(a, b), py: 'torch.linalg.solve(x0, x1)' },
  { name: 'solve with mismatched batches is an error', inputs: [B233, seq('float32', [3, 3, 2])], js: (a, b) => tpu.linalg.solve(a, b), py: 'torch.linalg.solve(x0, x1)' },
  { name: 'solve with B of another dtype is an error', inputs: [P3, i32([1, 2, 3])], js: (a, b) => tpu.linalg.solve(a, b), py: 'torch.linalg.solve(x0, x1)' },
  // gradients
  grads('det gradient of a matrix with a zero on the diagonal', [P3], (a) => tpu.linalg.det(a), d('torch.linalg.det(x0.double())'), WELL),
  grads('det gradient of a batch', [B233], (a) => a.det(), d('x0.double().det()'), WELL),
  // the derivative of det at a singular matrix of rank n-1 is its adjugate's transpose, not 0:
  // PyTorch's backward (det·A⁻ᵀ through its LU) gives 0 there, so the reference is the cofactor matrix
  { name: 'det gradient of a singular matrix of rank n-1 is the cofactor matrix', inputs: [SINGULAR2], js: (a) => { a.requiresGrad_(); tpu.linalg.det(a).backward(); return a.grad!; }, py: 'a = x0.double()\nresult = torch.stack([a[1, 1], -a[1, 0], -a[0, 1], a[0, 0]]).reshape(2, 2).float()' },
  grads('slogdet gradient', [M4], (a) => tpu.linalg.slogdet(a).logabsdet, d('torch.linalg.slogdet(x0.double()).logabsdet'), WELL),
  // weighted by 1 ... 144 the gradient reaches 1e4: its small elements are as close as float32 sums of 1e4s allow
  grads('det and inv gradients of a 12×12 matrix', [R12], (a) => tpu.linalg.inv(a).add(tpu.linalg.det(a).mul(1e-5)), d('torch.linalg.inv(x0.double()) + torch.linalg.det(x0.double()) * 1e-5'), { rtol: 1e-4, atol: 1e-2 }),
  grads('inv gradient', [P3], (a) => tpu.linalg.inv(a), d('torch.linalg.inv(x0.double())'), WELL),
  grads('solve gradients of A and B', [B233, seq('float32', [3, 2], 0.5, -2)], (a, b) => tpu.linalg.solve(a, b), d('torch.linalg.solve(x0.double(), x1.double())'), WELL),
  grads('solve gradients with a vector', [M4, f32([1, -1, 2, 0.5])], (a, b) => tpu.linalg.solve(a, b), d('torch.linalg.solve(x0.double(), x1.double())'), WELL),
];

torchTier('linalg det, slogdet, inv and solve follow PyTorch', cases, { compile: true });
