// cumsum and cumprod take PyTorch's dtype keyword after the dim, x.cumsum(1, { dtype }) for
// torch.cumsum(x, 1, dtype=...) (the options were ignored: an int tensor's sum stayed int64):
// the input is cast first and the result has that dtype, against PyTorch in every mode.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const I = i32([[1, 5, -3], [7, 2, 4]]);
const F = f32([[1.5, -2.75, 3.25], [0.5, 4, -1.5]]);

const cases: TorchCase[] = [
  { name: 'int32 cumsum with float32 dtype', inputs: [I], js: (x) => x.cumsum(1, { dtype: 'float32' }), py: 'torch.cumsum(x0, 1, dtype=torch.float32)' },
  { name: 'int32 cumsum with bfloat16 dtype over dim 0', inputs: [I], js: (x) => x.cumsum(0, { dtype: 'bfloat16' }), py: 'x0.cumsum(0, dtype=torch.bfloat16)' },
  { name: 'float32 cumsum with int32 dtype truncates first', inputs: [F], js: (x) => x.cumsum(1, { dtype: 'int32' }), py: 'x0.cumsum(1, dtype=torch.int32)' },
  { name: 'cumsum with dim and dtype in one options object', inputs: [I], js: (x) => x.cumsum({ dim: -1, dtype: 'float32' }), py: 'x0.cumsum(dim=-1, dtype=torch.float32)' },
  { name: 'tpu.cumsum with dtype', inputs: [I], js: (x) => tpu.cumsum(x, 0, { dtype: 'int64' }), py: 'torch.cumsum(x0, 0, dtype=torch.int64)' },
  { name: 'int32 cumprod with float32 and int32 dtypes', inputs: [I], js: (x) => [x.cumprod(1, { dtype: 'float32' }), x.cumprod(0, { dtype: 'int32' })], py: '(x0.cumprod(1, dtype=torch.float32), x0.cumprod(0, dtype=torch.int32))' },
  { name: 'float32 cumprod with int32 dtype', inputs: [F], js: (x) => x.cumprod(1, { dtype: 'int32' }), py: 'torch.cumprod(x0, 1, dtype=torch.int32)' },
  { name: 'cumsum with bool dtype is an error', inputs: [I], js: (x) => x.cumsum(1, { dtype: 'bool' }), py: 'x0.cumsum(1, dtype=torch.bool)' },
  { name: 'cumsum and cumprod without dtype', inputs: [I], js: (x) => [x.cumsum(1), x.cumprod(0)], py: '(x0.cumsum(1), x0.cumprod(0))' },
];

torchTier('cumsum and cumprod with dtype vs PyTorch', cases);

describe('cumsum and cumprod options after the dim are checked', () => {
  const x = () => tpu.tensor([[1, 2], [3, 4]]);
  it.each([
    ['x.cumsum(1, { dType })', () => x().cumsum(1, { dType: 'float32' } as never), "cumsum: unknown option 'dType' (did you mean 'dtype'?); cumsum accepts 'dtype'"],
    ['x.cumprod(1, { keepdim })', () => x().cumprod(1, { keepdim: true } as never), "cumprod: unknown option 'keepdim'; cumprod accepts 'dtype'"],
    ['x.cumsum(1, { dim: 0 })', () => x().cumsum(1, { dim: 0 } as never), 'cumsum: dim is given twice: positionally (1) and in the options (0)'],
    ['x.cumsum(1, true)', () => x().cumsum(1, true as never), "cumsum: the argument after dim must be an options object such as { dtype: 'float32' }; got true"],
    ['x.cumsum(1, { dtype: bool })', () => x().cumsum(1, { dtype: 'bool' }), 'cumsum: dtype bool is not supported, as in PyTorch; give a numeric dtype'],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
