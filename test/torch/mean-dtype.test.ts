// mean takes PyTorch's dtype keyword, x.mean(1, { dtype }) for torch.mean(x, 1, dtype=...): the
// result has that dtype (a bfloat16 one of a wider input is its float32 mean rounded once); an
// integer input needs it, and an integer dtype is an error, as in PyTorch. The gradient is divided
// in the result's dtype, then cast to the input's, as PyTorch's. Against PyTorch 2.13 in every
// mode and under tpu.compile; values within the tier's bfloat16 tolerance, gradients bit for bit.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, i32, i64, seq, torchTier, weightedGrad, type InputSpec, type TorchCase } from './torch-tier.js';

const N = i64([[1, 5, -3], [7, 2, 4]]);
const I = i32([[0, -2, 3, 1], [4, 4, -1, 2], [9, -7, 5, 6]]);
// not bfloat16 values: the float32 mean rounded once (PyTorch's) and the mean of the rounded input differ
const F = f32([[1.3, -0.7, 2.9], [0.1, 3.3, -1.7]]);
const B = bf16([[1.5, -2.75, 3.25], [0.5, 4, -1.5]]);
// [10, 3]: 10, 3 and 30 reduced elements, none a power of two, so w / n in bfloat16 rounds
const F10 = seq('float32', [10, 3], 0.37, -11);
const B10 = seq('bfloat16', [10, 3], 0.5, -11);
// not bfloat16 values either: between them these tell PyTorch's bfloat16(bfloat16(w) / n) from
// bfloat16(w / n), bfloat16(w) · bfloat16(1 / n) and the float32 bfloat16(w) / n
const W3 = [0.3, -1.7, 2.9];
const W10 = [[0.7], [-5.3], [1.1], [2.3], [-0.9], [3.7], [0.1], [-2.6], [4.1], [1.9]];

/** The gradient of Σ w·mean(x) with respect to x, bit for bit. */
const grad = (name: string, input: InputSpec, js: (x: Tensor) => Tensor, py: string, weights: number[] | number[][]) =>
  weightedGrad(name, input, js, py, weights, { rtol: 0, atol: 0 });

const cases: TorchCase[] = [
  { name: 'int64 mean with float32 dtype: of everything, over a dim, keeping it', inputs: [N], js: (x) => [x.mean({ dtype: 'float32' }), x.mean(1, { dtype: 'float32' }), x.mean(0, { keepdim: true, dtype: 'float32' })], py: '(x0.mean(dtype=torch.float32), x0.mean(1, dtype=torch.float32), x0.mean(0, keepdim=True, dtype=torch.float32))' },
  { name: 'int32 mean with bfloat16 dtype over a dim list', inputs: [I], js: (x) => [x.mean([0, 1], { dtype: 'bfloat16' }), x.mean(-1, { dtype: 'bfloat16' })], py: '(x0.mean([0, 1], dtype=torch.bfloat16), x0.mean(-1, dtype=torch.bfloat16))' },
  { name: 'float32 mean with bfloat16 dtype is the float32 mean rounded once', inputs: [F], js: (x) => [x.mean(1, { dtype: 'bfloat16' }), x.mean({ dtype: 'bfloat16' })], py: '(x0.mean(1, dtype=torch.bfloat16), x0.mean(dtype=torch.bfloat16))' },
  { name: 'bfloat16 mean with float32 dtype', inputs: [B], js: (x) => [x.mean(0, { dtype: 'float32' }), x.mean(1, true)], py: '(x0.mean(0, dtype=torch.float32), x0.mean(1, True))' },
  { name: 'dim, keepdim and dtype in one options object', inputs: [I], js: (x) => x.mean({ dim: 1, keepdim: true, dtype: 'float32' }), py: 'x0.mean(dim=1, keepdim=True, dtype=torch.float32)' },
  { name: 'tpu.mean with dtype', inputs: [N], js: (x) => tpu.mean(x, 0, { dtype: 'float32' }), py: 'torch.mean(x0, 0, dtype=torch.float32)' },
  { name: 'an empty int64 input with float32 dtype gives NaN, as PyTorch', inputs: [i64([[], []])], js: (x) => [x.mean(1, { dtype: 'float32' }), x.mean({ dtype: 'float32' })], py: '(x0.mean(1, dtype=torch.float32), x0.mean(dtype=torch.float32))' },
  { name: 'mean of an int input without dtype is an error', inputs: [N], js: (x) => x.mean(1), py: 'x0.mean(1)' },
  { name: 'mean with an int32 dtype is an error', inputs: [F], js: (x) => x.mean(1, { dtype: 'int32' }), py: 'x0.mean(1, dtype=torch.int32)' },
  grad('mean gradient with a bfloat16 dtype is divided in bfloat16 and reaches a float32 input as float32', F10, (x) => x.mean(0, { dtype: 'bfloat16' }), 'x.mean(0, dtype=torch.bfloat16)', W3),
  grad('mean gradient with a bfloat16 dtype over a dim kept', F10, (x) => x.mean(1, { keepdim: true, dtype: 'bfloat16' }), 'x.mean(1, keepdim=True, dtype=torch.bfloat16)', W10),
  grad('mean gradient with a bfloat16 dtype of everything', F10, (x) => x.mean({ dtype: 'bfloat16' }), 'x.mean(dtype=torch.bfloat16)', [0.3]),
  grad('mean gradient with a float32 dtype is divided in float32 and reaches a bfloat16 input as bfloat16', B10, (x) => x.mean(0, { dtype: 'float32' }), 'x.mean(0, dtype=torch.float32)', W3),
];

torchTier('mean with dtype vs PyTorch', cases, { compile: true });

describe('mean options are checked', () => {
  const x = () => tpu.tensor(new Int32Array([1, 2, 3, 4])).reshape([2, 2]);
  it.each([
    ['x.mean(1, { dtpye })', () => x().mean(1, { dtpye: 'float32' } as never), "mean: unknown option 'dtpye'; mean accepts 'keepdim', 'dtype'"],
    ['x.mean({ dim, dType })', () => x().mean({ dim: 1, dType: 'float32' } as never), "mean: unknown option 'dType' (did you mean 'dtype'?); mean accepts 'dim', 'keepdim', 'dtype'"],
    ['x.mean(1, { dtype: int64 })', () => x().mean(1, { dtype: 'int64' }), "mean: dtype must be floating point, as PyTorch's mean(dtype=...); got int64"],
    ['x.mean(1, { dtype: float16 })', () => x().mean(1, { dtype: 'float16' } as never), 'mean: dtype must be one of float32, bfloat16, int32, int64, bool; got "float16"'],
    ['x.mean(1) of an int input', () => x().mean(1), "mean: input dtype must be floating point (float32 or bfloat16); got int32. Give x.mean({ dtype: 'float32' }) (PyTorch's dtype=) or x.to('float32').mean()"],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
