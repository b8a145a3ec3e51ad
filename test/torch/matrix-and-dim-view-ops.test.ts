// t mm mv addmm swapaxes swapdims select unbind diagonal diag trace against PyTorch 2.13:
// values, dtypes, errors, which results alias their input (a write through them shows in the
// base), their strides, and gradients.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, grads, i32, i64, seq, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const M23 = seq('float32', [2, 3]);
const M34 = seq('float32', [3, 4], 0.5, -3);
const strides = (t: Tensor) => tpu.tensor(t.stride(), { dtype: 'int64' });
/** Writes 7 through f(base) and returns the base: 7s appear only where f(base) aliases it. */
const fillThrough = (f: (b: Tensor) => Tensor) => (b: Tensor) => { f(b).fill_(7); return b; };
const pyFill = (expr: string) => `b = x0\n(${expr}).fill_(7)\nresult = b`;

const cases: TorchCase[] = [
  // t swapaxes swapdims
  { name: 't of a matrix, a vector and a 0-d tensor', inputs: [M23, f32([1, 2]), f32(3)], js: (m, v, s) => [m.t(), v.t(), s.t()], py: '(x0.t(), x1.t(), x2.t())' },
  { name: 't of a 3-D tensor is an error', inputs: [seq('float32', [2, 2, 2])], js: (x) => x.t(), py: 'x0.t()' },
  { name: 't aliases', inputs: [M23], js: fillThrough((b) => b.t().at(1)), py: pyFill('b.t()[1]') },
  { name: 'swapaxes and swapdims', inputs: [seq('float32', [2, 3, 4])], js: (x) => [x.swapaxes(0, 2), x.swapdims(-1, 1), strides(x.swapaxes(0, 2))], py: '(x0.swapaxes(0, 2), x0.swapdims(-1, 1), torch.tensor(x0.swapaxes(0, 2).stride()))' },
  { name: 'swapaxes aliases', inputs: [M23], js: fillThrough((b) => b.swapaxes(0, 1).at(2)), py: pyFill('b.swapaxes(0, 1)[2]') },
  // mm mv addmm
  { name: 'mm of floats with inf and NaN', inputs: [f32([[1, INF], [N, 2]]), f32([[1, 0], [0, 1]])], js: (a, b) => tpu.mm(a, b), py: 'torch.mm(x0, x1)' },
  { name: 'mm of int32, int64 and bf16', inputs: [i32([[1, 2], [3, 4]]), i64([[5, 6], [7, 8]]), bf16([[1.5, 2.25], [3, -1]])], js: (a, b, c) => [a.mm(a), b.mm(b), c.mm(c)], py: '(x0.mm(x0), x1.mm(x1), x2.mm(x2))' },
  { name: 'mm with an empty inner dim gives zeros', inputs: [f32([[], []]), seq('float32', [0, 3])], js: (a, b) => a.mm(b), py: 'x0.mm(x1)' },
  { name: 'mm of a vector is an error', inputs: [f32([1, 2]), M23], js: (a, b) => tpu.mm(a, b), py: 'torch.mm(x0, x1)' },
  { name: 'mm of mismatched shapes is an error', inputs: [M23, M23], js: (a, b) => a.mm(b), py: 'x0.mm(x1)' },
  { name: 'mm of two dtypes is an error', inputs: [M23, i32([[1], [2], [3]])], js: (a, b) => a.mm(b), py: 'x0.mm(x1)' },
  { name: 'mv', inputs: [M23, f32([1, -2, 0.5])], js: (a, v) => [tpu.mv(a, v), a.mv(v)], py: '(torch.mv(x0, x1), x0.mv(x1))' },
  { name: 'mv of mismatched sizes is an error', inputs: [M23, f32([1, 2])], js: (a, v) => a.mv(v), py: 'x0.mv(x1)' },
  { name: 'mv of a matrix as vec is an error', inputs: [M23, M23], js: (a, v) => a.mv(v), py: 'x0.mv(x1)' },
  { name: 'addmm default beta and alpha', inputs: [f32([[1, 2, 3, 4], [5, 6, 7, 8]]), M23, M34], js: (i, a, b) => tpu.addmm(i, a, b), py: 'torch.addmm(x0, x1, x2)' },
  { name: 'addmm with beta and alpha and a broadcast row', inputs: [f32([1, -1, 2, 0.5]), M23, M34], js: (i, a, b) => i.addmm(a, b, { beta: 0.5, alpha: -2 }), py: 'x0.addmm(x1, x2, beta=0.5, alpha=-2)' },
  { name: 'addmm with beta 0 ignores NaN and inf in input', inputs: [f32([[N, INF, -INF, 1], [1, 1, 1, N]]), M23, M34], js: (i, a, b) => tpu.addmm(i, a, b, { beta: 0 }), py: 'torch.addmm(x0, x1, x2, beta=0)' },
  { name: 'addmm of int32 with integer beta and alpha', inputs: [i32([[1, 2]]), i32([[1, 2], [3, 4]]), i32([[5, 6], [7, 8]])], js: (i, a, b) => tpu.addmm(i, a, b, { beta: 3, alpha: 2 }), py: 'torch.addmm(x0, x1, x2, beta=3, alpha=2)' },
  { name: 'addmm of bf16 rounds once', inputs: [bf16([[0.1, 3.3], [-7.1, 1e-3]]), bf16([[1.1, 2.7], [3.3, -0.9]]), bf16([[0.7, 1.3], [-2.1, 5.9]])], js: (i, a, b) => tpu.addmm(i, a, b, { beta: 0.5, alpha: 1.5 }), py: 'torch.addmm(x0, x1, x2, beta=0.5, alpha=1.5)' },
  { name: 'addmm of an input of another dtype is an error', inputs: [i64([1, 2, 3, 4]), M23, M34], js: (i, a, b) => tpu.addmm(i, a, b), py: 'torch.addmm(x0, x1, x2)' },
  { name: 'addmm of an input that does not broadcast is an error', inputs: [f32([[1, 2, 3, 4], [5, 6, 7, 8], [1, 1, 1, 1]]), M23, M34], js: (i, a, b) => tpu.addmm(i, a, b), py: 'torch.addmm(x0, x1, x2)' },
  // select unbind
  { name: 'select with negative and positive indices', inputs: [seq('float32', [2, 3, 4])], js: (x) => [x.select(1, -1), x.select(0, 1), x.select(-1, 0), strides(x.select(1, -1))], py: '(x0.select(1, -1), x0.select(0, 1), x0.select(-1, 0), torch.tensor(x0.select(1, -1).stride()))' },
  { name: 'select aliases', inputs: [M23], js: fillThrough((b) => b.select(1, 1)), py: pyFill('b.select(1, 1)') },
  { name: 'select out of range is an error', inputs: [M23], js: (x) => x.select(1, 3), py: 'x0.select(1, 3)' },
  { name: 'select below the range is an error', inputs: [M23], js: (x) => x.select(0, -3), py: 'x0.select(0, -3)' },
  { name: 'unbind along dims 0 and 1', inputs: [M23], js: (x) => [...x.unbind(), ...x.unbind(1)], py: '(*x0.unbind(), *x0.unbind(1))' },
  { name: 'unbind of an empty dim gives no tensors', inputs: [seq('float32', [2, 0])], js: (x) => [tpu.tensor([x.unbind(1).length], { dtype: 'int64' }), ...x.unbind(0)], py: '(torch.tensor([len(x0.unbind(1))]), *x0.unbind(0))' },
  { name: 'unbind results alias', inputs: [M23], js: fillThrough((b) => b.unbind(1)[2]!), py: pyFill('b.unbind(1)[2]') },
  // diagonal diag trace
  { name: 'diagonal with offsets', inputs: [M34], js: (x) => [x.diagonal(), x.diagonal(1), x.diagonal(-2), x.diagonal(3), x.diagonal(4), x.diagonal(-3), tpu.diagonal(x, { offset: 2 })], py: '(x0.diagonal(), x0.diagonal(1), x0.diagonal(-2), x0.diagonal(3), x0.diagonal(4), x0.diagonal(-3), torch.diagonal(x0, offset=2))' },
  { name: 'diagonal over other dims', inputs: [seq('float32', [2, 3, 4])], js: (x) => [x.diagonal(0, 0, 2), x.diagonal(1, -1, 1), x.diagonal({ offset: -1, dim1: 2, dim2: 0 })], py: '(x0.diagonal(0, 0, 2), x0.diagonal(1, -1, 1), x0.diagonal(offset=-1, dim1=2, dim2=0))' },
  { name: 'diagonal strides', inputs: [seq('float32', [3, 4, 5])], js: (x) => [strides(x.diagonal()), strides(x.diagonal(1, 0, 2)), strides(x.transpose(0, 2).diagonal(1, 0, 2)), strides(x.at(':', '1:').diagonal(-1, 1, 2))], py: '[torch.tensor(t.stride()) for t in (x0.diagonal(), x0.diagonal(1, 0, 2), x0.transpose(0, 2).diagonal(1, 0, 2), x0[:, 1:].diagonal(-1, 1, 2))]' },
  { name: 'diagonal aliases', inputs: [M34], js: fillThrough((b) => b.diagonal(1)), py: pyFill('b.diagonal(1)') },
  { name: 'diagonal of a transposed view aliases its base', inputs: [seq('float32', [2, 3, 4])], js: fillThrough((b) => b.transpose(0, 2).diagonal(1, 0, 2)), py: pyFill('b.transpose(0, 2).diagonal(1, 0, 2)') },
  { name: 'copy_ into a diagonal', inputs: [seq('float32', [3, 3]), f32([-1, -2, -3])], js: (b, v) => { b.diagonal().copy_(v); return b; }, py: 'x0.diagonal().copy_(x1)\nresult = x0' },
  { name: 'diagonal of the same dim twice is an error', inputs: [M34], js: (x) => x.diagonal(0, 1, 1), py: 'x0.diagonal(0, 1, 1)' },
  { name: 'diagonal of a vector is an error', inputs: [f32([1, 2])], js: (x) => x.diagonal(), py: 'x0.diagonal()' },
  { name: 'diag of a vector', inputs: [f32([1, -0, N, INF])], js: (v) => [tpu.diag(v), v.diag(1), v.diag(-2), v.diag({ diagonal: 0 })], py: '(torch.diag(x0), x0.diag(1), x0.diag(-2), x0.diag(diagonal=0))' },
  { name: 'diag of int, bool and bf16 vectors', inputs: [i32([3, -4]), bool([true, false]), bf16([1.5, -2.5])], js: (a, b, c) => [a.diag(-1), b.diag(1), c.diag()], py: '(x0.diag(-1), x1.diag(1), x2.diag())' },
  { name: 'diag of an empty vector', inputs: [f32([])], js: (v) => [v.diag(), v.diag(2)], py: '(x0.diag(), x0.diag(2))' },
  { name: 'diag of a matrix is a copy of a diagonal', inputs: [M34], js: (x) => [x.diag(), x.diag(2), x.diag(-5)], py: '(x0.diag(), x0.diag(2), x0.diag(-5))' },
  { name: 'diag of a matrix does not alias', inputs: [M34], js: fillThrough((b) => b.diag()), py: pyFill('b.diag()') },
  { name: 'diag of a 3-D tensor is an error', inputs: [seq('float32', [2, 2, 2])], js: (x) => x.diag(), py: 'x0.diag()' },
  { name: 'trace of floats, ints and a non-square matrix', inputs: [f32([[1, 2], [3, INF]]), i32([[2147483647, 0], [0, 2147483647]]), M34], js: (a, b, c) => [tpu.trace(a), b.trace(), c.trace()], py: '(torch.trace(x0), x1.trace(), x2.trace())' },
  { name: 'trace of an empty matrix is 0', inputs: [seq('float32', [0, 0])], js: (x) => x.trace(), py: 'x0.trace()' },
  { name: 'trace of bools is an error', inputs: [bool([[true, false], [false, true]])], js: (x) => x.trace(), py: 'x0.trace()' },
  { name: 'trace of a 3-D tensor is an error', inputs: [seq('float32', [2, 2, 2])], js: (x) => x.trace(), py: 'x0.trace()' },
  // gradients
  grads('mm and mv gradients', [M23, M34, f32([1, -1, 2])], (a, b, v) => a.mm(b).sum(1).add(a.mv(v)), 'x0.mm(x1).sum(1) + x0.mv(x2)'),
  grads('addmm gradients with beta and alpha', [f32([1, -1, 2, 0.5]), M23, M34], (i, a, b) => i.addmm(a, b, { beta: 0.5, alpha: -2 }), 'x0.addmm(x1, x2, beta=0.5, alpha=-2)'),
  grads('addmm gradient with beta 0 reaches no input', [f32([[1, 2, 3, 4], [5, 6, 7, 8]]), M23, M34], (i, a, b) => i.addmm(a, b, { beta: 0 }).add(i.mul(0)), 'x0.addmm(x1, x2, beta=0) + x0 * 0'),
  weightedGrad('diagonal gradient', M34, (x) => x.diagonal(1), 'x.diagonal(1)', [1, -2, 3]),
  weightedGrad('diag of a vector gradient', f32([1, 2, 3]), (x) => x.diag(-1), 'x.diag(-1)', [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]),
  weightedGrad('diag of a matrix gradient', M34, (x) => x.diag(-1), 'x.diag(-1)', [2, -3]),
  weightedGrad('trace gradient', M34, (x) => x.trace(), 'x.trace()', 3),
  weightedGrad('select and unbind gradients', M34, (x) => x.select(1, -1).add(x.unbind(1)[0]!.mul(2)), 'x.select(1, -1) + x.unbind(1)[0] * 2', [1, 2, 3]),
  weightedGrad('t and swapaxes gradients', M34, (x) => x.t().add(x.swapaxes(0, 1).mul(3)), 'x.t() + x.swapaxes(0, 1) * 3', [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]),
];

torchTier('matrix products, dim views and diagonals follow PyTorch', cases, { compile: true });
