// int64 against PyTorch: promotion with every dtype and with JS scalars, arithmetic that wraps
// modulo 2^64 as PyTorch's does, comparisons, where, casts both ways, reductions and scans
// (int32 and bool sums give int64), and int64 indices.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const BIG = i64([2n ** 53n + 1n, -(2n ** 60n) - 3n, 7n]); // beyond float64's exact integers
const SMALL = i64([3, -2, 5]);

const cases: TorchCase[] = [
  // promotion: int64 with each dtype, 0-d operands and weak JS scalars
  { name: 'int64 + int64 keeps every bit', inputs: [BIG, i64([1n, 2n ** 59n, -7n])], js: (a, b) => a.add(b), py: 'x0 + x1' },
  { name: 'int64 + int32 is int64', inputs: [SMALL, i32([1, 2, 3])], js: (a, b) => [a.add(b), b.add(a)], py: '(x0 + x1, x1 + x0)' },
  { name: 'int64 + bool is int64', inputs: [SMALL, bool([true, false, true])], js: (a, b) => a.add(b), py: 'x0 + x1' },
  { name: 'int64 * float32 is float32', inputs: [SMALL, f32([1.5, -2, 0.25])], js: (a, b) => [a.mul(b), b.mul(a)], py: '(x0 * x1, x1 * x0)' },
  { name: 'int64 * bfloat16 is bfloat16', inputs: [SMALL, bf16([0.5, 4, -1.25])], js: (a, b) => a.mul(b), py: 'x0 * x1' },
  { name: 'int32 tensor + 0-d int64 stays int32', inputs: [i32([1, 2, 3]), i64(5)], js: (a, b) => a.add(b), py: 'x0 + x1' },
  { name: 'int64 tensor + 0-d float32 is float32', inputs: [SMALL, f32(2.5)], js: (a, b) => a.add(b), py: 'x0 + x1' },
  { name: 'int64 with JS scalars', inputs: [SMALL], js: (x) => [x.mul(2), x.add(2.5), x.add(true), x.sub(7)], py: '(x0 * 2, x0 + 2.5, x0 + True, x0 - 7)' },
  { name: 'int64 true division is float32', inputs: [SMALL, i64([2, 4, -5])], js: (a, b) => [a.div(b), a.div(2)], py: '(x0 / x1, x0 / 2)' },
  // wraparound modulo 2^64, as PyTorch's int64
  { name: 'int64 add and sub wrap', inputs: [i64([MAX, MIN, 0n])], js: (x) => [x.add(1), x.sub(1), x.neg()], py: '(x0 + 1, x0 - 1, -x0)' },
  { name: 'int64 pow (wrapping)', inputs: [i64([3n, -2n, 2n ** 20n, 7n]), i64([2n, 3n, 4n, 0n])], js: (a, b) => [a.pow(b), a.pow(2)], py: '(x0 ** x1, x0 ** 2)' },
  { name: 'float functions of int64 are float32', inputs: [i64([3n, -2n, 0n, 2n ** 40n + 7n])], js: (x) => [x.exp(), x.log(), x.sqrt(), x.tanh(), x.sigmoid(), x.rsqrt()], py: '(x0.exp(), x0.log(), x0.sqrt(), x0.tanh(), x0.sigmoid(), x0.rsqrt())' },
  { name: 'relu square floor round and logical ops of int64', inputs: [i64([3n, -2n, 0n, 2n ** 40n + 7n])], js: (x) => [x.relu(), x.square(), x.floor(), x.round(), x.logicalAnd(x.gt(0)), x.logicalNot()], py: '(x0.relu(), x0.square(), x0.floor(), x0.round(), torch.logical_and(x0, x0 > 0), torch.logical_not(x0))' },
  { name: 'int64 mul wraps', inputs: [i64([3037000500n, 2n ** 32n, -(2n ** 40n)])], js: (x) => x.mul(x), py: 'x0 * x0' },
  { name: 'int64 abs and neg of the minimum wrap', inputs: [i64([MIN, -5n, 5n])], js: (x) => [x.abs(), x.neg(), x.sign()], py: '(x0.abs(), -x0, x0.sign())' },
  // comparisons, where, maximum/minimum, clamp: exact beyond 2^53
  { name: 'int64 comparisons beyond 2^53', inputs: [i64([2n ** 53n + 1n, 5n, -3n]), i64([2n ** 53n, 5n, -2n])], js: (a, b) => [a.gt(b), a.eq(b), a.lt(b), a.ge(b), a.le(b)], py: '(x0 > x1, x0 == x1, x0 < x1, x0 >= x1, x0 <= x1)' },
  { name: 'int64 compared with int32 and float', inputs: [SMALL, i32([3, 0, 6])], js: (a, b) => [a.eq(b), a.lt(2.5), b.gt(a)], py: '(x0 == x1, x0 < 2.5, x1 > x0)' },
  { name: 'where of int64 and int32', inputs: [bool([true, false, true]), BIG, i32([1, 2, 3])], js: (c, a, b) => [tpu.where(c, a, b), tpu.where(c, b, a)], py: '(torch.where(x0, x1, x2), torch.where(x0, x2, x1))' },
  { name: 'maximum and minimum of int64', inputs: [BIG, i64([2n ** 53n, 0n, 9n])], js: (a, b) => [a.maximum(b), a.minimum(b)], py: '(torch.maximum(x0, x1), torch.minimum(x0, x1))' },
  { name: 'clamp of int64', inputs: [BIG], js: (x) => x.clamp(-5, 100), py: 'x0.clamp(-5, 100)' },
  // casts both ways
  { name: 'int64 to float32, bfloat16, int32 (wraps) and bool', inputs: [i64([2n ** 53n + 1n, -(2n ** 40n) - 1n, 2n ** 31n, 0n])], js: (x) => [x.to('float32'), x.to('bfloat16'), x.to('int32'), x.to('bool')], py: '(x0.float(), x0.bfloat16(), x0.int(), x0.bool())' },
  { name: 'float32, int32 and bool to int64', inputs: [f32([1.5, -2.7, 3e9, -0.5]), i32([-2147483648, 7, 0, 1]), bool([true, false, true, false])], js: (a, b, c) => [a.to('int64'), b.to('int64'), c.to('int64')], py: '(x0.long(), x1.long(), x2.long())' },
  // reductions and scans: int32 and bool give int64 (the results leave int32), int64 wraps
  { name: 'sum prod cumsum cumprod of bool', inputs: [bool([[true, false, true], [true, true, true]])], js: (x) => [x.sum(), x.sum(1), x.prod(1), x.cumsum(1), x.cumprod(1)], py: '(x0.sum(), x0.sum(1), x0.prod(1), x0.cumsum(1), x0.cumprod(1))' },
  { name: 'int32 sums along dims', inputs: [i32([[2147483647, 2147483647], [-2147483648, -1]])], js: (x) => [x.sum(0), x.sum(1), x.sum({ dim: 1, keepdim: true }), x.cumsum(0)], py: '(x0.sum(0), x0.sum(1), x0.sum(1, keepdim=True), x0.cumsum(0))' },
  { name: 'int64 sum and cumsum wrap', inputs: [i64([MAX, 1n, 2n])], js: (x) => [x.sum(), x.cumsum(0)], py: '(x0.sum(), x0.cumsum(0))' },
  { name: 'int64 prod and cumprod wrap', inputs: [i64([2n ** 32n, 2n ** 31n, 3n, 2n])], js: (x) => [x.prod(), x.cumprod(0)], py: '(x0.prod(), x0.cumprod(0))' },
  { name: 'int64 amax and amin beyond 2^53', inputs: [i64([[2n ** 53n + 1n, 2n ** 53n], [-(2n ** 53n) - 1n, 0n]])], js: (x) => [x.amax(), x.amin(), x.amax(1), x.amin(0)], py: '(x0.amax(), x0.amin(), x0.amax(1), x0.amin(0))' },
  { name: 'argmax, argmin, sort and topk of int64', inputs: [i64([[2n ** 60n, -(2n ** 60n), 5n], [-(2n ** 62n), 3n, 2n ** 53n + 1n]])], js: (x) => [x.argmax(1), x.argmin(), x.sort({ dim: 1 }).values, x.sort({ dim: 1 }).indices, x.topk(2).values, x.topk(2).indices], py: '(x0.argmax(1), x0.argmin(), x0.sort(dim=1, stable=True).values, x0.sort(dim=1, stable=True).indices, x0.topk(2).values, x0.topk(2).indices)' },
  // integer division: floor and trunc rounding, remainder and fmod (signs of the divisor and the dividend); no MIN // -1 (PyTorch dies of SIGFPE there)
  { name: 'int64 division with rounding, remainder and fmod', inputs: [i64([7n, -7n, 2n ** 62n + 3n, -(2n ** 62n) - 5n, 9n, 2n ** 53n + 1n]), i64([2n, 2n, -3n, 7n, -4n, 3n])], js: (a, b) => [a.div(b, { roundingMode: 'floor' }), a.div(b, { roundingMode: 'trunc' }), a.remainder(b), a.fmod(b), a.remainder(3)], py: "(torch.div(x0, x1, rounding_mode='floor'), torch.div(x0, x1, rounding_mode='trunc'), torch.remainder(x0, x1), torch.fmod(x0, x1), x0 % 3)" },
  { name: 'mean of int64 is an error', inputs: [SMALL], js: (x) => x.mean(), py: 'x0.mean()' },
  // int64 indices
  { name: 'indexSelect with int64 indices', inputs: [f32([[1, 2], [3, 4], [5, 6]]), i64([2, 0, 2])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  { name: 'gather with int64 indices', inputs: [f32([[1, 2], [3, 4], [5, 6]]), i64([[1], [0], [1]])], js: (x, i) => x.gather(1, i), py: 'x0.gather(1, x1)' },
  { name: 'indexSelect of int64 values', inputs: [BIG, i64([2, 0])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  { name: 'at and index with int64 indices', inputs: [f32([[1, 2], [3, 4], [5, 6]]), i64([-1, 0])], js: (x, i) => [x.at(':', i), x.index(i)], py: '(x0[:, x1], x0[x1])' },
  { name: 'embedding and crossEntropy with int64 indices', inputs: [f32([[1.5, -0.5, 2], [0, 3, -1]]), i64([2, 1])], js: (x, i) => [tpu.nn.functional.embedding(i, x.T), tpu.nn.crossEntropy(x, i)], py: '(F.embedding(x1, x0.T), F.cross_entropy(x0, x1))' },
  { name: 'int64 out-of-range index is an error', inputs: [f32([1, 2, 3]), i64([3])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  // layout ops keep every bit
  { name: 'int64 reshape, transpose, slice and concat', inputs: [i64([[2n ** 62n + 1n, 2n], [3n, -(2n ** 61n) - 1n]])], js: (x) => [x.T, x.reshape([4]), x.at(1), tpu.concat([x, x], 0)], py: '(x0.T, x0.reshape(4), x0[1], torch.cat([x0, x0], 0))' },
];

torchTier('int64 vs PyTorch', cases);
