// Which dtypes an op takes, as PyTorch decides (found by the random programs of
// random-programs.test.ts): bools are ordered (False < True) by amax/amin, max/min and sort,
// but not by argmax/argmin or topk; matmul does not promote a mixed pair; softmax and the
// other float-only kernels refuse integers and bools.
import { tpu } from 'tpu-kernel/runtime';
import { bool, bf16, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const B = bool([[true, false, false], [false, false, true]]);
const N = i64([[1, 2, 3], [4, 5, 6]]);

const cases: TorchCase[] = [
  { name: 'amax and amin of bools', inputs: [B], js: (x) => [x.amax(0), x.amin(1), x.amax(), x.amin({ dim: 1, keepdim: true })], py: '(x0.amax(0), x0.amin(1), x0.amax(), x0.amin(1, keepdim=True))' },
  { name: 'max and min of bools, with indices', inputs: [B], js: (x) => { const a = x.max(0); const b = x.min(1); return [x.max(), x.min(), a.values, a.indices, b.values, b.indices]; }, py: '(x0.max(), x0.min(), x0.max(0).values, x0.max(0).indices, x0.min(1).values, x0.min(1).indices)' },
  { name: 'sort and argsort of bools', inputs: [bool([true, false, true, false, false])], js: (x) => { const s = x.sort(0, true); return [x.sort(0).values, s.values, x.argsort(0)]; }, py: '(x0.sort(0).values, x0.sort(0, descending=True).values, x0.argsort(0))' },
  { name: 'argmax of bools is an error', inputs: [B], js: (x) => x.argmax(0), py: 'x0.argmax(0)' },
  { name: 'topk of bools is an error', inputs: [B], js: (x) => x.topk(1, 1).values, py: 'x0.topk(1, 1).values' },
  { name: 'matmul float32 by int32 is an error', inputs: [f32([[1, 2], [3, 4]]), i32([[1, 0], [0, 1]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'matmul int32 by int64 is an error', inputs: [i32([[1, 2], [3, 4]]), i64([[1, 0], [0, 1]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'matmul bfloat16 by float32 is an error', inputs: [bf16([[1, 2], [3, 4]]), f32([[1, 0], [0, 1]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'matmul of a float32 matrix and an int64 vector is an error', inputs: [f32([[1, 2], [3, 4]]), i64([1, 2])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'matmul of int32 matrices stays int32', inputs: [i32([[1, 2], [3, 4]]), i32([[5, -6], [7, 8]])], js: (a, b) => a.matmul(b), py: 'x0 @ x1' },
  { name: 'softmax of integers is an error', inputs: [N], js: (x) => x.softmax(1), py: 'x0.softmax(1)' },
  { name: 'softmax and logSoftmax of empty integers or bools give them back, as in PyTorch', inputs: [i64([[], []]), bool([[], []])], js: (n, b) => [n.softmax(1), b.logSoftmax(0)], py: '(x0.softmax(1), x1.log_softmax(0))' },
  { name: 'logSoftmax of bools is an error', inputs: [B], js: (x) => x.logSoftmax(1), py: 'x0.log_softmax(1)' },
  { name: 'gelu of integers is an error', inputs: [N], js: (x) => F.gelu(x), py: 'F.gelu(x0)' },
  { name: 'silu of integers is an error', inputs: [N], js: (x) => F.silu(x), py: 'F.silu(x0)' },
  { name: 'layerNorm of integers is an error', inputs: [N], js: (x) => F.layerNorm(x, [3]), py: 'F.layer_norm(x0, [3])' },
  { name: 'rmsNorm of integers is an error', inputs: [N], js: (x) => F.rmsNorm(x, [3]), py: 'F.rms_norm(x0, [3])' },
  { name: 'sign of bools is bool', inputs: [B], js: (x) => x.sign(), py: 'x0.sign()' },
  { name: 'rounded division of bools by numbers', inputs: [bool([true, false, true]), f32([2, -3, 0.5]), i64([2, -3, 1])], js: (b, f, n) => [b.div(f, { roundingMode: 'floor' }), b.div(f, { roundingMode: 'trunc' }), b.div(n, { roundingMode: 'floor' }), b.div(2, { roundingMode: 'floor' }), b.div(0.5, { roundingMode: 'floor' }), f.div(b, { roundingMode: 'floor' }), b.remainder(n), b.fmod(f)], py: "(torch.div(x0, x1, rounding_mode='floor'), torch.div(x0, x1, rounding_mode='trunc'), torch.div(x0, x2, rounding_mode='floor'), torch.div(x0, 2, rounding_mode='floor'), torch.div(x0, 0.5, rounding_mode='floor'), torch.div(x1, x0, rounding_mode='floor'), torch.remainder(x0, x2), torch.fmod(x0, x1))" },
  { name: 'floor division of two bools is an error', inputs: [B, B], js: (a, b) => a.div(b, { roundingMode: 'floor' }), py: "torch.div(x0, x1, rounding_mode='floor')" },
  { name: 'trunc division of a bool by true is an error', inputs: [B], js: (a) => a.div(true as unknown as number, { roundingMode: 'trunc' }), py: "torch.div(x0, True, rounding_mode='trunc')" },
  { name: 'fmod of two bools is an error', inputs: [B, B], js: (a, b) => a.fmod(b), py: 'torch.fmod(x0, x1)' },
  { name: 'remainder of two bools is an error', inputs: [B, B], js: (a, b) => a.remainder(b), py: 'torch.remainder(x0, x1)' },
  { name: 'logsumexp of bools and integers is float32', inputs: [B, N], js: (b, n) => [b.logsumexp(1), n.logsumexp(0), n.pow(0.5)], py: '(x0.logsumexp(1), x1.logsumexp(0), x1 ** 0.5)' },
  { name: 'integer pow by negative exponents in a tensor', inputs: [i64([[-3, -2, -1, 0, 1, 2, 3]]), i64([[-1], [-2], [-3], [-62], [0], [5]]), i32([-1, 0, 1, 2, -3, 4, 1])], js: (b, e, s) => [b.pow(e), b.to('int32').pow(s), s.pow(b.to('int32'))], py: '(x0 ** x1, x0.int() ** x2, x2 ** x0.int())' },
  { name: 'any and all of int64', inputs: [i64([[0, 5, 0], [0, 0, 0], [-1, 2, 3]])], js: (x) => [x.any(1), x.all(1), x.any(), x.all({ dim: 0, keepdim: true })], py: '(x0.any(1), x0.all(1), x0.any(), x0.all(0, keepdim=True))' },
  { name: 'var and std of bfloat16 round once, as PyTorch accumulates in float32', inputs: [bf16([[-4.5, -1.75, 0], [-3.5, -2.5, 0.5]]), bf16([5.15625, 4.34375])], js: (x, y) => [x.var(1), x.std(1), x.var({ dim: 0, correction: 0 }), y.std(0)], py: '(x0.var(1), x0.std(1), x0.var(0, correction=0), x1.std(0))', rtol: 0, atol: 0 },
  { name: 'sigmoid of integers is float32', inputs: [N], js: (x) => x.sigmoid(), py: 'x0.sigmoid()' },
];

torchTier('which dtypes an op takes, as in PyTorch', cases, { compile: true });
