// countNonzero against PyTorch 2.13's count_nonzero in every mode: all dims, one, a list,
// negative dims, NaN and -0, bool and int inputs, a 0-d tensor, and a dim out of range.
import { tpu } from 'tpu-kernel/runtime';
import { bool, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  { name: 'over all, one, a list and a negative dim', inputs: [f32([[[0, 1.5, -0], [NaN, 0, 2]], [[3, 0, 0], [0, 0, -1]]])], js: (x) => [x.countNonzero(), x.countNonzero(1), x.countNonzero([0, 2]), tpu.countNonzero(x, -1), x.countNonzero({ dim: 0 })], py: '(x0.count_nonzero(), x0.count_nonzero(1), x0.count_nonzero([0, 2]), torch.count_nonzero(x0, -1), x0.count_nonzero(dim=0))' },
  { name: 'of bool, int32 and int64', inputs: [bool([[true, false], [true, true]]), i32([0, -4, 7]), i64([0, 0, 5])], js: (b, i, l) => [b.countNonzero(0), i.countNonzero(), l.countNonzero(0)], py: '(x0.count_nonzero(0), x1.count_nonzero(), x2.count_nonzero(0))' },
  { name: 'of a 0-d tensor', inputs: [f32(2.5)], js: (x) => [x.countNonzero(), x.mul(0).countNonzero()], py: '(x0.count_nonzero(), (x0 * 0).count_nonzero())' },
  { name: 'a dim out of range is an error', inputs: [f32([1, 0])], js: (x) => x.countNonzero(1), py: 'x0.count_nonzero(1)' },
];

torchTier('countNonzero vs PyTorch', cases, { compile: true });
