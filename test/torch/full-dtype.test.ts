// tpu.full's dtype: a number fills float32 (JS cannot tell 7.0 from 7, so a number is float32 as in
// tpu.tensor: PyTorch's torch.full((2,), 7.)), a boolean bool; a dtype option wins, so
// `{ dtype: 'int64' }` is torch.full((2,), 7). fullLike keeps its input's dtype, as torch.full_like.
// Against PyTorch 2.13 in every mode.
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  { name: 'full of a number is float32 (an integer read as 7.), of a boolean bool', inputs: [], js: () => [tpu.full([2], 7), tpu.full([2, 1], -3), tpu.full([], 5), tpu.full([2], 7.5), tpu.full([2], true), tpu.full([3], 2 ** 40)], py: '[torch.full((2,), 7.), torch.full((2, 1), -3.), torch.full((), 5.), torch.full((2,), 7.5), torch.full((2,), True), torch.full((3,), 2. ** 40)]' },
  { name: 'full of NaN, infinities and -0 is float32', inputs: [], js: () => [tpu.full([2], NaN), tpu.full([1], Infinity), tpu.full([1], -Infinity), tpu.full([2], -0)], py: '[torch.full((2,), math.nan), torch.full((1,), math.inf), torch.full((1,), -math.inf), torch.full((2,), -0.0)]' },
  { name: 'full with a dtype option keeps it', inputs: [], js: () => [tpu.full([2], 7, { dtype: 'int64' }), tpu.full([2], 2.7, { dtype: 'int64' }), tpu.full([2], 3, { dtype: 'int32' }), tpu.full([2], 1, { dtype: 'bool' }), tpu.full([2], 0.1, { dtype: 'bfloat16' })], py: '[torch.full((2,), 7), torch.full((2,), 2.7, dtype=torch.int64), torch.full((2,), 3, dtype=torch.int32), torch.full((2,), 1, dtype=torch.bool), torch.full((2,), 0.1, dtype=torch.bfloat16)]' },
  { name: "arithmetic on an int64 full promotes as PyTorch's", inputs: [], js: () => [tpu.full([2], 3, { dtype: 'int64' }).div(2), tpu.full([2], 3, { dtype: 'int64' }).mul(0.5), tpu.full([2], 3, { dtype: 'int64' }).add(1)], py: '[torch.full((2,), 3) / 2, torch.full((2,), 3) * 0.5, torch.full((2,), 3) + 1]' },
  { name: "an int64 full refuses an in-place float result, as PyTorch's", inputs: [], js: () => tpu.full([2], 3, { dtype: 'int64' }).div_(2), py: 'torch.full((2,), 3).div_(2)' },
  { name: 'an int64 full cannot require grad', inputs: [], js: () => tpu.full([2], 3, { dtype: 'int64', requiresGrad: true }), py: 'torch.full((2,), 3, requires_grad=True)' },
  { name: 'a float full of an integer takes an in-place float result', inputs: [], js: () => tpu.full([2], 3).div_(2), py: 'torch.full((2,), 3.).div_(2)' },
  { name: "fullLike keeps the input's dtype", inputs: [f32([1, 2]), i32([1, 2]), i64([1, 2])], js: (f, i, l) => [tpu.fullLike(f, 7), tpu.fullLike(i, 7.9), tpu.fullLike(l, true), tpu.fullLike(f, 7, { dtype: 'int64' })], py: '[torch.full_like(x0, 7), torch.full_like(x1, 7.9), torch.full_like(x2, True), torch.full_like(x0, 7, dtype=torch.int64)]' },
];

torchTier('tpu.full: a number float32, a boolean bool, a dtype option wins', cases);
