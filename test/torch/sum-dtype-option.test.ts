// sum's and nansum's { dtype } is the result's dtype, also after a positional dim and for an
// integer dtype other than int64 (the int64 accumulation of the primitive wraps back to int32
// as PyTorch's int32 sum does), against PyTorch 2.13 in every mode.
import { bool, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const BIG = 2 ** 31 - 1;

const cases: TorchCase[] = [
  { name: 'sum of int32 with dtype int32, whole and along a dim', inputs: [i32([[1, 2, 3], [4, 5, 6]])], js: (x) => [x.sum({ dtype: 'int32' }), x.sum(0, { dtype: 'int32' }), x.sum(1, true), x.sum([0, 1], { dtype: 'int32', keepdim: true }), x.sum({ dim: 1, dtype: 'int32' })], py: '(x0.sum(dtype=torch.int32), x0.sum(0, dtype=torch.int32), x0.sum(1, True), x0.sum([0, 1], dtype=torch.int32, keepdim=True), x0.sum(dim=1, dtype=torch.int32))' },
  { name: 'an int32 sum with dtype int32 wraps', inputs: [i32([BIG, BIG, 5])], js: (x) => [x.sum({ dtype: 'int32' }), x.sum()], py: '(x0.sum(dtype=torch.int32), x0.sum())' },
  { name: 'sum of int64 and bool with dtype int32', inputs: [i64([7, -9, 4]), bool([true, true, false])], js: (x, b) => [x.sum(0, { dtype: 'int32' }), b.sum({ dtype: 'int32' })], py: '(x0.sum(0, dtype=torch.int32), x1.sum(dtype=torch.int32))' },
  { name: 'sum of floats with an integer dtype casts first', inputs: [f32([1.7, -2.6, 3.2])], js: (x) => [x.sum({ dtype: 'int32' }), x.sum(0, { dtype: 'int64' })], py: '(x0.sum(dtype=torch.int32), x0.sum(0, dtype=torch.int64))' },
  { name: 'nansum of int32 with dtype int32', inputs: [i32([[1, 2], [3, 4]])], js: (x) => [x.nansum(1, { dtype: 'int32' }), x.nansum()], py: '(x0.nansum(1, dtype=torch.int32), x0.nansum())' },
];

torchTier('sum with a dtype option vs PyTorch', cases, { compile: true });
