// Reductions, scans and sorting against PyTorch: NaN propagation, ±inf, empty dims, int32
// sums beyond int32 (int64, as PyTorch), bf16, options (dim, keepdim, dtype, correction, p).
import { bf16, bool, f32, i32, seq, torchTier, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const WITH_NAN = f32([[1, N, 3], [-1, 2, 0]]);
const INT_MAX = 2147483647;
const EMPTY = { values: [], shape: [0, 3], dtype: 'float32' as const };

const cases: TorchCase[] = [
  { name: 'amax propagates NaN', inputs: [WITH_NAN], js: (x) => [x.amax(), x.amax(1)], py: '(torch.amax(x0), torch.amax(x0, 1))' },
  { name: 'amin propagates NaN', inputs: [WITH_NAN], js: (x) => [x.amin(), x.amin(1)], py: '(torch.amin(x0), torch.amin(x0, 1))' },
  { name: 'max() propagates NaN', inputs: [WITH_NAN], js: (x) => x.max(), py: 'torch.max(x0)' },
  { name: 'max(dim) values and indices with NaN', inputs: [WITH_NAN], js: (x) => x.max(1), py: 'torch.max(x0, 1)' },
  { name: 'argmax points at NaN', inputs: [WITH_NAN], js: (x) => [x.argmax(), x.argmax(1), x.argmin(1)], py: '(torch.argmax(x0), torch.argmax(x0, 1), torch.argmin(x0, 1))' },
  { name: 'argmax ties take the first', inputs: [f32([[2, 5, 5], [7, 7, 1]])], js: (x) => [x.argmax(1), x.argmin(0)], py: '(torch.argmax(x0, 1), torch.argmin(x0, 0))' },
  { name: 'sort puts NaN last', inputs: [f32([3, N, -1, INF, -INF, 0])], js: (x) => x.sort(), py: 'torch.sort(x0, stable=True)' },
  { name: 'sort descending puts NaN first', inputs: [f32([3, N, -1, INF, -INF, 0])], js: (x) => x.sort({ descending: true }), py: 'torch.sort(x0, descending=True, stable=True)' },
  { name: 'topk treats NaN as largest', inputs: [f32([3, N, -1, 7, 0])], js: (x) => x.topk(2), py: 'torch.topk(x0, 2)' },
  { name: 'topk smallest with NaN', inputs: [f32([3, N, -1, 7, 0])], js: (x) => x.topk(2, { largest: false }), py: 'torch.topk(x0, 2, largest=False)' },
  { name: 'sort int32 stable', inputs: [i32([3, 1, 3, -5, 1])], js: (x) => x.sort(), py: 'torch.sort(x0, stable=True)' },
  { name: 'logsumexp of -inf rows', inputs: [f32([[-INF, -INF], [-INF, 0], [INF, 1], [INF, -INF]])], js: (x) => x.logsumexp(1), py: 'torch.logsumexp(x0, 1)' },
  { name: 'logsumexp large values', inputs: [f32([[1000, 1000], [-1000, -1000.5]])], js: (x) => x.logsumexp(1), py: 'torch.logsumexp(x0, 1)' },
  { name: 'softmax with -inf', inputs: [f32([[-INF, 0, 1], [-INF, -INF, 2], [-INF, -INF, -INF]])], js: (x) => x.softmax(1), py: 'torch.softmax(x0, 1)' },
  // finite results with infinite intermediates: debug mode must not reject them
  { name: 'softmax of rows with some -inf', inputs: [f32([[-INF, 0, 1], [-INF, -INF, 2], [3, -INF, 3]])], js: (x) => x.softmax(1), py: 'torch.softmax(x0, 1)' },
  { name: 'logsumexp of rows with some -inf', inputs: [f32([[0, -INF, 1], [2, 3, -INF]])], js: (x) => x.logsumexp(1), py: 'torch.logsumexp(x0, 1)' },
  { name: 'logSoftmax with +inf', inputs: [f32([[INF, 0, 1], [INF, INF, 0]])], js: (x) => x.logSoftmax(1), py: 'torch.log_softmax(x0, 1)' },
  { name: 'softmax with +inf', inputs: [f32([[INF, 0, 1], [INF, -INF, 0]])], js: (x) => x.softmax(1), py: 'torch.softmax(x0, 1)' },
  { name: 'logsumexp with +inf and nan', inputs: [f32([[INF, 1], [N, 1], [INF, INF]])], js: (x) => x.logsumexp(1), py: 'torch.logsumexp(x0, 1)' },
  { name: 'argmax argmin of -inf and nan', inputs: [f32([[-INF, -INF], [N, INF], [INF, N]])], js: (x) => [x.argmax(1), x.argmin(1)], py: '(torch.argmax(x0, 1), torch.argmin(x0, 1))' },
  { name: 'sum mean and prod of -0s (a sum starts from +0)', inputs: [f32([[-0, -0], [0, -0]])], js: (x) => [x.sum(1), x.prod(1), x.mean(1), x.cumsum(1), x.sum()], py: '(torch.sum(x0, 1), torch.prod(x0, 1), torch.mean(x0, 1), torch.cumsum(x0, 1), torch.sum(x0))' },
  { name: 'var of inf', inputs: [f32([[1, INF, 2], [1, 2, 3]])], js: (x) => [x.var(1), x.std(1)], py: '(torch.var(x0, 1), torch.std(x0, 1))' },
  { name: 'norm with inf and nan', inputs: [f32([[1, INF, 2], [1, N, 3], [0, 0, 0]])], js: (x) => [x.norm(2, 1), x.norm(3, 1), x.norm(0, 1), x.norm(Infinity, 1)], py: '(torch.linalg.vector_norm(x0, 2, 1), torch.linalg.vector_norm(x0, 3, 1), torch.linalg.vector_norm(x0, 0, 1), torch.linalg.vector_norm(x0, float("inf"), 1))' },
  { name: 'cumsum cumprod with inf', inputs: [f32([1, INF, -INF, 2])], js: (x) => [x.cumsum(0), x.cumprod(0)], py: '(torch.cumsum(x0, 0), torch.cumprod(x0, 0))' },
  { name: 'mean of inf and -inf', inputs: [f32([[INF, -INF], [INF, 1]])], js: (x) => x.mean(1), py: 'torch.mean(x0, 1)' },
  { name: 'softmax bf16 with -inf', inputs: [bf16([[-INF, 0, 1], [2, -INF, 2]])], js: (x) => x.softmax(1), py: 'torch.softmax(x0, 1)' },
  { name: 'logSoftmax with -inf', inputs: [f32([[-INF, 0, 1], [-INF, -INF, 2]])], js: (x) => x.logSoftmax(1), py: 'torch.log_softmax(x0, 1)' },
  { name: 'sum of int32 beyond int32', inputs: [i32([INT_MAX, 1])], js: (x) => x.sum(), py: 'torch.sum(x0)' },
  { name: 'prod of int32 beyond int32', inputs: [i32([65536, 65536])], js: (x) => x.prod(), py: 'torch.prod(x0)' },
  { name: 'cumsum of int32 beyond int32', inputs: [i32([INT_MAX, 1, 1])], js: (x) => x.cumsum(0), py: 'torch.cumsum(x0, 0)' },
  { name: 'cumprod of int32 beyond int32', inputs: [i32([65536, 65536, 2])], js: (x) => x.cumprod(0), py: 'torch.cumprod(x0, 0)' },
  { name: 'int32 sums and products that fit, with cancelling large values', inputs: [i32([2147483647, -2147483647, 5, 400000000, -399999999])], js: (x) => [x.sum(), x.cumsum(0), x.at('2:4').prod()], py: '(x0.sum(), x0.cumsum(0), x0[2:4].prod())' },
  { name: 'sum with dtype', inputs: [i32([[1, 2], [3, 4]])], js: (x) => x.sum({ dim: 1, dtype: 'float32' }), py: 'torch.sum(x0, 1, dtype=torch.float32)' },
  { name: 'sum of bool counts', inputs: [bool([[true, false, true], [true, true, true]])], js: (x) => x.sum(1), py: 'torch.sum(x0, 1)' },
  { name: 'sum of bf16 rounds once', inputs: [bf16([1, 0.00390625, 0.00390625, 0.00390625, 0.00390625])], js: (x) => x.sum(), py: 'torch.sum(x0)' },
  { name: 'mean of bf16', inputs: [bf16([1, 2, 3.5, 0.1])], js: (x) => x.mean(), py: 'torch.mean(x0)' },
  { name: 'sum with NaN and inf', inputs: [f32([1, INF, -INF])], js: (x) => x.sum(), py: 'torch.sum(x0)' },
  { name: 'sum over an empty dim is 0', inputs: [EMPTY], js: (x) => [x.sum(0), x.sum()], py: '(torch.sum(x0, 0), torch.sum(x0))' },
  { name: 'mean over an empty dim is NaN', inputs: [EMPTY], js: (x) => [x.mean(0), x.mean()], py: '(torch.mean(x0, 0), torch.mean(x0))' },
  { name: 'prod over an empty dim is 1', inputs: [EMPTY], js: (x) => x.prod(0), py: 'torch.prod(x0, 0)' },
  { name: 'logsumexp over an empty dim is -inf', inputs: [EMPTY], js: (x) => [x.logsumexp(0), x.logsumexp([0, 1], true), x.logsumexp(1)], py: '(torch.logsumexp(x0, 0), torch.logsumexp(x0, (0, 1), keepdim=True), torch.logsumexp(x0, 1))' },
  { name: 'amax over an empty dim is an error', inputs: [EMPTY], js: (x) => x.amax(0), py: 'torch.amax(x0, 0)' },
  { name: 'amax over a non-empty dim of an empty tensor', inputs: [EMPTY], js: (x) => x.amax(1), py: 'torch.amax(x0, 1)' },
  { name: 'reshape of an empty tensor', inputs: [EMPTY], js: (x) => x.reshape([3, 0, 2]), py: 'x0.reshape(3, 0, 2)' },
  { name: 'reshape of an empty tensor with -1 is an error', inputs: [EMPTY], js: (x) => x.reshape([-1, 0]), py: 'x0.reshape(-1, 0)' },
  { name: 'reshape -1 with an empty tensor', inputs: [EMPTY], js: (x) => x.reshape([-1, 6]), py: 'x0.reshape(-1, 6)' },
  { name: 'var and std (correction 1 and 0)', inputs: [f32([[1, 2, 4], [3, 3, 3]])], js: (x) => [x.var(1), x.std({ dim: 1, correction: 0 })], py: '(torch.var(x0, 1), torch.std(x0, 1, correction=0))' },
  { name: 'var of one element is NaN', inputs: [f32([5])], js: (x) => x.var(), py: 'torch.var(x0)' },
  { name: 'var of bf16 rounds once', inputs: [bf16([1.5, 2.25, 3, 7.5, 0.125])], js: (x) => x.var(), py: 'torch.var(x0)' },
  { name: 'norm p=2, 1, inf', inputs: [f32([[3, -4], [0, -0.5]])], js: (x) => [x.norm(), x.norm(1, 1), x.norm(Infinity, 0)], py: '(torch.linalg.vector_norm(x0), torch.linalg.vector_norm(x0, 1, 1), torch.linalg.vector_norm(x0, math.inf, 0))' },
  { name: 'norm p=0 counts non-zeros', inputs: [f32([[3, 0, -4], [0, 0, 1]])], js: (x) => x.norm({ p: 0, dim: 1 }), py: 'torch.linalg.vector_norm(x0, 0, 1)' },
  { name: 'norm p=3 and p=0.5', inputs: [f32([1, -2, 3])], js: (x) => [x.norm(3), x.norm(0.5)], py: '(torch.linalg.vector_norm(x0, 3), torch.linalg.vector_norm(x0, 0.5))' },
  { name: 'norm of large values overflows as in PyTorch', inputs: [f32([3e20, 4e20])], js: (x) => x.norm(), py: 'torch.linalg.vector_norm(x0)' },
  { name: 'cumsum with NaN', inputs: [f32([1, N, 2])], js: (x) => x.cumsum(0), py: 'torch.cumsum(x0, 0)' },
  { name: 'cumprod with zeros and negatives', inputs: [f32([2, -1, 0, 3, -0.5])], js: (x) => x.cumprod(0), py: 'torch.cumprod(x0, 0)' },
  { name: 'any and all of empty', inputs: [EMPTY], js: (x) => [x.any(), x.all()], py: '(torch.any(x0), torch.all(x0))' },
  { name: 'any and all with NaN', inputs: [f32([0, N])], js: (x) => [x.any(), x.all()], py: '(torch.any(x0), torch.all(x0))' },
  { name: 'sum over dims of a strided view', inputs: [seq('float32', [4, 6])], js: (x) => x.at('::2', '1::2').sum(0), py: 'x0[::2, 1::2].sum(0)' },
  { name: 'sum of a transposed view keepdim', inputs: [seq('float32', [3, 4])], js: (x) => x.T.sum(1, true), py: 'x0.T.sum(1, keepdim=True)' },
  // more than one block of 128: the blocked accumulation's padding, middle axes and reverse scans
  { name: 'blocked cumsum along dim 0 and reversed', inputs: [seq('float32', [300, 3], 0.01, -400)], js: (x) => [x.cumsum(0), x.flip(0).cumsum(0).flip(0)], py: '(torch.cumsum(x0, 0), x0.flip(0).cumsum(0).flip(0))', rtol: 1e-5, atol: 1e-4 }, // running sums near 600 cancel to ~1: float32 rounding of the partial sums,
  { name: 'blocked sum over adjacent and split dims', inputs: [seq('float32', [20, 3, 13], 0.01, -300)], js: (x) => [x.sum([0, 2]), x.sum([1, 2], true), x.mean(0)], py: '(x0.sum([0, 2]), x0.sum([1, 2], keepdim=True), x0.mean(0))', rtol: 1e-5, atol: 1e-5 },
  { name: 'reduction of a 0-d tensor', inputs: [f32(2.5)], js: (x) => [x.sum(), x.mean(0), x.amax(), x.argmax()], py: '(x0.sum(), x0.mean(0), x0.amax(), x0.argmax())' },
  // a dim named twice (also as its negative) is PyTorch's "dim 1 appears multiple times in the list of dims"
  ...([
    ['sum', (x) => x.sum([1, -1]), 'x0.sum([1, -1])'],
    ['mean', (x) => x.mean([0, 0], true), 'x0.mean([0, 0], keepdim=True)'],
    ['amax', (x) => x.amax([0, -2]), 'x0.amax([0, -2])'],
    ['std', (x) => x.std([1, 1]), 'x0.std([1, 1])'],
    ['logsumexp', (x) => x.logsumexp([0, 0]), 'x0.logsumexp([0, 0])'],
    ['norm', (x) => x.norm(2, [1, -1]), 'torch.linalg.vector_norm(x0, 2, [1, -1])'],
    ['any', (x) => x.any([0, 0]), 'x0.any((0, 0))'],
    ['countNonzero', (x) => x.countNonzero([0, 0]), 'x0.count_nonzero((0, 0))'],
    ['flip', (x) => x.flip([1, -1]), 'x0.flip([1, -1])'],
  ] as [string, TorchCase['js'], string][]).map(([op, js, py]): TorchCase => ({ name: `${op} over a dim named twice is an error`, inputs: [f32([[1, 2], [3, 4]])], js, py })),
];

torchTier('reductions, scans and sorting vs PyTorch', cases);
