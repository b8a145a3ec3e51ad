// take takeAlongDim repeatInterleave scatter indexAdd indexFill against PyTorch 2.13: negative
// indices where PyTorch counts them from the end, broadcasting, repeated indices, dtypes,
// errors (out of range: on the device for the tier's computed indices, at the call for indices
// the host uploaded), and gradients.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, gradsOf, i32, i64, ids, seq, torchTier, type TorchCase } from './torch-tier.js';
import { expectThrowInEveryMode } from '../support/throws-in-every-mode.js';

const N = NaN;
const INF = Infinity;
const M34 = seq('float32', [3, 4], 0.5, -3);

const cases: TorchCase[] = [
  // take
  { name: 'take with negative indices and an index of any shape', inputs: [M34, ids([[-1, 0], [5, -12]])], js: (x, i) => [x.take(i), tpu.take(x, i.at(0))], py: '(x0.take(x1), torch.take(x0, x1[0]))' },
  { name: 'take of ints, bools and bf16 with int32 indices', inputs: [i64([[7, 8], [9, 10]]), bool([true, false, true]), bf16([1.5, N, INF]), i32([2, -1, 0])], js: (a, b, h, i) => [a.take(i), b.take(i), h.take(i)], py: '(x0.take(x3.long()), x1.take(x3.long()), x2.take(x3.long()))' },
  { name: 'take out of range is an error', inputs: [f32([1, 2]), ids([2])], js: (x, i) => x.take(i), py: 'x0.take(x1)' },
  { name: 'take below the range is an error', inputs: [f32([1, 2]), ids([-3])], js: (x, i) => x.take(i), py: 'x0.take(x1)' },
  // takeAlongDim
  { name: 'takeAlongDim with argsort and topk indices', inputs: [f32([[3, 1, 2], [N, -INF, 0]])], js: (x) => [x.takeAlongDim(x.argsort(1), 1), tpu.takeAlongDim(x, x.topk(2, 1).indices, 1), x.takeAlongDim(x.argmax(0, true), 0)], py: '(x0.take_along_dim(x0.argsort(1), 1), torch.take_along_dim(x0, x0.topk(2, 1).indices, 1), x0.take_along_dim(x0.argmax(0, True), 0))' },
  { name: 'takeAlongDim broadcasts input and indices outside dim, negatives from the end', inputs: [seq('float32', [2, 3]), ids([[0], [2], [-1]]), ids([[-1, 0]])], js: (x, a, b) => [x.unsqueeze(0).takeAlongDim(a.unsqueeze(1), 2), x.takeAlongDim(b, 1), x.takeAlongDim(b.T, 0)], py: '(x0.unsqueeze(0).take_along_dim(x1.unsqueeze(1), 2), x0.take_along_dim(x2, 1), x0.take_along_dim(x2.T, 0))' },
  { name: 'takeAlongDim without dim reads the flattened input', inputs: [seq('float32', [2, 3]), ids([[5, 0], [1, 2]])], js: (x, i) => [x.takeAlongDim(i), x.takeAlongDim(i, { dim: null })], py: '(x0.take_along_dim(x1), torch.take_along_dim(x0, x1, dim=None))' },
  { name: 'takeAlongDim without dim refuses negative indices', inputs: [seq('float32', [2, 3]), ids([-1, 2])], js: (x, i) => x.takeAlongDim(i), py: 'x0.take_along_dim(x1)' },
  { name: 'takeAlongDim of indices of another rank is an error', inputs: [seq('float32', [2, 3]), ids([0, 1])], js: (x, i) => x.takeAlongDim(i, 1), py: 'x0.take_along_dim(x1, 1)' },
  { name: 'takeAlongDim out of range is an error', inputs: [seq('float32', [2, 3]), ids([[3], [0]])], js: (x, i) => x.takeAlongDim(i, 1), py: 'x0.take_along_dim(x1, 1)' },
  // repeatInterleave
  { name: 'repeatInterleave by a number, flat and along dims', inputs: [seq('float32', [2, 2], 1, 1), f32(5)], js: (x, s) => [x.repeatInterleave(2), x.repeatInterleave(2, 1), tpu.repeatInterleave(x, 3, { dim: 0 }), x.repeatInterleave(0, 1), s.repeatInterleave(3)], py: '(x0.repeat_interleave(2), x0.repeat_interleave(2, 1), torch.repeat_interleave(x0, 3, dim=0), x0.repeat_interleave(0, 1), x1.repeat_interleave(3))' },
  { name: 'repeatInterleave by a tensor of counts', inputs: [seq('float32', [3, 2]), ids([1, 0, 2]), ids([2]), ids(3)], js: (x, r, one, zero) => [x.repeatInterleave(r, 0), x.repeatInterleave(one, 1), x.repeatInterleave(zero), x.repeatInterleave(r, { dim: 0, outputSize: 3 }), x.repeatInterleave(one, 1, { outputSize: 4 })], py: '(x0.repeat_interleave(x1, 0), x0.repeat_interleave(x2, 1), x0.repeat_interleave(x3), x0.repeat_interleave(x1, dim=0, output_size=3), x0.repeat_interleave(x2, 1, output_size=4))' },
  { name: 'repeatInterleave of repeats alone, of ints and bools', inputs: [ids([2, 0, 3]), i32([7, -7]), bool([true, false])], js: (r, i, b) => [tpu.repeatInterleave(r), tpu.repeatInterleave(r, { outputSize: 5 }), i.repeatInterleave(2), b.repeatInterleave(r.narrow(0, 0, 2))], py: '(torch.repeat_interleave(x0), torch.repeat_interleave(x0, output_size=5), x1.repeat_interleave(2), x2.repeat_interleave(x0[:2]))' },
  { name: 'repeatInterleave by a negative number is an error', inputs: [f32([1, 2])], js: (x) => x.repeatInterleave(-1), py: 'x0.repeat_interleave(-1)' },
  { name: 'repeatInterleave by a negative count is an error', inputs: [f32([1, 2]), ids([1, -1])], js: (x, r) => x.repeatInterleave(r), py: 'x0.repeat_interleave(x1)' },
  { name: 'repeatInterleave by counts of the wrong length is an error', inputs: [f32([1, 2]), ids([1, 2, 3])], js: (x, r) => x.repeatInterleave(r), py: 'x0.repeat_interleave(x1)' },
  { name: 'repeatInterleave with a wrong outputSize fails', inputs: [f32([1, 2]), ids([1, 2])], js: (x, r) => x.repeatInterleave(r, { outputSize: 4 }), py: 'x0.repeat_interleave(x1, output_size=4)' },
  // scatter
  { name: 'scatter of a tensor and of a value along each dim', inputs: [seq('float32', [2, 3]), ids([[2, 0], [1, 1]]), f32([[5, 6, 7], [8, 9, 10]])], js: (x, i, s) => [x.scatter(1, i, s), tpu.scatter(x, 0, i.narrow(1, 0, 1).clamp(0, 1), s), x.scatter(1, i, -0), x.scatter(1, i, N)], py: '(x0.scatter(1, x1, x2), torch.scatter(x0, 0, x1[:, :1].clamp(0, 1), x2), x0.scatter(1, x1, -0.), x0.scatter(1, x1, float("nan")))' },
  { name: 'scatter of repeated indices keeps the last write', inputs: [f32([0, 0, 0, 0, 0]), ids([1, 1, 1, 3]), f32([1, 2, 3, 4])], js: (x, i, s) => x.scatter(0, i, s), py: 'x0.scatter(0, x1, x2)' },
  { name: 'scatter of ints, bools and bf16', inputs: [i64([[1, 2], [3, 4]]), bool([false, false, false]), bf16([1.5, 2.5, 3.5]), ids([[1], [0]]), ids([2, 0])], js: (a, b, h, i, j) => [a.scatter(1, i, 9), a.scatter(1, i, a.neg()), b.scatter(0, j, true), h.scatter(0, j, h.flip(0))], py: '(x0.scatter(1, x3, 9), x0.scatter(1, x3, -x0), x1.scatter(0, x4, True), x2.scatter(0, x4, x2.flip(0)))' },
  { name: 'scatter of a src of another dtype is an error', inputs: [f32([0, 0]), ids([1]), i64([2])], js: (x, i, s) => x.scatter(0, i, s), py: 'x0.scatter(0, x1, x2)' },
  { name: 'scatter of a negative index is an error', inputs: [f32([0, 0, 0]), ids([-1]), f32([1])], js: (x, i, s) => x.scatter(0, i, s), py: 'x0.scatter(0, x1, x2)' },
  // indexAdd
  { name: 'indexAdd with repeated indices, alpha and dims', inputs: [seq('float32', [3, 2]), ids([0, 0, 2]), f32([[1, 2], [3, 4], [5, 6]]), f32([[10], [20], [30]]), ids([1])], js: (x, i, s, c, j) => [x.indexAdd(0, i, s), tpu.indexAdd(x, 0, i, s, { alpha: -2 }), x.indexAdd(1, j, c), x.indexAdd(-1, j, c, { alpha: 0.5 })], py: '(x0.index_add(0, x1, x2), torch.index_add(x0, 0, x1, x2, alpha=-2), x0.index_add(1, x4, x3), x0.index_add(-1, x4, x3, alpha=0.5))' },
  { name: 'indexAdd of ints, bf16, NaN and inf', inputs: [i32([1, 2, 3]), bf16([0, 0, 1]), f32([0, 0]), ids([2, 2, 0])], js: (i, h, f, idx) => [i.indexAdd(0, idx, tpu.tensor([5, 6, 7], { dtype: 'int32' }), { alpha: 3 }), h.indexAdd(0, idx, tpu.tensor([0.1, 0.1, 256], { dtype: 'bfloat16' })), f.indexAdd(0, idx.narrow(0, 0, 2).sub(1), tpu.tensor([INF, N]))], py: '(x0.index_add(0, x3, torch.tensor([5, 6, 7], dtype=torch.int32), alpha=3), x1.index_add(0, x3, torch.tensor([0.1, 0.1, 256], dtype=torch.bfloat16)), x2.index_add(0, x3[:2] - 1, torch.tensor([float("inf"), float("nan")])))' },
  { name: 'indexAdd of a source of the wrong shape is an error', inputs: [seq('float32', [3, 2]), ids([0]), f32([[1, 2, 3]])], js: (x, i, s) => x.indexAdd(0, i, s), py: 'x0.index_add(0, x1, x2)' },
  { name: 'indexAdd of a source of another dtype is an error', inputs: [f32([0, 0]), ids([1]), i64([2])], js: (x, i, s) => x.indexAdd(0, i, s), py: 'x0.index_add(0, x1, x2)' },
  { name: 'indexAdd out of range is an error', inputs: [f32([0, 0]), ids([2]), f32([1])], js: (x, i, s) => x.indexAdd(0, i, s), py: 'x0.index_add(0, x1, x2)' },
  // indexFill
  { name: 'indexFill with negative and repeated indices, values and 0-d tensors', inputs: [seq('float32', [2, 3]), ids([0, -1, 0]), f32(-0)], js: (x, i, v) => [x.indexFill(1, i, 5), tpu.indexFill(x, 0, i.narrow(0, 1, 1), v), x.indexFill(-1, i, N), x.indexFill(1, i.at(1), INF)], py: '(x0.index_fill(1, x1, 5), torch.index_fill(x0, 0, x1[1:2], x2), x0.index_fill(-1, x1, float("nan")), x0.index_fill(1, x1[1], float("inf")))' },
  { name: 'indexFill of ints, bools and bf16 casts the value', inputs: [i32([1, 2, 3]), bool([true, false]), bf16([1, 2]), ids([0])], js: (i, b, h, idx) => [i.indexFill(0, idx, 2.5), b.indexFill(0, idx.add(1), 1), h.indexFill(0, idx, 0.1)], py: '(x0.index_fill(0, x3, 2.5), x1.index_fill(0, x3 + 1, 1), x2.index_fill(0, x3, 0.1))' },
  { name: 'indexFill out of range is an error', inputs: [f32([0, 0, 0]), ids([3])], js: (x, i) => x.indexFill(0, i, 1), py: 'x0.index_fill(0, x1, 1.)' },
  { name: 'indexFill of a 2-D index is an error', inputs: [f32([0, 0, 0]), ids([[1]])], js: (x, i) => x.indexFill(0, i, 1), py: 'x0.index_fill(0, x1, 1.)' },
  // gradients
  gradsOf('take and takeAlongDim gradients accumulate repeated indices', [M34, ids([[-1, 0], [5, 0]])], [0], (x, i) => x.take(i).add(x.takeAlongDim(i.remainder(4).narrow(0, 0, 1).expand([3, 2]), 1).sum()), 'x0.take(x1) + x0.take_along_dim(x1.remainder(4)[:1].expand(3, 2), 1).sum()'),
  gradsOf('repeatInterleave gradients', [M34, ids([2, 0, 1, 3])], [0], (x, r) => x.repeatInterleave(r, 1).sum(1).add(x.repeatInterleave(2, 0).sum(0).sum()), 'x0.repeat_interleave(x1, 1).sum(1) + x0.repeat_interleave(2, 0).sum(0).sum()'),
  gradsOf('scatter gradients: the written positions get none, src its slots', [M34, ids([[3, 0], [1, 2], [0, 1]]), f32([[1, 2], [3, 4], [5, 6]])], [0, 2], (x, i, s) => x.scatter(1, i, s), 'x0.scatter(1, x1, x2)'),
  gradsOf('indexAdd gradients', [M34, ids([2, 0, 2]), f32([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])], [0, 2], (x, i, s) => x.indexAdd(0, i, s, { alpha: 1.5 }), 'x0.index_add(0, x1, x2, alpha=1.5)'),
  // (PyTorch's backward fails for a 0-d value and a negative index: its gather does not wrap it)
  gradsOf('indexFill gradients: none where filled, their sum to a 0-d value', [M34, ids([1, 3]), f32(2)], [0, 2], (x, i, v) => x.indexFill(1, i, v), 'x0.index_fill(1, x1, x2)'),
];

torchTier('take, takeAlongDim, repeatInterleave, scatter, indexAdd and indexFill follow PyTorch', cases, { compile: true });

describe('indices the host uploaded are checked at the call', () => {
  const idx = (v: number[]) => tpu.tensor(new Int32Array(v));
  it.each([
    ['take', () => tpu.tensor([1, 2]).take(idx([2])), /take: index 2 at position 0 is out of range \[-2, 1\]/],
    ['takeAlongDim', () => tpu.tensor([[1, 2]]).takeAlongDim(tpu.tensor([[-3]], { dtype: 'int32' }), 1), /takeAlongDim: index -3 at position 0 is out of range \[-2, 1\]/],
    ['scatter', () => tpu.zeros([2]).scatter(0, idx([-1]), 1), /scatter: index -1 at position 0 is out of range \[0, 1\] \(negative indices are errors here/],
    ['indexAdd', () => tpu.zeros([2]).indexAdd(0, idx([2]), tpu.ones([1])), /indexAdd: index 2 at position 0 is out of range \[0, 1\]/],
    ['indexFill', () => tpu.zeros([2]).indexFill(0, idx([0, 2]), 1), /indexFill: index 2 at position 1 is out of range \[-2, 1\]/],
  ])('%s', (_name, call, message) => expectThrowInEveryMode(call, message));

  it('repeatInterleave under tpu.compile asks for outputSize, and runs with it', async () => {
    const r = tpu.tensor(new Int32Array([1, 2]));
    expect(() => tpu.compile((x: Tensor) => x.repeatInterleave(r))(tpu.tensor([5, 6]))).toThrow(/give \{ outputSize \}/);
    expect(await tpu.compile((x: Tensor) => x.repeatInterleave(r, { outputSize: 3 }))(tpu.tensor([5, 6])).array()).toEqual([5, 6, 6]);
  });
});
