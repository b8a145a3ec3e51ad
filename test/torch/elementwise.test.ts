// Elementwise ops against PyTorch: NaN, ±inf, -0, int32 extremes, bf16, 0-d operands, options.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const SPECIAL = f32([N, -0, 0, -2.5, 3, INF, -INF, 1e-30]);
const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

const cases: TorchCase[] = [
  { name: 'sign of NaN, ±0, ±inf', inputs: [SPECIAL], js: (x) => x.sign(), py: 'torch.sign(x0)' },
  { name: 'neg keeps -0', inputs: [SPECIAL], js: (x) => x.neg(), py: '-x0' },
  { name: 'abs of -0 and -inf', inputs: [SPECIAL], js: (x) => x.abs(), py: 'torch.abs(x0)' },
  { name: 'exp overflow and underflow', inputs: [f32([88, 89, -104, -110, N, INF, -INF])], js: (x) => x.exp(), py: 'torch.exp(x0)' },
  { name: 'log of 0, negatives, inf', inputs: [f32([0, -0, -1, INF, N, 1e-40])], js: (x) => x.log(), py: 'torch.log(x0)' },
  { name: 'log1p near -1, tiny and huge', inputs: [f32([-1, -2, 1e-8, -1e-8, 3e38, INF, N, 0])], js: (x) => x.log1p(), py: 'torch.log1p(x0)' },
  { name: 'expm1 tiny and overflow', inputs: [f32([1e-8, -1e-8, 88, 89, 100, -100, INF, -INF, -0])], js: (x) => x.expm1(), py: 'torch.expm1(x0)' },
  { name: 'sqrt of -0, negatives, inf', inputs: [f32([-0, 0, -1, INF, N, 4])], js: (x) => x.sqrt(), py: 'torch.sqrt(x0)' },
  { name: 'rsqrt of 0 and -0', inputs: [f32([0, -0, 4, INF])], js: (x) => x.rsqrt(), py: 'torch.rsqrt(x0)' },
  { name: 'tanh and sigmoid saturate', inputs: [f32([-100, -20, 0, 20, 100, INF, -INF, N])], js: (x) => [x.tanh(), x.sigmoid()], py: '(torch.tanh(x0), torch.sigmoid(x0))' },
  { name: 'relu of NaN and -0', inputs: [SPECIAL], js: (x) => x.relu(), py: 'torch.relu(x0)' },
  { name: 'maximum and minimum propagate NaN', inputs: [f32([N, 1, N, -INF]), f32([1, N, N, INF])], js: (x, y) => [x.maximum(y), x.minimum(y)], py: '(torch.maximum(x0, x1), torch.minimum(x0, x1))' },
  { name: 'maximum and minimum of -0 and 0 keep the first operand', inputs: [f32([-0, 0, -0, 0, -0, 0, -0, 0, 1]), f32([0, -0, 0, -0, 0, -0, 0, -0, 1])], js: (x, y) => [x.maximum(y), x.minimum(y)], py: '(torch.maximum(x0, x1), torch.minimum(x0, x1))' },
  { name: 'clamp propagates NaN', inputs: [f32([N, -5, 5, 0.5])], js: (x) => x.clamp(0, 1), py: 'torch.clamp(x0, 0, 1)' },
  { name: 'round half to even', inputs: [f32([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, N, INF])], js: (x) => x.round(), py: 'torch.round(x0)' },
  { name: 'round with decimals', inputs: [f32([1.2345, -2.5678, 0.125, 1234.5678])], js: (x) => x.round({ decimals: 2 }), py: 'torch.round(x0, decimals=2)' },
  { name: 'round with negative decimals', inputs: [f32([1234.5678, -2561, 150])], js: (x) => x.round({ decimals: -2 }), py: 'torch.round(x0, decimals=-2)' },
  { name: 'floor ceil trunc of -0.5 and NaN', inputs: [f32([-0.5, 0.5, -1.5, N, -INF])], js: (x) => [x.floor(), x.ceil(), x.trunc()], py: '(torch.floor(x0), torch.ceil(x0), torch.trunc(x0))' },
  // 20,000 values from 1 down to -0.9999 through -0 (ONNX Runtime's vector paths, and fused mode's generated loops)
  { name: 'signed zeros of a large tensor', inputs: [seq('float32', [20000], -1e-4, -10000)], js: (x) => [x.trunc(), x.expm1(), x.log1p(), x.div(3, { roundingMode: 'floor' }), x.clamp(0, 1), x.mul(2).sub(0)], py: "(torch.trunc(x0), torch.expm1(x0), torch.log1p(x0), torch.div(x0, 3, rounding_mode='floor'), torch.clamp(x0, 0, 1), x0 * 2 - 0)" },
  { name: 'trunc of -0 and tiny negatives', inputs: [f32([-0, 0, -1e-30, 1e-30, -0.999, 2.5])], js: (x) => x.trunc(), py: 'torch.trunc(x0)' },
  { name: 'log1p and expm1 of -0', inputs: [f32([-0, 0, -1e-30, 1e-30])], js: (x) => [x.log1p(), x.expm1()], py: '(torch.log1p(x0), torch.expm1(x0))' },
  { name: "div roundingMode 'trunc' of a negative fraction is -0", inputs: [f32([-0, 1, -1, 0, 7.5]), f32([3, -3, 3, -3, -2])], js: (x, y) => x.div(y, { roundingMode: 'trunc' }), py: "torch.div(x0, x1, rounding_mode='trunc')" },
  { name: "div roundingMode 'floor' of zeros keeps the quotient's sign", inputs: [f32([-0, 0, -0, 0]), f32([3, -3, -3, 3])], js: (x, y) => x.div(y, { roundingMode: 'floor' }), py: "torch.div(x0, x1, rounding_mode='floor')" },
  { name: 'where under ne or logicalNot keeps a -0 of its other operand', inputs: [f32([-0, 1, -0, 2])], js: (x) => [tpu.where(x.ne(0), 5, x), tpu.where(x.eq(0).logicalNot(), 5, x)], py: '(torch.where(x0.ne(0), 5., x0), torch.where(x0.eq(0).logical_not(), 5., x0))' },
  { name: 'sigmoid tanh of -0', inputs: [f32([-0, 0])], js: (x) => [x.sigmoid(), x.tanh(), x.sin(), x.erf(), x.sqrt(), x.abs(), x.square(), x.pow(3)], py: '(torch.sigmoid(x0), torch.tanh(x0), torch.sin(x0), torch.erf(x0), torch.sqrt(x0), torch.abs(x0), torch.square(x0), x0 ** 3)' },
  { name: 'lerp with inf', inputs: [f32([0, 1, -0, INF]), f32([1, 2, 0, 1])], js: (a, b) => a.lerp(b, 0.5), py: 'torch.lerp(x0, x1, 0.5)' },
  { name: 'remainder fmod of -0 and inf', inputs: [f32([-0, 5, -5, INF, 5]), f32([3, INF, INF, 2, -INF])], js: (a, b) => [a.remainder(b), a.fmod(b)], py: '(torch.remainder(x0, x1), torch.fmod(x0, x1))' },
  // 7 % inf is 7: debug mode checks the result a composed remainder gives, not a step it discards
  { name: 'remainder fmod floor division by ±inf where the answers are finite', inputs: [f32([7, 0, -0, 2.5, 1e30]), f32([-7, 0, -0, -2.5, -1e30]), f32([INF, INF, INF, INF, INF]), f32([-INF, -INF, -INF, -INF, -INF])], js: (p, n, inf, ninf) => [p.remainder(INF), p.remainder(inf), n.remainder(-INF), n.remainder(ninf), p.fmod(-INF), n.fmod(inf), p.div(INF, { roundingMode: 'floor' }), n.div(inf, { roundingMode: 'floor' }), n.div(-INF, { roundingMode: 'floor' }), p.div(ninf, { roundingMode: 'trunc' })], py: "(torch.remainder(x0, float('inf')), torch.remainder(x0, x2), torch.remainder(x1, float('-inf')), torch.remainder(x1, x3), torch.fmod(x0, float('-inf')), torch.fmod(x1, x2), torch.div(x0, float('inf'), rounding_mode='floor'), torch.div(x1, x2, rounding_mode='floor'), torch.div(x1, float('-inf'), rounding_mode='floor'), torch.div(x0, x3, rounding_mode='trunc'))" },
  { name: 'remainder fmod floor division by ±inf and NaN of every sign', inputs: [SPECIAL], js: (x) => [x.remainder(INF), x.remainder(-INF), x.remainder(N), x.fmod(INF), x.fmod(N), x.div(INF, { roundingMode: 'floor' }), x.div(-INF, { roundingMode: 'floor' }), x.div(N, { roundingMode: 'floor' })], py: "(torch.remainder(x0, float('inf')), torch.remainder(x0, float('-inf')), torch.remainder(x0, float('nan')), torch.fmod(x0, float('inf')), torch.fmod(x0, float('nan')), torch.div(x0, float('inf'), rounding_mode='floor'), torch.div(x0, float('-inf'), rounding_mode='floor'), torch.div(x0, float('nan'), rounding_mode='floor'))" },
  { name: 'pow edge cases', inputs: [f32([-0, 0, -1, -8, N, 1, INF]), f32([-1, -1, 0.5, 1 / 3, 0, N, -0])], js: (a, b) => a.pow(b), py: 'torch.pow(x0, x1)' },
  { name: 'round decimals of -0 and large', inputs: [f32([-0, -0.001, 1e30, -2.5e-3])], js: (x) => x.round({ decimals: 2 }), py: 'torch.round(x0, decimals=2)' },
  { name: 'mul by -0 scalar', inputs: [f32([1, -1, 0])], js: (x) => [x.mul(-0), x.add(-0), x.sub(0), x.div(-INF)], py: '(x0 * -0., x0 + -0., x0 - 0., x0 / float("-inf"))' },
  { name: 'where picks -0 from its input', inputs: [f32([-0, 1, -0, 2]), f32([5, -0, 5, -0])], js: (x, y) => tpu.where(x.eq(0), x, y), py: 'torch.where(x0.eq(0), x0, x1)' },
  { name: 'maskedFill with -0', inputs: [f32([1, 2, 3])], js: (x) => x.maskedFill(x.gt(1), -0), py: 'x0.masked_fill(x0 > 1, -0.)' },
  { name: 'int32 ops', inputs: [i32([-7, 7, 0, -2147483648])], js: (x) => [x.abs(), x.neg(), x.sign(), x.square()], py: '(torch.abs(x0), torch.neg(x0), torch.sign(x0), torch.square(x0))' },
  { name: 'div by zero and signed zeros', inputs: [f32([1, -1, 0, N, 1]), f32([0, 0, 0, 1, -0])], js: (x, y) => x.div(y), py: 'x0 / x1' },
  { name: 'int32 div gives float32', inputs: [i32([7, -7, 1, 0]), i32([2, 2, 3, 5])], js: (x, y) => x.div(y), py: 'x0 / x1' },
  { name: "div roundingMode 'trunc' (float)", inputs: [f32([7, -7, 7.5, -7.5, 1]), f32([2, 2, -2, 2, 0])], js: (x, y) => x.div(y, { roundingMode: 'trunc' }), py: "torch.div(x0, x1, rounding_mode='trunc')" },
  { name: "div roundingMode 'floor' (float)", inputs: [f32([7, -7, 7.5, -7.5, 1, 1, -0.0]), f32([2, 2, -2, 2, 0.1, 0, 3])], js: (x, y) => x.div(y, { roundingMode: 'floor' }), py: "torch.div(x0, x1, rounding_mode='floor')" },
  { name: "div roundingMode 'trunc' (int32)", inputs: [i32([7, -7, 7, -7, INT_MIN, 2000000001]), i32([2, 2, -2, -2, 1, 3])], js: (x, y) => x.div(y, { roundingMode: 'trunc' }), py: "torch.div(x0, x1, rounding_mode='trunc')" },
  { name: "div roundingMode 'floor' (int32)", inputs: [i32([7, -7, 7, -7, 6, -6, 2000000001]), i32([2, 2, -2, -2, 3, 3, -3])], js: (x, y) => x.div(y, { roundingMode: 'floor' }), py: "torch.div(x0, x1, rounding_mode='floor')" },
  { name: "div roundingMode 'trunc' of int32 by zero is an error", inputs: [i32([7, 1]), i32([2, 0])], js: (x, y) => x.div(y, { roundingMode: 'trunc' }), py: "torch.div(x0, x1, rounding_mode='trunc')" },
  { name: "div roundingMode 'floor' of int32 by zero is an error", inputs: [i32([7, 1]), i32([0, 1])], js: (x, y) => x.div(y, { roundingMode: 'floor' }), py: "torch.div(x0, x1, rounding_mode='floor')" },
  { name: 'int32 INT_MIN divided by -1 wraps', inputs: [i32([INT_MIN, INT_MIN]), i32([-1, 1])], js: (x, y) => [x.div(y, { roundingMode: 'trunc' }), x.fmod(y)], py: "(torch.div(x0.long(), x1.long(), rounding_mode='trunc').to(torch.int32), torch.fmod(x0, x1))" }, // PyTorch's own int32 kernel dies of SIGFPE here
  { name: 'div roundingMode with a JS scalar', inputs: [f32([7, -7, 7.5]), i32([7, -7, 8])], js: (x, i) => [x.div(2, { roundingMode: 'floor' }), i.div(-2, { roundingMode: 'trunc' }), i.div(2.5, { roundingMode: 'floor' })], py: "(torch.div(x0, 2, rounding_mode='floor'), torch.div(x1, -2, rounding_mode='trunc'), torch.div(x1, 2.5, rounding_mode='floor'))" },
  // a JS number first: wrapped as PyTorch wraps it (the dtype it takes beside the tensor)
  { name: 'div roundingMode of a JS number by int32', inputs: [i32([2, -3, 4, -7, 1])], js: (t) => [tpu.div(7, t, { roundingMode: 'floor' }), tpu.div(7, t, { roundingMode: 'trunc' }), tpu.div(-7, t, { roundingMode: 'floor' }), tpu.div(7.5, t, { roundingMode: 'floor' }), tpu.div(true, t, { roundingMode: 'floor' })], py: "(torch.div(7, x0, rounding_mode='floor'), torch.div(7, x0, rounding_mode='trunc'), torch.div(-7, x0, rounding_mode='floor'), torch.div(7.5, x0, rounding_mode='floor'), torch.div(True, x0, rounding_mode='floor'))" },
  { name: 'div roundingMode of a JS number by int64 and bool', inputs: [i64([2, -3, 4]), bool([true, true])], js: (n, b) => [tpu.div(-9, n, { roundingMode: 'floor' }), tpu.div(-9, n, { roundingMode: 'trunc' }), tpu.div(7, b, { roundingMode: 'floor' })], py: "(torch.div(-9, x0, rounding_mode='floor'), torch.div(-9, x0, rounding_mode='trunc'), torch.div(7, x1, rounding_mode='floor'))" },
  { name: 'div roundingMode of a JS number by float32 (zeros signed)', inputs: [f32([2, -3, 0.5, INF, -INF, 0, -0, N])], js: (t) => [tpu.div(7, t, { roundingMode: 'floor' }), tpu.div(-7.5, t, { roundingMode: 'trunc' }), tpu.div(0, t, { roundingMode: 'floor' }), tpu.div(-0, t, { roundingMode: 'trunc' })], py: "(torch.div(7, x0, rounding_mode='floor'), torch.div(-7.5, x0, rounding_mode='trunc'), torch.div(0, x0, rounding_mode='floor'), torch.div(-0.0, x0, rounding_mode='trunc'))" },
  { name: 'div roundingMode of a JS number by bfloat16', inputs: [bf16([2, -3, 0.5, 0.3, -7])], js: (t) => [tpu.div(7.3, t, { roundingMode: 'floor' }), tpu.div(7.3, t, { roundingMode: 'trunc' })], py: "(torch.div(7.3, x0, rounding_mode='floor'), torch.div(7.3, x0, rounding_mode='trunc'))" },
  { name: 'div roundingMode of a JS number by an int32 zero is an error', inputs: [i32([2, 0])], js: (t) => tpu.div(7, t, { roundingMode: 'floor' }), py: "torch.div(7, x0, rounding_mode='floor')" },
  { name: 'remainder of a JS number', inputs: [i32([2, -3, 4, -7]), f32([2, -3, 0.5, -0.75])], js: (t, f) => [tpu.remainder(7, t), tpu.remainder(-7, t), tpu.remainder(7.5, t), tpu.remainder(7, f), tpu.remainder(-0, f)], py: '(torch.remainder(7, x0), torch.remainder(-7, x0), torch.remainder(7.5, x0), torch.remainder(7, x1), torch.remainder(-0.0, x1))' },
  { name: 'sub mul pow div of a JS number first', inputs: [i32([2, -3, 4]), f32([2, -3, 0.5])], js: (t, f) => [tpu.sub(1, t), tpu.sub(1.5, t), tpu.mul(2, t), tpu.pow(2, t), tpu.pow(2, f), tpu.pow(-8, f), tpu.div(7, t), tpu.add(1, f)], py: '(torch.sub(1, x0), torch.sub(1.5, x0), torch.mul(2, x0), torch.pow(2, x0), torch.pow(2, x1), torch.pow(-8, x1), torch.div(7, x0), torch.add(1, x1))' },
  // PyTorch takes tensors only here: a clear error naming the argument
  { name: 'dot of a JS number is an error', inputs: [f32([1, 2])], js: (t) => tpu.dot(2 as never, t), py: 'torch.dot(2, x0)' },
  { name: 'clamp of a JS number is an error', inputs: [f32([1, 2])], js: (t) => tpu.clamp(2 as never, t), py: 'torch.clamp(2, x0)' },
  { name: 'logicalAnd of a JS number first is an error', inputs: [f32([1, 0])], js: (t) => tpu.logicalAnd(1 as never, t), py: 'torch.logical_and(1, x0)' },
  { name: 'fmod and remainder signs', inputs: [f32([5.5, -5.5, 5.5, -5.5, 3, N]), f32([2, 2, -2, -2, 0, 1])], js: (x, y) => [x.fmod(y), x.remainder(y)], py: '(torch.fmod(x0, x1), torch.remainder(x0, x1))' },
  { name: 'int32 fmod and remainder', inputs: [i32([7, -7, 7, -7]), i32([3, 3, -3, -3])], js: (x, y) => [x.fmod(y), x.remainder(y)], py: '(torch.fmod(x0, x1), torch.remainder(x0, x1))' },
  { name: 'int32 fmod by zero is an error', inputs: [i32([7, -7]), i32([3, 0])], js: (x, y) => x.fmod(y), py: 'torch.fmod(x0, x1)' },
  { name: 'int32 add wraps like PyTorch int32', inputs: [i32([INT_MAX, INT_MIN]), i32([1, -1])], js: (x, y) => x.add(y), py: 'x0 + x1' },
  { name: 'int32 mul wraps like PyTorch int32', inputs: [i32([65536, 46341]), i32([65536, 46341])], js: (x, y) => x.mul(y), py: 'x0 * x1' },
  { name: 'int32 pow overflow', inputs: [i32([2, 3, 46341, -2])], js: (x) => x.pow(31), py: 'x0 ** 31' },
  { name: 'int32 pow int32 exponent', inputs: [i32([2, 3, -2, 0]), i32([10, 5, 3, 0])], js: (x, y) => x.pow(y), py: 'x0 ** x1' },
  { name: 'float pow edge cases', inputs: [f32([0, -0, -8, N, 1, INF]), f32([-1, -1, 1 / 3, 0, N, -1])], js: (x, y) => x.pow(y), py: 'torch.pow(x0, x1)' },
  { name: '0-d float32 with a bf16 tensor stays bf16', inputs: [bf16([1.5, -2, 3.25]), f32(2)], js: (x, s) => x.mul(s), py: 'x0 * x1' },
  { name: 'bf16 with a 0-d int32 stays bf16', inputs: [bf16([1.5, -2, 3.25]), i32(3)], js: (x, s) => x.add(s), py: 'x0 + x1' },
  { name: 'int32 tensor with a 0-d float32 gives float32', inputs: [i32([1, 2, 3]), f32(0.5)], js: (x, s) => x.mul(s), py: 'x0 * x1' },
  { name: 'bf16 add rounds to bf16', inputs: [bf16([1, 256, 1 / 3]), bf16([0.00390625, 1, 1 / 3])], js: (x, y) => x.add(y), py: 'x0 + x1' },
  { name: 'bf16 gelu rounds once', inputs: [bf16([-3, -1.1, -0.3, 0.1, 0.7, 1.3, 2.9, 5.5])], js: (x) => tpu.nn.functional.gelu(x), py: 'F.gelu(x0)' },
  { name: 'bf16 gelu tanh rounds once', inputs: [bf16([-3, -1.1, -0.3, 0.1, 0.7, 1.3, 2.9, 5.5])], js: (x) => tpu.nn.functional.gelu(x, { approximate: 'tanh' }), py: "F.gelu(x0, approximate='tanh')" },
  { name: 'bf16 silu rounds once', inputs: [bf16([-3, -1.1, -0.3, 0.1, 0.7, 1.3, 2.9, 5.5])], js: (x) => tpu.nn.functional.silu(x), py: 'F.silu(x0)' },
  { name: 'bf16 sigmoid and tanh', inputs: [bf16([-3, -1.1, -0.3, 0.1, 0.7, 1.3, 2.9, 5.5])], js: (x) => [x.sigmoid(), x.tanh()], py: '(torch.sigmoid(x0), torch.tanh(x0))' },
  { name: 'bf16 lerp', inputs: [bf16([1, 2, 3]), bf16([3.3, -7.1, 100])], js: (x, y) => x.lerp(y, 0.3), py: 'torch.lerp(x0, x1, 0.3)' },
  { name: 'sin and cos of large arguments', inputs: [f32([1e4, -1e4, 12345.678, 1e6, 3.14159265, N, INF])], js: (x) => [x.sin(), x.cos()], py: '(torch.sin(x0), torch.cos(x0))', atol: 1e-5 },
  { name: 'erf saturates', inputs: [f32([-6, -3, -0.5, 0, 1e-8, 0.5, 3, 6, N, INF])], js: (x) => x.erf(), py: 'torch.erf(x0)' },
  // atol 0: a tiny value must come out tiny, not 0 (the default atol would take 2e-9 for 0)
  { name: 'sigmoid of large negatives keeps tiny values', inputs: [f32([-100, -50, -20, -88, -104, 20, 50]), bf16([-74, -20, -90])], js: (x, b) => [x.sigmoid(), b.sigmoid()], py: '(torch.sigmoid(x0), torch.sigmoid(x1))', atol: 0, rtol: 1e-5 },
  { name: 'reciprocal and square at the limits', inputs: [f32([0, -0, 1e-40, 2e19, -2e19, INF])], js: (x) => [x.reciprocal(), x.square()], py: '(torch.reciprocal(x0), torch.square(x0))' },
  { name: 'bf16 exp, log and sqrt', inputs: [bf16([0.5, 1.5, 3.25, 10, 88])], js: (x) => [x.exp(), x.log(), x.sqrt(), x.rsqrt()], py: '(torch.exp(x0), torch.log(x0), torch.sqrt(x0), torch.rsqrt(x0))' },
  { name: 'int32 abs and neg of INT_MIN wrap', inputs: [i32([INT_MIN, -5, 7])], js: (x) => [x.abs(), x.neg()], py: '(torch.abs(x0), torch.neg(x0))' },
  { name: 'int32 relu and sign', inputs: [i32([INT_MIN, -5, 0, 7])], js: (x) => [x.relu(), x.sign()], py: '(torch.relu(x0), torch.sign(x0))' },
  { name: 'isnan isinf isfinite', inputs: [SPECIAL], js: (x) => [x.isnan(), x.isinf(), x.isfinite()], py: '(torch.isnan(x0), torch.isinf(x0), torch.isfinite(x0))' },
  { name: 'comparisons with NaN', inputs: [f32([N, 1, N]), f32([1, N, N])], js: (x, y) => [x.eq(y), x.ne(y), x.lt(y), x.ge(y)], py: '(x0 == x1, x0 != x1, x0 < x1, x0 >= x1)' },
  { name: 'where picks NaN through', inputs: [f32([N, 1, 2])], js: (x) => tpu.where(x.gt(1), x, x.mul(0)), py: 'torch.where(x0 > 1, x0, x0 * 0)' },
  { name: 'empty elementwise', inputs: [f32([]), f32([])], js: (x, y) => x.add(y).exp(), py: 'torch.exp(x0 + x1)' },
  { name: 'broadcast with an empty dim', inputs: [{ values: [], shape: [0, 3], dtype: 'float32' }, f32([1, 2, 3])], js: (x, y) => x.mul(y), py: 'x0 * x1' },
  { name: 'shape mismatch is an error', inputs: [f32([1, 2, 3]), f32([1, 2])], js: (x, y) => x.add(y), py: 'x0 + x1' },
];

torchTier('elementwise ops vs PyTorch', cases);
