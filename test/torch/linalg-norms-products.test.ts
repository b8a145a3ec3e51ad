// tpu.linalg vectorNorm matrixNorm norm cross, and tpu.cross kron tensordot cdist against
// PyTorch 2.13: values, dtypes, gradients, options, bad input; then the messages of errors.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, grads, i32, seq, torchTier, type TorchCase } from './torch-tier.js';

const INF = Infinity;
const M23 = f32([[1, -2, 3], [-4, 5, -6.5]]);
const T234 = seq('float32', [2, 3, 4], 0.5, -7);
const ROWS = f32([[0, 0, 1], [1, 2, 2], [-1, 0.5, 3], [2, -1, 0]]);
const OTHERS = f32([[1, 1, 1], [0, 0, 0], [3, -2, 0.25]]);

const cases: TorchCase[] = [
  // vectorNorm
  { name: 'vectorNorm over all elements, and ords', inputs: [M23], js: (x) => [tpu.linalg.vectorNorm(x), ...[1, 3, -1, 0, INF, -INF].map((o) => tpu.linalg.vectorNorm(x, o))], py: '[torch.linalg.vector_norm(x0)] + [torch.linalg.vector_norm(x0, o) for o in (1, 3, -1, 0, math.inf, -math.inf)]' },
  { name: 'vectorNorm over dims, positional and in options', inputs: [T234], js: (x) => [tpu.linalg.vectorNorm(x, 2, 1), tpu.linalg.vectorNorm(x, 1, [0, 2], true), tpu.linalg.vectorNorm(x, { ord: INF, dim: -1, keepdim: true }), tpu.linalg.vectorNorm(x, 3, { dim: [1, 2] })], py: '(torch.linalg.vector_norm(x0, 2, 1), torch.linalg.vector_norm(x0, 1, (0, 2), True), torch.linalg.vector_norm(x0, ord=math.inf, dim=-1, keepdim=True), torch.linalg.vector_norm(x0, 3, dim=(1, 2)))' },
  { name: 'vectorNorm of bfloat16', inputs: [bf16([[1.5, -2.25], [3, 0.125]])], js: (x) => [tpu.linalg.vectorNorm(x), tpu.linalg.vectorNorm(x, 1, 0)], py: '(torch.linalg.vector_norm(x0), torch.linalg.vector_norm(x0, 1, 0))' },
  { name: 'vectorNorm of int32 is an error', inputs: [i32([3, 4])], js: (x) => tpu.linalg.vectorNorm(x), py: 'torch.linalg.vector_norm(x0)' },
  // matrixNorm
  { name: 'matrixNorm fro, 1, -1, inf and -inf', inputs: [M23], js: (x) => [tpu.linalg.matrixNorm(x), ...(['fro', 1, -1, INF, -INF] as const).map((o) => tpu.linalg.matrixNorm(x, o))], py: "[torch.linalg.matrix_norm(x0)] + [torch.linalg.matrix_norm(x0, o) for o in ('fro', 1, -1, math.inf, -math.inf)]" },
  { name: 'matrixNorm of a batch, over other dims, with keepdim', inputs: [T234], js: (x) => [tpu.linalg.matrixNorm(x, 1), tpu.linalg.matrixNorm(x, INF, [2, 0]), tpu.linalg.matrixNorm(x, { ord: -1, dim: [0, 2], keepdim: true }), tpu.linalg.matrixNorm(x, 'fro', [-1, 0], true)], py: "(torch.linalg.matrix_norm(x0, 1), torch.linalg.matrix_norm(x0, math.inf, (2, 0)), torch.linalg.matrix_norm(x0, ord=-1, dim=(0, 2), keepdim=True), torch.linalg.matrix_norm(x0, 'fro', (-1, 0), True))" },
  { name: 'matrixNorm nuc and 2 over the singular values', inputs: [M23], js: (x) => [tpu.linalg.matrixNorm(x, 'nuc'), tpu.linalg.matrixNorm(x, 2)], py: "(torch.linalg.matrix_norm(x0, 'nuc'), torch.linalg.matrix_norm(x0, 2))" },
  { name: 'matrixNorm of an unknown ord is an error', inputs: [M23], js: (x) => tpu.linalg.matrixNorm(x, 3), py: 'torch.linalg.matrix_norm(x0, 3)' },
  { name: 'matrixNorm of a vector is an error', inputs: [f32([1, 2])], js: (x) => tpu.linalg.matrixNorm(x), py: 'torch.linalg.matrix_norm(x0)' },
  // norm
  { name: 'norm picks a vector or a matrix norm', inputs: [T234, M23, f32([3, -4, 12])], js: (t, m, v) => [tpu.linalg.norm(t), tpu.linalg.norm(m, INF), tpu.linalg.norm(m, 'fro'), tpu.linalg.norm(v, 1), tpu.linalg.norm(t, 3, 1), tpu.linalg.norm(t, -INF, [1, 2]), tpu.linalg.norm(t, undefined, [0, 1], true), tpu.linalg.norm(t, { ord: 1, dim: -1 })], py: "(torch.linalg.norm(x0), torch.linalg.norm(x1, math.inf), torch.linalg.norm(x1, 'fro'), torch.linalg.norm(x2, 1), torch.linalg.norm(x0, 3, 1), torch.linalg.norm(x0, -math.inf, (1, 2)), torch.linalg.norm(x0, None, (0, 1), True), torch.linalg.norm(x0, ord=1, dim=-1))" },
  { name: 'norm with an ord of a 3-D tensor and no dim is an error', inputs: [T234], js: (x) => tpu.linalg.norm(x, 2), py: 'torch.linalg.norm(x0, 2)' },
  { name: 'norm fro of a vector is an error', inputs: [f32([3, 4])], js: (x) => tpu.linalg.norm(x, 'fro'), py: "torch.linalg.norm(x0, 'fro')" },
  // cross
  { name: 'linalg.cross along the last dim, broadcast', inputs: [ROWS, f32([[2, -1, 0.5]])], js: (a, b) => [tpu.linalg.cross(a, b), tpu.linalg.cross(b, a)], py: '(torch.linalg.cross(x0, x1), torch.linalg.cross(x1, x0))' },
  { name: 'cross along a given dim, and of int32', inputs: [OTHERS, f32([[1, 0, 2], [0, 1, 0], [5, 5, -1]]), i32([[1, 2, 3]]), i32([[-2, 0, 7]])], js: (a, b, c, e) => [a.cross(b, { dim: 0 }), tpu.cross(a, b, { dim: 1 }), tpu.linalg.cross(a, b, { dim: -2 }), c.cross(e)], py: '(x0.cross(x1, dim=0), torch.cross(x0, x1, dim=1), torch.linalg.cross(x0, x1, dim=-2), x2.cross(x3))' },
  { name: 'cross without a dim where torch.cross takes the first dim of length 3', inputs: [OTHERS, f32([[1, 0, 2], [0, 1, 0], [5, 5, -1]])], js: (a, b) => a.cross(b), py: 'x0.cross(x1)' },
  { name: 'cross of a dim of length 2 is an error', inputs: [seq('float32', [3, 2]), seq('float32', [3, 2])], js: (a, b) => tpu.linalg.cross(a, b), py: 'torch.linalg.cross(x0, x1)' },
  { name: 'cross of two dtypes is an error', inputs: [ROWS, i32([[1, 2, 3]])], js: (a, b) => tpu.linalg.cross(a, b), py: 'torch.linalg.cross(x0, x1)' },
  { name: 'cross of different ranks is an error', inputs: [ROWS, f32([1, 2, 3])], js: (a, b) => tpu.linalg.cross(a, b), py: 'torch.linalg.cross(x0, x1)' },
  { name: 'cross of bfloat16 rounds each product and difference, as PyTorch', inputs: [bf16([[1.1, 2.3, -0.7], [5.3, -0.01, 3.7]]), bf16([[0.3, -1.9, 2.2], [1.7, 2.9, -4.1]])], js: (a, b) => tpu.linalg.cross(a, b), py: 'torch.linalg.cross(x0, x1)' },
  // kron
  { name: 'kron of vectors, matrices and mixed ranks', inputs: [f32([1, -2]), f32([[1, 2], [3, 4]]), M23], js: (v, m, n) => [tpu.kron(v, v), m.kron(n), tpu.kron(n, v), tpu.kron(v, m)], py: '(torch.kron(x0, x0), x1.kron(x2), torch.kron(x2, x0), torch.kron(x0, x1))' },
  { name: 'kron of bfloat16', inputs: [bf16([[1.1, -2.3], [0.7, 5.3]]), bf16([0.3, -1.9, 2.2])], js: (a, b) => tpu.kron(a, b), py: 'torch.kron(x0, x1)' },
  { name: 'kron promotes dtypes, and of bools', inputs: [i32([[1, 2], [3, 4]]), f32([0.5, -1]), bool([true, false])], js: (a, b, c) => [tpu.kron(a, b), tpu.kron(c, c), tpu.kron(a, a)], py: '(torch.kron(x0, x1), torch.kron(x2, x2), torch.kron(x0, x0))' },
  // tensordot
  { name: 'tensordot by a number of dims', inputs: [T234, seq('float32', [3, 4, 2], 0.25, -3)], js: (a, b) => [tpu.tensordot(a, b), tpu.tensordot(a.narrow(2, 0, 2), b.narrow(0, 0, 1), 0), tpu.tensordot(a, b.permute(1, 0, 2), 1)], py: '(torch.tensordot(x0, x1), torch.tensordot(x0[:, :, :2], x1[:1], 0), torch.tensordot(x0, x1.permute(1, 0, 2), 1))' },
  { name: 'tensordot by lists of dims', inputs: [T234, seq('float32', [4, 2, 3], 0.25, -3)], js: (a, b) => [tpu.tensordot(a, b, [[1, 2], [2, 0]]), tpu.tensordot(a, b, { dims: [2, 0] }), tpu.tensordot(a, b, [[-1, 1], [0, -1]])], py: '(torch.tensordot(x0, x1, ([1, 2], [2, 0])), torch.tensordot(x0, x1, dims=([2], [0])), torch.tensordot(x0, x1, ([-1, 1], [0, -1])))' },
  { name: 'tensordot of bfloat16', inputs: [bf16([[1.1, 2.3, -0.7], [5.3, -0.01, 3.7]]), bf16([[0.3, -1.9], [2.2, 1.7], [2.9, -4.1]])], js: (a, b) => tpu.tensordot(a, b, 1), py: 'torch.tensordot(x0, x1, 1)' },
  { name: 'tensordot of int32', inputs: [i32([[1, 2], [3, 4]]), i32([[5, -6], [7, 8]])], js: (a, b) => tpu.tensordot(a, b, 1), py: 'torch.tensordot(x0, x1, 1)' },
  { name: 'tensordot of mismatched sizes is an error', inputs: [M23, seq('float32', [3, 2])], js: (a, b) => tpu.tensordot(a, b, [[1], [1]]), py: 'torch.tensordot(x0, x1, ([1], [1]))' },
  { name: 'tensordot of more dims than there are is an error', inputs: [M23, seq('float32', [3, 2])], js: (a, b) => tpu.tensordot(a, b, 3), py: 'torch.tensordot(x0, x1, 3)' },
  { name: 'tensordot of two dtypes is an error', inputs: [M23, i32([[1], [2], [3]])], js: (a, b) => tpu.tensordot(a, b, 1), py: 'torch.tensordot(x0, x1, 1)' },
  // cdist
  { name: 'cdist with p 2, 1, 0, 3 and inf', inputs: [ROWS, OTHERS], js: (a, b) => [tpu.cdist(a, b), ...[1, 0, 3, INF].map((p) => tpu.cdist(a, b, { p }))], py: '[torch.cdist(x0, x1)] + [torch.cdist(x0, x1, p=p) for p in (1, 0, 3, math.inf)]' },
  { name: 'cdist broadcasts batches', inputs: [seq('float32', [2, 1, 3, 2], 0.5, -4), seq('float32', [3, 4, 2], 0.25, 1)], js: (a, b) => tpu.cdist(a, b), py: 'torch.cdist(x0, x1)' },
  { name: 'cdist of a vector is an error', inputs: [f32([1, 2, 3]), OTHERS], js: (a, b) => tpu.cdist(a, b), py: 'torch.cdist(x0, x1)' },
  { name: 'cdist with a negative p is an error', inputs: [ROWS, OTHERS], js: (a, b) => tpu.cdist(a, b, { p: -1 }), py: 'torch.cdist(x0, x1, p=-1)' },
  { name: 'cdist of int32 is an error', inputs: [i32([[1, 2]]), i32([[3, 4]])], js: (a, b) => tpu.cdist(a, b), py: 'torch.cdist(x0, x1)' },
  { name: 'cdist of different feature counts is an error', inputs: [ROWS, seq('float32', [2, 2])], js: (a, b) => tpu.cdist(a, b), py: 'torch.cdist(x0, x1)' },
  // gradients
  grads('vectorNorm gradients', [M23], (x) => tpu.linalg.vectorNorm(x, 3, 1), 'torch.linalg.vector_norm(x0, 3, 1)'),
  grads('matrixNorm gradients', [T234], (x) => tpu.linalg.matrixNorm(x, 'fro').add(tpu.linalg.matrixNorm(x, 1)).add(tpu.linalg.matrixNorm(x, -INF)), "torch.linalg.matrix_norm(x0, 'fro') + torch.linalg.matrix_norm(x0, 1) + torch.linalg.matrix_norm(x0, -math.inf)"),
  grads('cross gradients', [ROWS, f32([[2, -1, 0.5]])], (a, b) => tpu.linalg.cross(a, b), 'torch.linalg.cross(x0, x1)'),
  grads('kron gradients', [f32([[1, -2], [0.5, 3]]), M23], (a, b) => tpu.kron(a, b), 'torch.kron(x0, x1)'),
  grads('tensordot gradients', [T234, seq('float32', [4, 2, 3], 0.25, -3)], (a, b) => tpu.tensordot(a, b, [[1, 2], [2, 0]]), 'torch.tensordot(x0, x1, ([1, 2], [2, 0]))'),
  grads('cdist gradients with p 2 and 1', [ROWS, OTHERS], (a, b) => tpu.cdist(a, b).add(tpu.cdist(a, b, { p: 1 })), 'torch.cdist(x0, x1) + torch.cdist(x0, x1, p=1)'),
];

torchTier('linalg norms, cross, kron, tensordot and cdist follow PyTorch', cases, { compile: true });

describe('linalg errors name the argument, the expected and the actual value', () => {
  const square = tpu.tensor([[1, 2], [3, 4]]);
  it.each([
    ['det of a non-square matrix', () => tpu.linalg.det(tpu.zeros([2, 3])), /linalg\.det: A must be a batch of square matrices, but they are 2 by 3 matrices/],
    ['inv of int32', () => tpu.linalg.inv(tpu.tensor(new Int32Array([1, 2, 3, 4])).reshape([2, 2])), /linalg\.inv: A must be a floating-point tensor .*got int32/],
    ['det of bfloat16', () => square.to('bfloat16').det(), /linalg\.det: A must be float32; got bfloat16/],
    ['solve with B of the wrong rows', () => tpu.linalg.solve(square, tpu.ones([3])), /linalg\.solve: B must have 2 rows .*got B \[3\]/],
    ['solve with mismatched batches', () => tpu.linalg.solve(tpu.zeros([2, 2, 2]), tpu.zeros([3, 2, 1])), /linalg\.solve.*\[2\].*\[3\]/],
    ['a typo in vectorNorm options', () => tpu.linalg.vectorNorm(square, { ord: 1, keepDim: true } as never), /linalg\.vectorNorm: unknown option 'keepDim' \(did you mean 'keepdim'\?\)/],
    ['matrixNorm 2 of bfloat16', () => tpu.linalg.matrixNorm(square.to('bfloat16'), 2), /linalg\.matrixNorm: A must be float32; got bfloat16/],
    ['eigh of a non-square matrix', () => tpu.linalg.eigh(tpu.zeros([2, 3])), /linalg\.eigh: A must be a batch of square matrices, but they are 2 by 3 matrices/],
    ['eigh with an unknown UPLO', () => tpu.linalg.eigh(square, 'X' as never), /linalg\.eigh: UPLO must be 'L' or 'U'; got "X"/],
    ['cholesky with a non-boolean upper', () => tpu.linalg.cholesky(square, { upper: 1 } as never), /linalg\.cholesky: upper must be a boolean; got 1/],
    ['qr with an unknown mode', () => tpu.linalg.qr(square, 'full' as never), /linalg\.qr: mode must be 'reduced', 'complete' or 'r'; got "full"/],
    ['svd of a vector', () => tpu.linalg.svd(tpu.ones([3])), /linalg\.svd: A must have at least 2 dimensions .*got \[3\]/],
    ['lstsq with B of the wrong rows', () => tpu.linalg.lstsq(square, tpu.ones([3, 1])), /linalg\.lstsq: B must have 2 rows .*got B \[3, 1\]/],
    ['pinv with a negative rtol', () => tpu.linalg.pinv(square, { rtol: -1 }), /linalg\.pinv: rtol must be a number ≥ 0; got -1/],
    ['an ord given twice', () => tpu.linalg.norm(square, 1, { ord: 2 } as never), /linalg\.norm: ord is given twice/],
    ['cross without a dim where the defaults differ', () => tpu.ones([3, 3]).cross(tpu.ones([3, 3])), /cross: without a dim, torch\.cross takes the first dim of length 3 \(0 here\)/],
    ['a typo in cdist options', () => tpu.cdist(square, square, { P: 1 } as never), /cdist: unknown option 'P' \(did you mean 'p'\?\)/],
    ['tensordot dims of different lengths', () => tpu.tensordot(square, square, [[0, 1], [0]]), /tensordot: dimsA and dimsB must be as many/],
  ])('%s', (_name, f, message) => {
    expect(f).toThrow(message);
  });
});
