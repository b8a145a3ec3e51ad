// floorDivide trueDivide and the bitwise ops against PyTorch 2.13: int32, int64 (beyond 2^32)
// and bool operands, JS numbers on either side, shift counts out of range, and PyTorch's errors
// for float operands.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const BIG = 2n ** 40n + 12345n;

const cases: TorchCase[] = [
  // floorDivide and trueDivide
  { name: 'floorDivide of ints rounds toward -inf and stays an integer', inputs: [i32([7, -7, 7, -7, 0, INT_MAX, INT_MIN + 1]), i32([2, 2, -2, -2, 3, 2, 3])], js: (a, b) => [a.floorDivide(b), tpu.floorDivide(a, b)], py: '(x0.floor_divide(x1), torch.floor_divide(x0, x1))' },
  { name: 'floorDivide of int64 beyond 2^32 and with numbers', inputs: [i64([BIG, -BIG, 9, -9])], js: (a) => [a.floorDivide(1000), tpu.floorDivide(100, a), a.floorDivide(-4)], py: '(x0.floor_divide(1000), torch.floor_divide(100, x0), x0.floor_divide(-4))' },
  { name: 'floorDivide of floats and bf16', inputs: [f32([7, -7, 1, -0, 5.5, Infinity, NaN]), f32([2, 2, 0.1, 3, -2, 2, 1]), bf16([7, -7.5, 3])], js: (a, b, h) => [a.floorDivide(b), h.floorDivide(2), a.floorDivide(2.5)], py: '(x0.floor_divide(x1), x2.floor_divide(2), x0.floor_divide(2.5))' },
  { name: 'floorDivide of an int by a float number gives float32', inputs: [i32([7, -7])], js: (a) => a.floorDivide(2.5), py: 'x0.floor_divide(2.5)' },
  { name: 'floorDivide of two bools is an error', inputs: [bool([true, false])], js: (a) => a.floorDivide(a), py: 'x0.floor_divide(x0)' },
  { name: 'floorDivide of ints by zero is an error', inputs: [i32([1, 2]), i32([1, 0])], js: (a, b) => a.floorDivide(b), py: 'x0.floor_divide(x1)' },
  { name: 'trueDivide of ints gives float32', inputs: [i32([7, -7, 0]), i64([2, 4, 5])], js: (a, b) => [a.trueDivide(b), tpu.trueDivide(a, 2), tpu.trueDivide(7, b)], py: '(x0.true_divide(x1), torch.true_divide(x0, 2), torch.true_divide(7, x1))' },
  // and or xor not
  { name: 'bitwise and or xor of int32 with negatives and extremes', inputs: [i32([12, -1, INT_MIN, INT_MAX, 0, -8]), i32([10, 5, -1, INT_MIN, 7, 3])], js: (a, b) => [a.bitwiseAnd(b), a.bitwiseOr(b), a.bitwiseXor(b), tpu.bitwiseAnd(a, b)], py: '(x0 & x1, x0 | x1, x0 ^ x1, torch.bitwise_and(x0, x1))' },
  { name: 'bitwise and or xor of int64 beyond 2^32', inputs: [i64([BIG, -BIG, 2n ** 62n, -1]), i64([2n ** 40n + 1n, 0xffffn, -1, 2n ** 33n])], js: (a, b) => [a.bitwiseAnd(b), a.bitwiseOr(b), a.bitwiseXor(b)], py: '(x0 & x1, x0 | x1, x0 ^ x1)' },
  { name: 'bitwise ops of bools stay bool', inputs: [bool([true, true, false, false]), bool([true, false, true, false])], js: (a, b) => [a.bitwiseAnd(b), a.bitwiseOr(b), a.bitwiseXor(b), a.bitwiseNot()], py: '(x0 & x1, x0 | x1, x0 ^ x1, ~x0)' },
  { name: 'bitwise ops with JS numbers on either side and broadcasting', inputs: [i32([[12], [-3]]), bool([true, false]), i64([5, 6])], js: (a, b, l) => [a.bitwiseAnd(6), tpu.bitwiseOr(1, a), a.bitwiseXor(l), b.bitwiseAnd(1), b.bitwiseXor(true), l.bitwiseOr(a)], py: '(x0 & 6, torch.bitwise_or(1, x0), x0 ^ x2, x1 & 1, x1 ^ True, x2 | x0)' },
  { name: 'bitwiseNot of int32 and int64', inputs: [i32([0, 5, -1, INT_MIN, INT_MAX]), i64([BIG, -BIG, 0])], js: (a, b) => [a.bitwiseNot(), tpu.bitwiseNot(b)], py: '(~x0, torch.bitwise_not(x1))' },
  // shifts
  { name: 'left shift wraps and is 0 for counts out of range', inputs: [i32([1, 3, -5, INT_MAX, 1, 7, 7, 7]), i32([0, 2, 3, 1, 31, 32, 40, -1])], js: (a, b) => [a.bitwiseLeftShift(b), tpu.bitwiseLeftShift(a, b)], py: '(x0.bitwise_left_shift(x1), torch.bitwise_left_shift(x0, x1))' },
  { name: 'right shift is arithmetic and gives the sign for counts out of range', inputs: [i32([-8, 8, -1, INT_MIN, 7, -7, -7, 7]), i32([1, 1, 5, 31, 32, 32, -1, -3])], js: (a, b) => a.bitwiseRightShift(b), py: 'x0.bitwise_right_shift(x1)' },
  { name: 'shifts of int64 by numbers and of a number by a tensor', inputs: [i64([BIG, -BIG, 1, -1]), i32([0, 3, 31])], js: (a, n) => [a.bitwiseLeftShift(20), a.bitwiseRightShift(35), a.bitwiseLeftShift(63), a.bitwiseRightShift(64), tpu.bitwiseLeftShift(3, n), tpu.bitwiseRightShift(-1024, n)], py: '(x0 << 20, x0 >> 35, x0 << 63, x0 >> 64, torch.bitwise_left_shift(3, x1), torch.bitwise_right_shift(-1024, x1))' },
  { name: 'a bool shifted by a number promotes to int64', inputs: [bool([true, false])], js: (b) => [b.bitwiseLeftShift(3), b.bitwiseRightShift(0)], py: '(x0 << 3, x0 >> 0)' },
  // in place
  { name: 'the in-place forms', inputs: [i32([12, -16, 7]), bool([true, false, true])], js: (a, m) => [a.clone().bitwiseAnd_(10), a.clone().bitwiseOr_(3), a.clone().bitwiseXor_(a), a.clone().bitwiseNot_(), a.clone().bitwiseLeftShift_(2), a.clone().bitwiseRightShift_(2), a.clone().floorDivide_(-5), m.clone().bitwiseXor_(true), m.clone().bitwiseNot_()], py: '(x0.clone().bitwise_and_(10), x0.clone().bitwise_or_(3), x0.clone().bitwise_xor_(x0), x0.clone().bitwise_not_(), x0.clone().bitwise_left_shift_(2), x0.clone().bitwise_right_shift_(2), x0.clone().floor_divide_(-5), x1.clone().bitwise_xor_(True), x1.clone().bitwise_not_())' },
  { name: 'bitwiseAnd_ of a bool by an int is an error', inputs: [bool([true, false])], js: (m) => m.clone().bitwiseAnd_(1), py: 'x0.clone().bitwise_and_(1)' },
  { name: 'floorDivide_ of an int by a float is an error', inputs: [i32([7])], js: (a) => a.clone().floorDivide_(2.5), py: 'x0.clone().floor_divide_(2.5)' },
  // errors
  { name: 'bitwiseAnd of floats is an error', inputs: [f32([1, 2])], js: (x) => x.bitwiseAnd(1), py: 'x0 & 1' },
  { name: 'bitwiseOr of an int and a float number is an error', inputs: [i32([1, 2])], js: (x) => x.bitwiseOr(1.5), py: 'x0 | 1.5' },
  { name: 'bitwiseXor of bf16 is an error', inputs: [bf16([1, 2]), i32([1, 2])], js: (x, i) => i.bitwiseXor(x), py: 'x1 ^ x0' },
  { name: 'bitwiseNot of floats is an error', inputs: [f32([1, 2])], js: (x) => x.bitwiseNot(), py: '~x0' },
  { name: 'left shift of floats is an error', inputs: [f32([1, 2])], js: (x) => x.bitwiseLeftShift(1), py: 'x0 << 1' },
  { name: 'right shift of two bools is an error', inputs: [bool([true, false])], js: (x) => x.bitwiseRightShift(x), py: 'x0 >> x0' },
];

torchTier('integer division and bitwise ops follow PyTorch', cases, { compile: true });
