// rot90, diagEmbed, cov, corrcoef, trilIndices and triuIndices against PyTorch 2.13 in every
// mode and under tpu.compile: values, dtypes, shapes, strides of rot90's results, errors
// (negative weights fail on the device), and gradients.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, grads, gradsOf, i32, i64, seq, torchTier, uniform, type TorchCase } from './torch-tier.js';

const M23 = seq('float32', [2, 3]);
const T234 = seq('float32', [2, 3, 4], 0.5, -5);
const strides = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int64' });
/** Observations with distinct spreads: rows are variables. */
const OBS = f32([[1, 2.5, -1, 4, 0.5], [3, 1, 2, -2, 6], [0.25, 0.5, 1, 2, 4]]);
const PY_CORR = '(x0.cov(), torch.cov(x0, correction=0), torch.cov(x0, correction=2))';

const rot90Cases: TorchCase[] = [
  { name: 'rot90 k from -1 to 5', inputs: [M23], js: (x) => [x.rot90(), x.rot90(-1), x.rot90(2), x.rot90(3), x.rot90(4), x.rot90(5), tpu.rot90(x, 0)], py: '(x0.rot90(), x0.rot90(-1), x0.rot90(2), x0.rot90(3), x0.rot90(4), x0.rot90(5), torch.rot90(x0, 0))' },
  { name: 'rot90 over other dims, positional and options', inputs: [T234], js: (x) => [x.rot90(1, [1, 2]), tpu.rot90(x, -1, [-1, 0]), x.rot90({ k: 3, dims: [2, 0] }), x.rot90({ dims: [1, 0] })], py: '(x0.rot90(1, [1, 2]), torch.rot90(x0, -1, [-1, 0]), x0.rot90(3, [2, 0]), x0.rot90(dims=[1, 0]))' },
  { name: 'rot90 strides', inputs: [T234], js: (x) => [strides(x.rot90()), strides(x.rot90(2)), strides(x.rot90(3, [1, 2])), strides(x.rot90(0))], py: '[torch.tensor(t.stride()) for t in (x0.rot90(), x0.rot90(2), x0.rot90(3, [1, 2]), x0.rot90(0))]' },
  { name: 'rot90 of int32, int64, bool and bf16', inputs: [seq('int32', [2, 2]), i64([[1, 2, 3]]), bool([[true, false], [false, false]]), bf16([[1.5, -2.25], [3, 0.1]])], js: (a, b, c, d) => [a.rot90(), b.rot90(-1), c.rot90(1), d.rot90(2)], py: '(x0.rot90(), x1.rot90(-1), x2.rot90(1), x3.rot90(2))' },
  { name: 'rot90 by 0 is a copy', inputs: [M23], js: (b) => { b.rot90(4).fill_(7); return b; }, py: 'x0.rot90(4).fill_(7)\nresult = x0' },
  { name: 'rot90 of a transposed view', inputs: [M23], js: (x) => x.t().rot90(1), py: 'x0.t().rot90(1)' },
  { name: 'rot90 of a vector is an error', inputs: [f32([1, 2])], js: (x) => x.rot90(), py: 'x0.rot90()' },
  { name: 'rot90 over one dim twice is an error', inputs: [M23], js: (x) => x.rot90(1, [1, -1]), py: 'x0.rot90(1, [1, -1])' },
  { name: 'rot90 over three dims is an error', inputs: [T234], js: (x) => x.rot90(1, [0, 1, 2]), py: 'x0.rot90(1, [0, 1, 2])' },
  { name: 'rot90 over a dim out of range is an error', inputs: [M23], js: (x) => x.rot90(1, [0, 2]), py: 'x0.rot90(1, [0, 2])' },
  grads('rot90 gradient', [uniform([2, 3, 4], 1)], (x) => x.rot90(3, [2, 0]), 'x0.rot90(3, [2, 0])'),
  grads('rot90 by 2 gradient', [uniform([3, 2], 2)], (x) => x.rot90(2), 'x0.rot90(2)'),
];

const diagEmbedCases: TorchCase[] = [
  { name: 'diagEmbed of a vector with offsets', inputs: [f32([1, -0, NaN, Infinity])], js: (v) => [v.diagEmbed(), v.diagEmbed(1), tpu.diagEmbed(v, -2), v.diagEmbed({ offset: 3 })], py: '(x0.diag_embed(), x0.diag_embed(1), torch.diag_embed(x0, -2), x0.diag_embed(offset=3))' },
  { name: 'diagEmbed of a batch over other dims', inputs: [T234], js: (x) => [x.diagEmbed(), x.diagEmbed(1, 0, 2), x.diagEmbed(-1, 3, 1), x.diagEmbed({ dim1: -1, dim2: 0 }), x.diagEmbed(2, -4, -3)], py: '(x0.diag_embed(), x0.diag_embed(1, 0, 2), x0.diag_embed(-1, 3, 1), x0.diag_embed(dim1=-1, dim2=0), x0.diag_embed(2, -4, -3))' },
  { name: 'diagEmbed of int32, int64, bool and bf16', inputs: [i32([[3, -4], [5, 6]]), i64([7, 8]), bool([true, false]), bf16([1.5, -2.5])], js: (a, b, c, d) => [a.diagEmbed(-1), b.diagEmbed(), c.diagEmbed(1), d.diagEmbed()], py: '(x0.diag_embed(-1), x1.diag_embed(), x2.diag_embed(1), x3.diag_embed())' },
  { name: 'diagEmbed of an empty vector', inputs: [f32([])], js: (v) => [v.diagEmbed(), v.diagEmbed(2)], py: '(x0.diag_embed(), x0.diag_embed(2))' },
  { name: 'diagEmbed of a transposed view', inputs: [M23], js: (x) => x.t().diagEmbed(1), py: 'x0.t().diag_embed(1)' },
  { name: 'diagEmbed over one dim twice is an error', inputs: [M23], js: (x) => x.diagEmbed(0, 1, -2), py: 'x0.diag_embed(0, 1, -2)' },
  { name: 'diagEmbed of a 0-d tensor is an error', inputs: [f32(1)], js: (x) => x.diagEmbed(), py: 'x0.diag_embed()' },
  { name: 'diagEmbed over a dim out of range is an error', inputs: [M23], js: (x) => x.diagEmbed(0, 0, 3), py: 'x0.diag_embed(0, 0, 3)' },
  grads('diagEmbed gradient', [uniform([2, 3], 3)], (x) => x.diagEmbed(-1, 0, 2), 'x0.diag_embed(-1, 0, 2)'),
];

const covCases: TorchCase[] = [
  { name: 'cov with corrections', inputs: [OBS], js: (x) => [x.cov(), tpu.cov(x, { correction: 0 }), tpu.cov(x, { correction: 2 })], py: PY_CORR },
  { name: 'cov of a vector is 0-d', inputs: [f32([1, 2, 4, 7])], js: (x) => [x.cov(), x.cov({ correction: 0 })], py: '(x0.cov(), x0.cov(correction=0))' },
  { name: 'cov with no degrees of freedom is inf or NaN', inputs: [f32([1, 2, 3]), f32([[1, 2]]), f32([[2], [5]])], js: (a, b, c) => [a.cov({ correction: 3 }), b.cov({ correction: 5 }), c.cov()], py: '(x0.cov(correction=3), x1.cov(correction=5), x2.cov())' },
  { name: 'cov of one variable row', inputs: [f32([[1, 5, 2]])], js: (x) => x.cov(), py: 'x0.cov()' },
  { name: 'cov with fweights of int64 and int32', inputs: [OBS, i64([1, 2, 0, 3, 1]), i32([2, 2, 1, 1, 5])], js: (x, f, g) => [x.cov({ fweights: f }), x.cov({ fweights: g, correction: 0 })], py: '(x0.cov(fweights=x1), x0.cov(fweights=x2, correction=0))' },
  { name: 'cov with aweights, and both weights', inputs: [OBS, f32([0.5, 1, 2, 0.25, 1]), i64([1, 2, 1, 3, 1])], js: (x, a, f) => [x.cov({ aweights: a }), x.cov({ aweights: a, correction: 0 }), x.cov({ aweights: a, fweights: f }), x.cov({ aweights: a, fweights: f, correction: 2 })], py: '(x0.cov(aweights=x1), x0.cov(aweights=x1, correction=0), x0.cov(aweights=x1, fweights=x2), x0.cov(aweights=x1, fweights=x2, correction=2))', rtol: 1e-5, atol: 1e-5 },
  { name: 'cov of integers is float32', inputs: [i64([[1, 2, 4], [3, 5, 1]]), i32([1, 3, 3, 7])], js: (a, b) => [a.cov(), b.cov()], py: '(x0.cov(), x1.cov())' },
  { name: 'cov of bf16', inputs: [bf16([[1, 2, 4], [3, 5, 1]])], js: (a) => a.cov(), py: 'x0.cov()' },
  { name: 'cov of no observations and of no variables', inputs: [seq('float32', [2, 0]), seq('float32', [0, 3])], js: (a, b) => [a.cov(), b.cov()], py: '(x0.cov(), x1.cov())' },
  { name: 'cov of a 3-D tensor is an error', inputs: [T234], js: (x) => x.cov(), py: 'x0.cov()' },
  { name: 'cov of bools is an error', inputs: [bool([true, false])], js: (x) => x.cov(), py: 'x0.cov()' },
  { name: 'cov with float fweights is an error', inputs: [M23, f32([1, 2, 3])], js: (x, f) => x.cov({ fweights: f }), py: 'x0.cov(fweights=x1)' },
  { name: 'cov with integer aweights is an error', inputs: [M23, i64([1, 2, 3])], js: (x, a) => x.cov({ aweights: a }), py: 'x0.cov(aweights=x1)' },
  { name: 'cov with a weight per variable is an error', inputs: [M23, f32([1, 2])], js: (x, a) => x.cov({ aweights: a }), py: 'x0.cov(aweights=x1)' },
  { name: 'cov with negative fweights is an error', inputs: [M23, i64([1, -2, 3])], js: (x, f) => x.cov({ fweights: f }), py: 'x0.cov(fweights=x1)' },
  { name: 'cov with negative aweights is an error', inputs: [M23, f32([1, 2, -0.5])], js: (x, a) => x.cov({ aweights: a }), py: 'x0.cov(aweights=x1)' },
  grads('cov gradient', [uniform([3, 5], 4)], (x) => x.cov(), 'x0.cov()', { atol: 1e-5 }),
  gradsOf('cov gradient with aweights and fweights', [uniform([2, 4], 5), f32([0.5, 1, 2, 0.25]), i64([1, 3, 1, 2])], [0, 1], (x, a, f) => x.cov({ aweights: a, fweights: f }), 'x0.cov(aweights=x1, fweights=x2)', { atol: 1e-5, rtol: 1e-4 }),
  { name: 'corrcoef', inputs: [OBS], js: (x) => [x.corrcoef(), tpu.corrcoef(x.at('0:2'))], py: '(x0.corrcoef(), torch.corrcoef(x0[0:2]))' },
  { name: 'corrcoef of a vector and of a constant row', inputs: [f32([1, 2, 4]), f32([[1, 1, 1], [1, 2, 3]])], js: (a, b) => [a.corrcoef(), b.corrcoef()], py: '(x0.corrcoef(), x1.corrcoef())' },
  { name: 'corrcoef of perfectly correlated rows stays in [-1, 1]', inputs: [f32([[0.1, 0.2, 0.3, 0.7], [0.3, 0.6, 0.9, 2.1], [-0.2, -0.4, -0.6, -1.4]])], js: (x) => x.corrcoef(), py: 'x0.corrcoef()' },
  { name: 'corrcoef of integers', inputs: [i32([[1, 5, 2], [3, 3, 9]])], js: (x) => x.corrcoef(), py: 'x0.corrcoef()' },
  grads('corrcoef gradient', [uniform([3, 6], 6)], (x) => x.corrcoef(), 'x0.corrcoef()', { atol: 1e-5, rtol: 1e-4 }),
];

const indexCases: TorchCase[] = [
  { name: 'trilIndices', inputs: [], js: () => [tpu.trilIndices(3, 3), tpu.trilIndices(3, 4, 1), tpu.trilIndices(4, 3, -1), tpu.trilIndices(2, 5, 9), tpu.trilIndices(3, 2, -7)], py: '(torch.tril_indices(3, 3), torch.tril_indices(3, 4, 1), torch.tril_indices(4, 3, -1), torch.tril_indices(2, 5, 9), torch.tril_indices(3, 2, -7))' },
  { name: 'triuIndices', inputs: [], js: () => [tpu.triuIndices(3, 3), tpu.triuIndices(3, 4, 1), tpu.triuIndices(4, 3, -1), tpu.triuIndices(2, 5, 9), tpu.triuIndices(3, 2, -7)], py: '(torch.triu_indices(3, 3), torch.triu_indices(3, 4, 1), torch.triu_indices(4, 3, -1), torch.triu_indices(2, 5, 9), torch.triu_indices(3, 2, -7))' },
  { name: 'trilIndices and triuIndices of an empty matrix', inputs: [], js: () => [tpu.trilIndices(0, 3), tpu.triuIndices(3, 0)], py: '(torch.tril_indices(0, 3), torch.triu_indices(3, 0))' },
  { name: 'trilIndices int32 and options', inputs: [], js: () => [tpu.trilIndices(3, 3, 0, { dtype: 'int32' }), tpu.triuIndices(3, 3, { offset: 1, dtype: 'int32' }), tpu.trilIndices(2, 2, { device: 'tpu:0' })], py: '(torch.tril_indices(3, 3, 0, dtype=torch.int32), torch.triu_indices(3, 3, offset=1, dtype=torch.int32), torch.tril_indices(2, 2))' },
  { name: 'triangle indices gather a triangle', inputs: [seq('float32', [3, 4])], js: (x) => { const [r, c] = tpu.triuIndices(3, 4, 1); return x.index(r!, c!); }, py: 'r, c = torch.triu_indices(3, 4, 1)\nresult = x0[r, c]' },
  { name: 'trilIndices of a negative row is an error', inputs: [], js: () => tpu.trilIndices(-1, 3), py: 'torch.tril_indices(-1, 3)' },
  { name: 'trilIndices of a float dtype is an error', inputs: [], js: () => tpu.trilIndices(3, 3, 0, { dtype: 'float32' }), py: 'torch.tril_indices(3, 3, 0, dtype=torch.float32)' },
];

torchTier('rot90 vs PyTorch', rot90Cases, { compile: true });
torchTier('diagEmbed vs PyTorch', diagEmbedCases, { compile: true });
torchTier('cov and corrcoef vs PyTorch', covCases, { compile: true });
torchTier('trilIndices and triuIndices vs PyTorch', indexCases, { compile: true });
