// tpu.full's dtype follows torch.full's inference: an integer fill is int64, another number
// float32 (NaN, ±Infinity, -0 too), a boolean bool; a dtype option wins. fullLike keeps its
// input's dtype, as torch.full_like. Against PyTorch 2.13 in every mode.
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  { name: 'full of an integer is int64, of another number float32, of a boolean bool', inputs: [], js: () => [tpu.full([2], 7), tpu.full([2, 1], -3), tpu.full([], 5), tpu.full([2], 7.5), tpu.full([2], true), tpu.full([3], 2 ** 40)], py: '[torch.full((2,), 7), torch.full((2, 1), -3), torch.full((), 5), torch.full((2,), 7.5), torch.full((2,), True), torch.full((3,), 2 ** 40)]' },
  { name: 'full of NaN, infinities and -0 is float32', inputs: [], js: () => [tpu.full([2], NaN), tpu.full([1], Infinity), tpu.full([1], -Infinity), tpu.full([2], -0)], py: '[torch.full((2,), math.nan), torch.full((1,), math.inf), torch.full((1,), -math.inf), torch.full((2,), -0.0)]' },
  { name: 'full with a dtype option keeps it', inputs: [], js: () => [tpu.full([2], 7, { dtype: 'float32' }), tpu.full([2], 2.7, { dtype: 'int64' }), tpu.full([2], 3, { dtype: 'int32' }), tpu.full([2], 1, { dtype: 'bool' }), tpu.full([2], 0.1, { dtype: 'bfloat16' })], py: '[torch.full((2,), 7, dtype=torch.float32), torch.full((2,), 2.7, dtype=torch.int64), torch.full((2,), 3, dtype=torch.int32), torch.full((2,), 1, dtype=torch.bool), torch.full((2,), 0.1, dtype=torch.bfloat16)]' },
  { name: 'arithmetic on an integer full promotes as PyTorch\'s', inputs: [], js: () => [tpu.full([2], 3).div(2), tpu.full([2], 3).mul(0.5), tpu.full([2], 3).add(1)], py: '[torch.full((2,), 3) / 2, torch.full((2,), 3) * 0.5, torch.full((2,), 3) + 1]' },
  { name: 'an integer full refuses an in-place float result, as PyTorch\'s', inputs: [], js: () => tpu.full([2], 3).div_(2), py: 'torch.full((2,), 3).div_(2)' },
  { name: 'an integer full cannot require grad', inputs: [], js: () => tpu.full([2], 3, { requiresGrad: true }), py: 'torch.full((2,), 3, requires_grad=True)' },
  { name: 'fullLike keeps the input\'s dtype', inputs: [f32([1, 2]), i32([1, 2]), i64([1, 2])], js: (f, i, l) => [tpu.fullLike(f, 7), tpu.fullLike(i, 7.9), tpu.fullLike(l, true), tpu.fullLike(f, 7, { dtype: 'int64' })], py: '[torch.full_like(x0, 7), torch.full_like(x1, 7.9), torch.full_like(x2, True), torch.full_like(x0, 7, dtype=torch.int64)]' },
];

torchTier('tpu.full infers its dtype as torch.full', cases);

it('full of an integer beyond 2^53 (which JS holds only as a float) is float32', () => {
  expect(tpu.full([1], 2 ** 60).dtype).toBe('float32');
  expect(tpu.full([1], 2 ** 53 - 1).dtype).toBe('int64');
});
