// tensorSplit, varMean/stdMean, fliplr/flipud and randintLike against PyTorch 2.13 in every
// mode: sections and indices (negative, out of range, out of order, from a tensor), dims,
// the var/std option forms, errors. randintLike's values are random: its dtype and shape are
// compared (r.mul(0)), and that each value is an integer in [low, high).
import { expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, grads, i32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const SEVEN = i64([0, 1, 2, 3, 4, 5, 6]);
const M = f32([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]);
const STATS = f32([[3, 1, 4, 1.5, 9], [2, 8, 5, -1, 0], [7, 7, 7, 7, 7]]);
/** The facts a random integer tensor r in [low, high) must show, as one-element bools, and r.mul(0) for its dtype and shape. */
const inRange = (r: Tensor, low: number, high: number) => [r.mul(0), r.ge(low).all(), r.lt(high).all(), r.eq(r.to('float32').round()).all()];
const inRangePy = (r: string, low: number, high: number) => `r = ${r}\nresult = [r * 0, (r >= ${low}).all(), (r < ${high}).all(), (r.float() == r.float().round()).all()]`;

const cases: TorchCase[] = [
  // tensorSplit
  { name: 'tensorSplit into sections: the first size % n one longer, empty ones past the size', inputs: [SEVEN], js: (x) => [...tpu.tensorSplit(x, 3), ...x.tensorSplit(10), ...x.tensorSplit(1)], py: '[*torch.tensor_split(x0, 3), *x0.tensor_split(10), *x0.tensor_split(1)]' },
  { name: 'tensorSplit at indices: negative, out of range, out of order', inputs: [SEVEN], js: (x) => [...x.tensorSplit([1, -2]), ...x.tensorSplit([5, 2, 9]), ...tpu.tensorSplit(x, [-9, 3]), ...x.tensorSplit([])], py: '[*x0.tensor_split([1, -2]), *x0.tensor_split([5, 2, 9]), *torch.tensor_split(x0, [-9, 3]), *x0.tensor_split([])]' },
  { name: 'tensorSplit along a dim, positional, negative and in options', inputs: [M], js: (x) => [...x.tensorSplit(2, 1), ...tpu.tensorSplit(x, [1], -2), ...x.tensorSplit([2, 4], { dim: 1 })], py: '[*x0.tensor_split(2, 1), *torch.tensor_split(x0, [1], -2), *x0.tensor_split([2, 4], dim=1)]' },
  { name: 'tensorSplit with an int64 tensor of sections or indices', inputs: [M, i64(2), i64([1, 3])], js: (x, n, idx) => [...x.tensorSplit(n, 1), ...x.tensorSplit(idx, 1)], py: '[*x0.tensor_split(x1, 1), *x0.tensor_split(x2, 1)]' },
  { name: 'tensorSplit pieces are views: a write through one reaches the input', inputs: [M], js: (x) => { const y = x.clone(); y.tensorSplit(3, 1)[1]!.fill_(0); return y; }, py: 'y = x0.clone()\ny.tensor_split(3, 1)[1].fill_(0)\nresult = y' },
  grads('tensorSplit gradient', [M], (x) => { const [a, b] = x.tensorSplit([2], 1); return a!.mul(2).sum(1).add(b!.square().sum(1)); }, '(lambda a, b: a.mul(2).sum(1) + b.square().sum(1))(*x0.tensor_split([2], 1))'),
  { name: 'tensorSplit into 0 sections is an error', inputs: [SEVEN], js: (x) => x.tensorSplit(0), py: 'x0.tensor_split(0)' },
  { name: 'tensorSplit of a 0-d tensor is an error', inputs: [f32(1)], js: (x) => x.tensorSplit(2), py: 'x0.tensor_split(2)' },
  { name: 'tensorSplit with a float tensor of indices is an error', inputs: [SEVEN, f32([1.5])], js: (x, i) => x.tensorSplit(i), py: 'x0.tensor_split(x1)' },
  { name: 'tensorSplit with a fractional number of sections is an error', inputs: [SEVEN], js: (x) => x.tensorSplit(2.5), py: 'x0.tensor_split(2.5)' },
  { name: 'tensorSplit along a dim out of range is an error', inputs: [M], js: (x) => x.tensorSplit(2, 2), py: 'x0.tensor_split(2, 2)' },
  // varMean stdMean
  { name: 'varMean and stdMean of all elements', inputs: [STATS], js: (x) => [...tpu.varMean(x), ...tpu.stdMean(x)], py: '[*torch.var_mean(x0), *torch.std_mean(x0)]' },
  { name: 'varMean and stdMean along dims with unbiased and keepdim positional', inputs: [STATS], js: (x) => [...tpu.varMean(x, 1), ...tpu.varMean(x, 0, false, true), ...tpu.stdMean(x, [0, 1], true, true), ...tpu.stdMean(x, false)], py: '[*torch.var_mean(x0, 1), *torch.var_mean(x0, 0, False, True), *torch.std_mean(x0, [0, 1], True, True), *torch.std_mean(x0, False)]' },
  { name: 'varMean and stdMean with correction and keepdim options', inputs: [STATS], js: (x) => [...tpu.varMean(x, 1, { correction: 0, keepdim: true }), ...tpu.stdMean(x, { dim: -1, correction: 2 }), ...tpu.varMean(x, { dim: 0, unbiased: false })], py: '[*torch.var_mean(x0, 1, correction=0, keepdim=True), *torch.std_mean(x0, dim=-1, correction=2), *torch.var_mean(x0, dim=0, unbiased=False)]' },
  { name: 'varMean and stdMean of bfloat16', inputs: [bf16([[0.5, 3.25, -2, 8], [1, 1, 1, 1]])], js: (x) => [...tpu.varMean(x, 1), ...tpu.stdMean(x)], py: '[*torch.var_mean(x0, 1), *torch.std_mean(x0)]', rtol: 1e-2, atol: 1e-2 },
  grads('varMean gradient reaches the input through both results', [STATS], (x) => { const [v, m] = tpu.varMean(x, 1); return v.add(m.mul(3)); }, '(lambda vm: vm[0] + vm[1] * 3)(torch.var_mean(x0, 1))', { rtol: 1e-4, atol: 1e-5 }),
  { name: 'varMean of ints is an error', inputs: [i32([1, 2, 3])], js: (x) => tpu.varMean(x), py: 'torch.var_mean(x0)' },
  { name: 'stdMean with unbiased and correction both is an error', inputs: [STATS], js: (x) => tpu.stdMean(x, { unbiased: true, correction: 1 }), py: 'torch.std_mean(x0, unbiased=True, correction=1)' },
  // fliplr flipud
  { name: 'fliplr and flipud of 2-d and 3-d tensors', inputs: [M, seq('int32', [2, 3, 2])], js: (m, c) => [tpu.fliplr(m), m.flipud(), c.fliplr(), tpu.flipud(c)], py: '[torch.fliplr(x0), x0.flipud(), x1.fliplr(), torch.flipud(x1)]' },
  { name: 'flipud of 1-d and bool tensors', inputs: [SEVEN, bool([[true, false], [false, false]])], js: (x, b) => [x.flipud(), b.fliplr(), b.flipud()], py: '[x0.flipud(), x1.fliplr(), x1.flipud()]' },
  grads('fliplr gradient', [M], (x) => x.fliplr().mul(tpu.tensor([1, 2, 3, 4, 5])), 'x0.fliplr() * torch.tensor([1., 2., 3., 4., 5.])'),
  { name: 'fliplr of a 1-d tensor is an error', inputs: [SEVEN], js: (x) => x.fliplr(), py: 'x0.fliplr()' },
  { name: 'flipud of a 0-d tensor is an error', inputs: [f32(1)], js: (x) => tpu.flipud(x), py: 'torch.flipud(x0)' },
  // randintLike
  { name: 'randintLike(x, high) keeps x\'s dtype and shape', inputs: [seq('float32', [3, 40])], js: (x) => inRange(tpu.randintLike(x, 5), 0, 5), py: inRangePy('torch.randint_like(x0, 5)', 0, 5) },
  { name: 'randintLike(x, low, high) of int32, int64 and bfloat16', inputs: [seq('int32', [50]), seq('int64', [2, 30]), seq('bfloat16', [60])], js: (a, b, c) => [...inRange(tpu.randintLike(a, -3, 4), -3, 4), ...inRange(tpu.randintLike(b, 10, 12), 10, 12), ...inRange(tpu.randintLike(c, 2, 9), 2, 9)], py: `${inRangePy('torch.randint_like(x0, -3, 4)', -3, 4)}\na = result\n${inRangePy('torch.randint_like(x1, 10, 12)', 10, 12)}\nb = result\n${inRangePy('torch.randint_like(x2, 2, 9)', 2, 9)}\nresult = a + b + result` },
  { name: 'randintLike with a dtype option', inputs: [seq('float32', [20])], js: (x) => inRange(tpu.randintLike(x, 7, { dtype: 'int64' }), 0, 7), py: inRangePy('torch.randint_like(x0, 7, dtype=torch.int64)', 0, 7) },
  { name: 'randintLike of bools below 2', inputs: [bool([true, false, true])], js: (x) => tpu.randintLike(x, 2).mul(0), py: 'torch.randint_like(x0, 2) * 0' },
  { name: 'randintLike of bools with high above 2 is an error', inputs: [bool([true, false])], js: (x) => tpu.randintLike(x, 5), py: 'torch.randint_like(x0, 5)' },
  { name: 'randintLike with low not below high is an error', inputs: [f32([1, 2])], js: (x) => tpu.randintLike(x, 3, 3), py: 'torch.randint_like(x0, 3, 3)' },
];

torchTier('tensorSplit, varMean/stdMean, fliplr/flipud and randintLike follow PyTorch', cases);

it('randintLike draws from the tpu.manualSeed generator: the same seed, the same values; every value of the range comes', () => {
  const x = tpu.zeros([400]);
  tpu.manualSeed(7);
  const a = tpu.randintLike(x, 3, 8).tolist() as number[];
  tpu.manualSeed(7);
  expect(tpu.randintLike(x, 3, 8).tolist()).toEqual(a);
  expect(new Set(a)).toEqual(new Set([3, 4, 5, 6, 7]));
});
