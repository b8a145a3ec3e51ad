// nansum nanmean median cummax cummin logcumsumexp diff isclose allclose equal against
// PyTorch 2.13: NaN, ±inf, -0, empty dims, integer and bool inputs, bfloat16, option forms,
// errors and gradients. median's indices are compared where no two elements of a row tie
// (PyTorch leaves which of equal elements it names to its selection algorithm); with ties the
// values are compared, and the indices must point at elements of that value.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const ROWS = f32([[1, N, 2, 3], [N, N, N, N], [-INF, 4, INF, -0], [5, 1, 5, 2]]);
/** A bool tensor as int64 (the torch tier reads bool outputs; a JS boolean becomes a 0-d tensor). */
const flag = (b: boolean) => tpu.tensor([b]);

const cases: TorchCase[] = [
  // nansum nanmean
  { name: 'nansum and nanmean over all and per row', inputs: [ROWS], js: (x) => [x.nansum(), x.nansum(1), tpu.nanmean(x), x.nanmean(1, true), x.nanmean({ dim: [0, 1] })], py: '(x0.nansum(), x0.nansum(1), torch.nanmean(x0), x0.nanmean(1, True), x0.nanmean(dim=[0, 1]))' },
  { name: 'nansum of ints, bools and bf16, and with a dtype', inputs: [i32([[1, 2], [3, 2147483647]]), bool([true, false, true]), bf16([0.1, N, 3.3, 7.7])], js: (i, b, h) => [i.nansum(1), b.nansum(), h.nansum(), tpu.nansum(i, { dtype: 'float32' })], py: '(x0.nansum(1), x1.nansum(), x2.nansum(), torch.nansum(x0, dtype=torch.float32))' },
  { name: 'nanmean of bf16, and with a float32 dtype', inputs: [bf16([[0.1, N, 3.3], [7.7, 2.2, N]])], js: (h) => [h.nanmean(1), h.nanmean(1, { dtype: 'float32' })], py: '(x0.nanmean(1), x0.nanmean(1, dtype=torch.float32))' },
  { name: 'nanmean of ints is an error, also with a float dtype', inputs: [i64([1, 2, 4])], js: (i) => i.nanmean({ dtype: 'float32' }), py: 'x0.nanmean(dtype=torch.float32)' },
  { name: 'nansum and nanmean over an empty dim', inputs: [seq('float32', [2, 0])], js: (x) => [x.nansum(1), x.nanmean(1)], py: '(x0.nansum(1), x0.nanmean(1))' },
  { name: 'nanmean of ints is an error', inputs: [i32([1, 2])], js: (x) => x.nanmean(), py: 'x0.nanmean()' },
  // median
  { name: 'median of all elements', inputs: [f32([[3, 1, 4], [1, 5, 9]]), f32([2, 7]), i32([5, -3, 8, 0]), bf16([0.5, 0.25, 3])], js: (a, b, c, d) => [a.median(), tpu.median(b), c.median(), d.median()], py: '(x0.median(), torch.median(x1), x2.median(), x3.median())' },
  { name: 'median of all elements with NaN, inf and -0', inputs: [f32([1, N, 2]), f32([INF, -INF, INF]), f32([-0, 5, -7]), f32([-INF, -INF, 3])], js: (a, b, c, d) => [a.median(), b.median(), c.median(), d.median()], py: '(x0.median(), x1.median(), x2.median(), x3.median())' },
  { name: 'median of an empty float tensor is NaN', inputs: [seq('float32', [0, 3])], js: (x) => x.median(), py: 'x0.median()' },
  { name: 'median along a dim with its indices', inputs: [f32([[3, 1, 4, 1.5], [2, 8, 5, -1], [N, 0, 7, 6]])], js: (x) => [x.median(1).values, x.median(1).indices, x.median(0, true).values, x.median(0, true).indices, x.median({ dim: -1, keepdim: true })[1]], py: '(x0.median(1).values, x0.median(1).indices, x0.median(0, True).values, x0.median(0, True).indices, x0.median(dim=-1, keepdim=True)[1])' },
  { name: 'median along a dim: the first NaN of a row', inputs: [f32([[1, N, 3, N], [N, N, 2, 1], [4, 5, 6, N]])], js: (x) => { const r = x.median(1); return [r.values, r.indices]; }, py: 'r = x0.median(1)\nresult = (r.values, r.indices)' },
  { name: 'median along a dim of ints, bf16 and a 0-d tensor', inputs: [i64([[5, -2, 9], [0, 3, -7]]), bf16([[0.5, 3.25], [1.5, -2]]), f32(4)], js: (i, h, s) => { const r = i.median(1); const q = h.median(0); const z = s.median(0); return [r.values, r.indices, q.values, q.indices, z.values, z.indices]; }, py: 'r = x0.median(1)\nq = x1.median(0)\nz = x2.median(0)\nresult = (r.values, r.indices, q.values, q.indices, z.values, z.indices)' },
  {
    name: 'median with ties: values, and indices of equal elements',
    inputs: [f32([[2, 1, 2, 2, 1], [7, 7, 7, 7, 7], [1, 3, 3, 1, 2]])],
    js: (x) => { const r = x.median(1); return [r.values, x.gather(1, r.indices.unsqueeze(1)).squeeze(1)]; },
    py: 'r = x0.median(1)\nresult = (r.values, r.values)',
  },
  { name: 'median over an empty dim is an error', inputs: [seq('float32', [2, 0])], js: (x) => x.median(1).values, py: 'x0.median(1).values' },
  { name: 'median along a non-empty dim of an empty tensor', inputs: [seq('float32', [0, 3])], js: (x) => { const r = x.median(1); return [r.values, r.indices]; }, py: 'r = x0.median(1)\nresult = (r.values, r.indices)' },
  { name: 'median of bools is an error', inputs: [bool([true, false])], js: (x) => x.median(), py: 'x0.median()' },
  { name: 'median over a list of dims is an error', inputs: [seq('float32', [2, 3])], js: (x) => x.median([0, 1] as unknown as number).values, py: 'x0.median((0, 1)).values' },
  // cummax cummin logcumsumexp
  { name: 'cummax and cummin: ties take the later index, NaN stays', inputs: [f32([1, 3, 3, 2, N, 5, N, 0])], js: (x) => { const a = x.cummax(0); const b = tpu.cummin(x, 0); return [a.values, a.indices, b.values, b.indices]; }, py: 'a = x0.cummax(0)\nb = torch.cummin(x0, 0)\nresult = (a.values, a.indices, b.values, b.indices)' },
  { name: 'cummax and cummin along dims with inf and -0', inputs: [f32([[-0, 0, -INF, 2], [INF, 1, INF, -1], [0, -0, 0, -0]])], js: (x) => { const a = x.cummax(1); const b = x.cummin({ dim: 0 }); const c = x.cummax(-2); return [a.values, a.indices, b.values, b.indices, c.indices]; }, py: 'a = x0.cummax(1)\nb = x0.cummin(dim=0)\nc = x0.cummax(-2)\nresult = (a.values, a.indices, b.values, b.indices, c.indices)' },
  { name: 'cummax and cummin of ints at their ends, bools and bf16', inputs: [i64([5n, -(2n ** 63n), 2n ** 63n - 1n, 3n, 2n ** 63n - 1n]), i32([2147483647, -2147483648, 0]), bool([false, true, false]), bf16([0.5, 0.25, 3, 3])], js: (l, i, b, h) => [l.cummin(0).values, l.cummin(0).indices, l.cummax(0).indices, i.cummin(0).values, b.cummax(0).values, b.cummax(0).indices, h.cummin(0).indices], py: '(x0.cummin(0).values, x0.cummin(0).indices, x0.cummax(0).indices, x1.cummin(0).values, x2.cummax(0).values, x2.cummax(0).indices, x3.cummin(0).indices)' },
  { name: 'cummax of a 0-d tensor and of an empty dim', inputs: [f32(3), seq('float32', [2, 0])], js: (s, e) => { const a = s.cummax(0); const b = e.cummin(1); return [a.values, a.indices, b.values, b.indices]; }, py: 'a = x0.cummax(0)\nb = x1.cummin(1)\nresult = (a.values, a.indices, b.values, b.indices)' },
  { name: 'logcumsumexp without overflow, with ±inf and NaN', inputs: [f32([-INF, -INF, 1, INF, N, 0]), f32([[1000, 1000, -1000], [-200, 0, 1e-3]]), f32([[88, 89, 90, -INF, -INF]])], js: (a, b, c) => [a.logcumsumexp(0), tpu.logcumsumexp(b, 1), b.logcumsumexp({ dim: 0 }), c.logcumsumexp(1)], py: '(x0.logcumsumexp(0), torch.logcumsumexp(x1, 1), x1.logcumsumexp(dim=0), x2.logcumsumexp(1))' },
  { name: 'logcumsumexp of bf16 and a 0-d tensor', inputs: [bf16([0.1, 2.5, -3, 7]), f32(-2)], js: (h, s) => [h.logcumsumexp(0), s.logcumsumexp(0)], py: '(x0.logcumsumexp(0), x1.logcumsumexp(0))' },
  { name: 'logcumsumexp of ints is an error', inputs: [i64([1, 2])], js: (x) => x.logcumsumexp(0), py: 'x0.logcumsumexp(0)' },
  // diff
  { name: 'diff of orders 1, 2 and 0', inputs: [f32([1, 4, 9, 16, INF, N])], js: (x) => [x.diff(), tpu.diff(x, 2), x.diff(0), x.diff({ n: 3 })], py: '(x0.diff(), torch.diff(x0, 2), x0.diff(0), x0.diff(n=3))' },
  { name: 'diff along a dim with prepend and append', inputs: [seq('float32', [2, 3]), f32([[10, 20, 30]]), f32([[-1], [-2]])], js: (x, p, a) => [x.diff(1, 0, p), x.diff({ dim: 1, append: a }), x.diff(1, -1, a, a)], py: '(x0.diff(1, 0, x1), x0.diff(dim=1, append=x2), x0.diff(1, -1, x2, x2))' },
  { name: 'diff beyond the length is empty', inputs: [f32([1, 2])], js: (x) => [x.diff(2), x.diff(5)], py: '(x0.diff(2), x0.diff(5))' },
  { name: 'diff of bools is xor, of ints wraps, with a float prepend', inputs: [bool([true, false, false, true]), i32([-2147483648, 2147483647, 0]), f32([0.5])], js: (b, i, p) => [b.diff(), i.diff(), i.diff(1, 0, p)], py: '(x0.diff(), x1.diff(), x1.diff(1, 0, x2))' },
  { name: 'diff of bf16', inputs: [bf16([0.1, 3.3, 7.7, 100])], js: (h) => h.diff(), py: 'x0.diff()' },
  { name: 'diff with a negative order is an error', inputs: [f32([1, 2])], js: (x) => x.diff(-1), py: 'x0.diff(-1)' },
  { name: 'diff of a 0-d tensor is an error', inputs: [f32(1)], js: (x) => x.diff(), py: 'x0.diff()' },
  { name: 'diff with a prepend of other dims is an error', inputs: [f32([1, 2]), f32(0)], js: (x, p) => x.diff({ prepend: p }), py: 'x0.diff(prepend=x1)' },
  // isclose allclose equal
  { name: 'isclose default tolerances with NaN and inf', inputs: [f32([1, 1, INF, INF, N, 1e-8, 0, -0, 100]), f32([1.00001, 1.0001, INF, -INF, N, 0, 1e-8, 0, 100.001])], js: (x, y) => [x.isclose(y), tpu.isclose(x, y, { equalNan: true }), x.isclose(y, { rtol: 0, atol: 0 })], py: '(x0.isclose(x1), torch.isclose(x0, x1, equal_nan=True), x0.isclose(x1, rtol=0, atol=0))' },
  { name: 'isclose with tolerances, broadcasting, ints, bools and bf16', inputs: [f32([1, 2, 3]), f32([[1.5], [2.5]]), i32([10, 20, -2147483648]), bool([true, false]), bf16([1, 100, 3.3])], js: (x, y, i, b, h) => [x.isclose(y, { atol: 0.6 }), x.isclose(y, { rtol: 0.3, atol: 0 }), i.isclose(i.add(1), { rtol: 0.06 }), b.isclose(b.logicalNot(), { atol: 1 }), h.isclose(h.add(0.4), { rtol: 0.01 })], py: '(x0.isclose(x1, atol=0.6), x0.isclose(x1, rtol=0.3, atol=0), x2.isclose(x2 + 1, rtol=0.06), x3.isclose(x3.logical_not(), atol=1), x4.isclose(x4 + 0.4, rtol=0.01))' },
  { name: 'isclose of two dtypes is an error', inputs: [f32([1]), i32([1])], js: (x, y) => x.isclose(y), py: 'x0.isclose(x1)' },
  { name: 'isclose with a negative rtol is an error', inputs: [f32([1])], js: (x) => x.isclose(x, { rtol: -1 }), py: 'x0.isclose(x0, rtol=-1)' },
  {
    name: 'allclose and equal',
    inputs: [f32([1, 2, N]), f32([1, 2.000001, N]), f32([1, 2])],
    js: (x, y, z) => [flag(x.allclose(y)), flag(tpu.allclose(x, y, { equalNan: true })), flag(z.allclose(z.at('0:1'))), flag(x.equal(x)), flag(tpu.equal(z, z.clone())), flag(z.equal(x)), flag(z.equal(tpu.tensor([1, 2], { dtype: 'int32' }))), flag(z.at('0:0').equal(z.at('1:1')))],
    py: '[torch.tensor([v]) for v in (x0.allclose(x1), torch.allclose(x0, x1, equal_nan=True), x2.allclose(x2[0:1]), x0.equal(x0), torch.equal(x2, x2.clone()), x2.equal(x0), x2.equal(torch.tensor([1, 2], dtype=torch.int32)), x2[0:0].equal(x2[1:1]))]',
  },
  // gradients
  { ...weightedGrad('nansum and nanmean gradients are 0 at NaN', f32([[1, N, 2], [N, N, 3]]), (x) => x.nansum(1).add(x.nanmean(1).mul(3)), 'x.nansum(1) + x.nanmean(1) * 3', [1, -2]), signedZeros: false },
  weightedGrad('median gradient is shared among equal elements', f32([[1, 2, 2], [3, 3, 1]]), (x) => x.median(), 'x.median()', 3),
  weightedGrad('median gradient with NaN goes to the NaNs', f32([[1, N, N], [3, 3, 1]]), (x) => x.median(), 'x.median()', 3),
  weightedGrad('median gradient of a -inf median', f32([-INF, -INF, 1, -INF]), (x) => x.median(), 'x.median()', 2),
  weightedGrad('median along a dim: the gradient to its index', f32([[3, 1, 4, 1.5], [2, 8, 5, -1]]), (x) => x.median(1).values, 'x.median(1).values', [1, -2]),
  weightedGrad('cummax and cummin gradients', f32([1, 3, 3, 2, 5, 0]), (x) => x.cummax(0).values.add(x.cummin(0).values.mul(2)), 'x.cummax(0).values + x.cummin(0).values * 2', [1, 2, 3, 4, 5, 6]),
  weightedGrad('logcumsumexp gradient', f32([[0.5, -1, 2, 0], [3, 3, -2, 1]]), (x) => x.logcumsumexp(1), 'x.logcumsumexp(1)', [[1, 2, 3, 4], [-1, 0.5, 2, 1]]),
  weightedGrad('diff gradient with prepend', f32([1, 4, 9, 16]), (x) => x.diff(2, 0, tpu.tensor([0])), 'x.diff(2, 0, torch.tensor([0.]))', [1, -2, 3]),
];

torchTier('NaN-aware reductions, medians, running extrema, differences and closeness follow PyTorch', cases, { compile: true });
