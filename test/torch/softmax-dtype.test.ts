// softmax and logSoftmax take PyTorch's dtype keyword after the dim, x.softmax(1, { dtype }) for
// torch.softmax(x, 1, dtype=...) (the options were ignored: the result kept the input's dtype,
// and an int input raised): the input is cast first and the result has that dtype, the gradient
// runs back through the cast, against PyTorch in every mode. bfloat16 results are compared
// within the tier's bfloat16 tolerance (1e-3 absolute + 1e-3 relative); float32 within 1e-6 + 1e-5.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, i32, i64, torchTier, weightedGrad, type InputSpec, type TorchCase } from './torch-tier.js';

const N = i64([[1, 5, -3], [7, 2, 4]]);
const I = i32([[0, -2, 3, 1], [4, 4, -1, 2]]);
// not bfloat16 values: casting first (PyTorch's order) and casting the result differ
const F = f32([[1.3, -0.7, 2.9], [0.1, 3.3, -1.7]]);
const B = bf16([[1.5, -2.75, 3.25], [0.5, 4, -1.5]]);
const B3 = bf16([[[0.5, -1.25, 2, 3.5], [1.75, 0.25, -2.5, 1], [-0.75, 2.25, 1.5, -3]], [[2.5, 1, -1.5, 0.75], [-2, 3.25, 0.5, 1.25], [1, -0.5, 2.75, -1]]]);
const W = [[1, 2, 3], [4, 5, 6]];

/** The gradient of Σ w·f(x) with respect to x, through the cast that dtype asks for. */
const grad = (name: string, input: InputSpec, js: (x: Tensor) => Tensor, py: string, tolerance?: { rtol?: number; atol?: number }) =>
  weightedGrad(name, input, js, py, W, tolerance);

const cases: TorchCase[] = [
  { name: 'int64 softmax with float32 dtype', inputs: [N], js: (x) => x.softmax(1, { dtype: 'float32' }), py: 'x0.softmax(1, dtype=torch.float32)' },
  { name: 'int64 logSoftmax with float32 dtype', inputs: [N], js: (x) => x.logSoftmax(1, { dtype: 'float32' }), py: 'x0.log_softmax(1, dtype=torch.float32)' },
  { name: 'int32 softmax and logSoftmax with bfloat16 dtype', inputs: [I], js: (x) => [x.softmax(1, { dtype: 'bfloat16' }), x.logSoftmax(0, { dtype: 'bfloat16' })], py: '(x0.softmax(1, dtype=torch.bfloat16), x0.log_softmax(0, dtype=torch.bfloat16))' },
  { name: 'float32 softmax and logSoftmax with bfloat16 dtype cast the input first', inputs: [F], js: (x) => [x.softmax(-1, { dtype: 'bfloat16' }), x.logSoftmax(-1, { dtype: 'bfloat16' })], py: '(x0.softmax(-1, dtype=torch.bfloat16), x0.log_softmax(-1, dtype=torch.bfloat16))' },
  { name: 'bfloat16 softmax and logSoftmax with float32 dtype', inputs: [B], js: (x) => [x.softmax(1, { dtype: 'float32' }), x.logSoftmax(0, { dtype: 'float32' })], py: '(x0.softmax(1, dtype=torch.float32), x0.log_softmax(0, dtype=torch.float32))' },
  { name: 'dim and dtype in one options object', inputs: [N], js: (x) => [x.softmax({ dim: 0, dtype: 'float32' }), x.logSoftmax({ dim: -1, dtype: 'bfloat16' })], py: '(x0.softmax(dim=0, dtype=torch.float32), x0.log_softmax(dim=-1, dtype=torch.bfloat16))' },
  { name: 'tpu.softmax and tpu.logSoftmax with dtype', inputs: [N], js: (x) => [tpu.softmax(x, 1, { dtype: 'float32' }), tpu.logSoftmax(x, 0, { dtype: 'float32' })], py: '(torch.softmax(x0, 1, dtype=torch.float32), torch.log_softmax(x0, 0, dtype=torch.float32))' },
  { name: 'nn.functional softmax and logSoftmax with dtype', inputs: [I], js: (x) => [tpu.nn.functional.softmax(x, 1, { dtype: 'bfloat16' }), tpu.nn.functional.logSoftmax(x, { dim: 1, dtype: 'float32' })], py: '(F.softmax(x0, 1, dtype=torch.bfloat16), F.log_softmax(x0, dim=1, dtype=torch.float32))' },
  { name: 'an empty int64 input with float32 dtype gives an empty float32', inputs: [i64([[], []])], js: (x) => [x.softmax(1, { dtype: 'float32' }), x.logSoftmax(0, { dtype: 'float32' })], py: '(x0.softmax(1, dtype=torch.float32), x0.log_softmax(0, dtype=torch.float32))' },
  { name: 'bfloat16 logSoftmax rounds Σ exp and its log to bfloat16 over the last dim only, as PyTorch\'s kernels', inputs: [B3], js: (x) => [x.logSoftmax(0), x.logSoftmax(1), x.logSoftmax(2)], py: '(x0.log_softmax(0), x0.log_softmax(1), x0.log_softmax(2))' },
  { name: 'softmax with int32 dtype is an error', inputs: [F], js: (x) => x.softmax(1, { dtype: 'int32' }), py: 'x0.softmax(1, dtype=torch.int32)' },
  { name: 'logSoftmax with bool dtype is an error', inputs: [N], js: (x) => x.logSoftmax(1, { dtype: 'bool' }), py: 'x0.log_softmax(1, dtype=torch.bool)' },
  grad('softmax gradient through a float32 dtype reaches a bfloat16 input as bfloat16', B, (x) => x.softmax(1, { dtype: 'float32' }), 'x.softmax(1, dtype=torch.float32)'),
  grad('logSoftmax gradient through a float32 dtype reaches a bfloat16 input as bfloat16', B, (x) => x.logSoftmax(1, { dtype: 'float32' }), 'x.log_softmax(1, dtype=torch.float32)'),
  // PyTorch's backward reads the bfloat16 results it rounded, here the float32 values before the
  // rounding (inFloat32): within one bfloat16 ulp (2^-7 relative) of the gradient's terms. The
  // largest difference, 0.0065 at [1][1], is PyTorch's: its softmax term there is 0.0376, float64's
  // 0.0311 and this runtime's 0.0311.
  grad('softmax and logSoftmax gradients through a bfloat16 dtype reach a float32 input as float32', F,
    (x) => x.softmax(1, { dtype: 'bfloat16' }).add(tpu.logSoftmax(x, 0, { dtype: 'bfloat16' })),
    'x.softmax(1, dtype=torch.bfloat16) + torch.log_softmax(x, 0, dtype=torch.bfloat16)', { rtol: 2 ** -7, atol: 1e-3 }),
];

torchTier('softmax and logSoftmax with dtype vs PyTorch', cases);

describe('softmax and logSoftmax options after the dim are checked', () => {
  const x = () => tpu.tensor(new Int32Array([1, 2, 3, 4])).reshape([2, 2]);
  it.each([
    ['x.softmax(1, { dtpye })', () => x().softmax(1, { dtpye: 'float32' } as never), "softmax: unknown option 'dtpye'; softmax accepts 'dtype'"],
    ['x.logSoftmax({ dim, dtpye })', () => x().logSoftmax({ dim: 1, dtpye: 'float32' } as never), "logSoftmax: unknown option 'dtpye'; logSoftmax accepts 'dim', 'dtype'"],
    ['tpu.softmax(x, 1, { dType })', () => tpu.softmax(x(), 1, { dType: 'float32' } as never), "softmax: unknown option 'dType' (did you mean 'dtype'?); softmax accepts 'dtype'"],
    ['x.softmax(1, { dtype: float16 })', () => x().softmax(1, { dtype: 'float16' } as never), 'softmax: dtype must be one of float32, bfloat16, int32, int64, bool; got "float16"'],
    ['x.logSoftmax(1, { dtype: int64 })', () => x().logSoftmax(1, { dtype: 'int64' }), 'logSoftmax: dtype int64 is not supported, as in PyTorch; give a floating-point dtype'],
    ['x.softmax(1, { dim: 0 })', () => x().softmax(1, { dim: 0 } as never), 'softmax: dim is given twice: positionally (1) and in the options (0)'],
    ["x.softmax(1, 'float32')", () => x().softmax(1, 'float32' as never), "softmax: the argument after dim must be an options object such as { dtype: 'float32' }; got \"float32\""],
    ['x.softmax(1) of an int input', () => x().softmax(1), 'softmax: input must be a floating-point tensor'],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
