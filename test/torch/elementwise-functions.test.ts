// tan asin acos atan sinh cosh atan2 log2 log10 exp2 logit hypot xlogy copysign fmax fmin
// logaddexp nanToNum isposinf isneginf signbit frac clip absolute sgn against PyTorch 2.13:
// NaN, ±inf, -0, overflow, integer and bool inputs (their float32 results), bfloat16 (computed
// in float32, rounded once), JS scalars, errors, and gradients.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const EDGES = f32([0, -0, 0.5, -0.5, 1, -1, 1.5, 3, -3, 10, 80, 89, 90, 1e-20, -1e-8, 1.5707964, 100, 1e30, INF, -INF, N]);
const BF_EDGES = bf16([0, -0, 0.3, -0.7, 1, -1, 1.5, 3, 10, 80, 100, INF, -INF, N]);
const UNIT = f32([0, -0, 0.5, -0.25, 1, -1, 0.999, 1.0001, -2, 1e-30, INF, N]);
/** The gradients of Σ w·f(x, y) for both inputs, on both sides. */
const grads2 = (name: string, inputs: TorchCase['inputs'], js: (x: Tensor, y: Tensor) => Tensor, py: string): TorchCase => ({
  name,
  inputs,
  js: (x, y) => { x!.requiresGrad_(); y!.requiresGrad_(); js(x!, y!).mul(tpu.arange(1, x!.numel() + 1).to('float32')).sum().backward(); return [x!.grad!, y!.grad!]; },
  py: `x0.requires_grad_()\nx1.requires_grad_()\n((${py}) * torch.arange(1, x0.numel() + 1).float()).sum().backward()\nresult = (x0.grad, x1.grad)`,
});

const cases: TorchCase[] = [
  // trigonometric and hyperbolic primitives
  { name: 'tan asin acos atan sinh cosh at the edges', inputs: [EDGES], js: (x) => [x.tan(), x.asin(), x.acos(), x.atan(), x.sinh(), x.cosh()], py: '(x0.tan(), x0.asin(), x0.acos(), x0.atan(), x0.sinh(), x0.cosh())' },
  { name: 'tan asin acos atan sinh cosh of bf16', inputs: [BF_EDGES], js: (x) => [tpu.tan(x), tpu.asin(x), tpu.acos(x), tpu.atan(x), tpu.sinh(x), tpu.cosh(x)], py: '(torch.tan(x0), torch.asin(x0), torch.acos(x0), torch.atan(x0), torch.sinh(x0), torch.cosh(x0))' },
  { name: 'trigonometry of int32, int64 and bool gives float32', inputs: [i32([0, 1, -1, 2]), i64([0, 1, -1, 2]), bool([true, false, true, false])], js: (a, b, c) => [a.tan(), b.asin(), c.acos(), a.atan(), b.sinh(), c.cosh()], py: '(x0.tan(), x1.asin(), x2.acos(), x0.atan(), x1.sinh(), x2.cosh())' },
  {
    name: 'atan2 signed zeros and infinities',
    inputs: [f32([0, -0, 0, -0, 1, -1, INF, -INF, INF, 1, -1, 3, 1e-30, 2, N, 1e30, -0]), f32([0, 0, -0, -0, -INF, -INF, INF, -INF, 1, 1e-30, 0, -7, -2, -1e30, 1, 1e-30, 5])],
    js: (y, x) => [y.atan2(x), tpu.atan2(y, x)], py: '(x0.atan2(x1), torch.atan2(x0, x1))',
  },
  { name: 'atan2 of ints, bf16, a number and broadcasting', inputs: [i32([1, -2, 0]), bf16([[0.5], [-3]]), f32([1, -1, 0])], js: (a, b, c) => [a.atan2(a.flip(0)), b.atan2(b), c.atan2(-0), c.atan2(b.to('float32'))], py: '(x0.atan2(x0.flip(0)), x1.atan2(x1), x2.atan2(torch.tensor(-0.)), x2.atan2(x1.float()))' },
  // logarithms and powers of 2 and 10
  { name: 'log2 and log10 are exact at powers', inputs: [f32([1, 2, 8, 1024, 2 ** -126, 2 ** -149, 2 ** 127, 0.5, 1000, 1e-3, 1e10, 0, -0, -1, INF, N, 3, 7e-5])], js: (x) => [x.log2(), x.log10()], py: '(x0.log2(), x0.log10())' },
  { name: 'log2 and log10 of ints and bf16', inputs: [i64([1, 8, 100, 0]), bf16([8, 1000, 0.3, -1])], js: (a, b) => [tpu.log2(a), tpu.log10(a), b.log2(), b.log10()], py: '(torch.log2(x0), torch.log10(x0), x1.log2(), x1.log10())' },
  { name: 'exp2 at the edges, of ints and bf16', inputs: [f32([3, -1, 0.5, -0, -149, -150, 127, 128, INF, -INF, N]), i32([0, 3, -2]), bf16([3, 0.3, -1])], js: (x, i, b) => [x.exp2(), tpu.exp2(i), b.exp2()], py: '(x0.exp2(), torch.exp2(x1), x2.exp2())' },
  { name: 'pow of a number by a tensor: value and gradient', inputs: [f32([1, -2, 0.5, 0])], js: (x) => { x.requiresGrad_(); const y = tpu.pow(2, x); y.sum().backward(); return [y, x.grad!]; }, py: 'x = x0.requires_grad_()\ny = torch.pow(2, x)\ny.sum().backward()\nresult = (y, x.grad)' },
  // logit
  { name: 'logit at the edges', inputs: [UNIT], js: (x) => x.logit(), py: 'x0.logit()' },
  { name: 'logit with eps, positional and in the options', inputs: [UNIT], js: (x) => [x.logit(0.2), tpu.logit(x, { eps: 1e-6 }), x.logit({ eps: null })], py: '(x0.logit(0.2), torch.logit(x0, eps=1e-6), x0.logit(eps=None))' },
  { name: 'logit of ints and bf16', inputs: [i32([0, 1, 2]), bf16([0.1, 0.5, 0.9, 0.3])], js: (i, b) => [i.logit(), b.logit(), b.logit(0.2)], py: '(x0.logit(), x1.logit(), x1.logit(0.2))' },
  // hypot
  { name: 'hypot without overflow or underflow', inputs: [f32([3, 5, 3e30, 3e-30, 3e38, 1e-40, 0, -0, -3, 1e20, 1]), f32([4, 12, 4e30, 4e-30, 3e38, 1e-40, 0, -0, 4, 1, 1e-20])], js: (x, y) => [x.hypot(y), tpu.hypot(y, x)], py: '(x0.hypot(x1), torch.hypot(x1, x0))' },
  { name: 'hypot with inf and NaN', inputs: [f32([INF, N, -INF, N, INF, 2]), f32([N, INF, 1, 1, -INF, N])], js: (x, y) => x.hypot(y), py: 'x0.hypot(x1)' },
  { name: 'hypot of bf16 and a number', inputs: [bf16([3, 0.3, 1e30]), f32([1, 2])], js: (b, x) => [b.hypot(b.flip(0)), x.hypot(2)], py: '(x0.hypot(x0.flip(0)), x1.hypot(torch.tensor(2.)))' },
  { name: 'hypot of ints is an error', inputs: [i32([3]), i32([4])], js: (x, y) => x.hypot(y), py: 'x0.hypot(x1)' },
  // xlogy
  { name: 'xlogy where x is 0', inputs: [f32([0, 0, 0, 0, -0, 1, 2, 1, N, 0, 3]), f32([0, N, -1, INF, 0, 0, -1, INF, 1, 5, 0.5])], js: (x, y) => [x.xlogy(y), tpu.xlogy(x, y)], py: '(x0.xlogy(x1), torch.xlogy(x0, x1))' },
  { name: 'xlogy with numbers on either side', inputs: [f32([0, 1, 2, N])], js: (x) => [tpu.xlogy(2, x), x.xlogy(3), tpu.xlogy(0, x)], py: '(torch.xlogy(2, x0), x0.xlogy(3), torch.xlogy(0, x0))' },
  { name: 'xlogy of ints, bools and bf16', inputs: [i64([0, 2, 3]), bool([false, true, true]), bf16([2.5, 0, 1.3])], js: (i, b, h) => [i.xlogy(i), b.xlogy(b), h.xlogy(h.add(1))], py: '(x0.xlogy(x0), x1.xlogy(x1), x2.xlogy(x2 + 1))' },
  // copysign signbit
  { name: 'copysign takes the sign of -0 and keeps NaN', inputs: [f32([1, -2, 3, 0, -0, N, INF, 4]), f32([-1, 1, -0, -5, 0, -1, -INF, N])], js: (x, y) => [x.copysign(y), tpu.copysign(x, y)], py: '(x0.copysign(x1), torch.copysign(x0, x1))' },
  { name: 'copysign with numbers, ints and bf16', inputs: [f32([1, -2, 0]), i32([1, -2, 3]), bf16([1.5, -2, 0])], js: (x, i, b) => [x.copysign(-0), x.copysign(2), x.copysign(-3), i.copysign(i.neg()), b.copysign(-1)], py: '(x0.copysign(-0.), x0.copysign(2), x0.copysign(-3), x1.copysign(-x1), x2.copysign(-1))' },
  { name: 'signbit of floats, ints, bools and bf16', inputs: [f32([-1, -0, 0, 2, -INF, INF, N, -1e-45]), i32([-3, 0, 5]), bool([true, false]), bf16([-0, 0.5, -2])], js: (x, i, b, h) => [x.signbit(), tpu.signbit(i), b.signbit(), h.signbit()], py: '(x0.signbit(), torch.signbit(x1), x2.signbit(), x3.signbit())' },
  // fmax fmin
  { name: 'fmax and fmin ignore one NaN and keep the first of a tie', inputs: [f32([1, N, N, 1, -0, 0, 2, -INF]), f32([2, 3, N, N, 0, -0, 2, INF])], js: (x, y) => [x.fmax(y), x.fmin(y), tpu.fmax(y, x), tpu.fmin(y, x)], py: '(x0.fmax(x1), x0.fmin(x1), torch.fmax(x1, x0), torch.fmin(x1, x0))' },
  { name: 'fmax and fmin of ints, bools, bf16 and broadcasting', inputs: [i32([1, 5, -3]), bool([true, false, false]), bf16([[1.5], [N]]), f32([0, 2, N])], js: (i, b, h, x) => [i.fmax(i.flip(0)), b.fmin(b.flip(0)), h.fmax(x), x.fmin(h)], py: '(x0.fmax(x0.flip(0)), x1.fmin(x1.flip(0)), x2.fmax(x3), x3.fmin(x2))' },
  // logaddexp
  { name: 'logaddexp at the edges', inputs: [f32([0, 1000, -1000, -INF, INF, INF, -INF, N, 1, -0, 88, 3e38]), f32([0, 1000, -1000, -INF, INF, -INF, 5, 1, N, 0, 89, 3e38])], js: (x, y) => [x.logaddexp(y), tpu.logaddexp(y, x)], py: '(x0.logaddexp(x1), torch.logaddexp(x1, x0))' },
  { name: 'logaddexp of bf16 and with a number', inputs: [bf16([0.1, 3, -2, 100]), f32([0, -1])], js: (b, x) => [b.logaddexp(b.flip(0)), x.logaddexp(2)], py: '(x0.logaddexp(x0.flip(0)), x1.logaddexp(torch.tensor(2.)))' },
  { name: 'logaddexp of ints is an error', inputs: [i64([1, 2])], js: (x) => x.logaddexp(x), py: 'x0.logaddexp(x0)' },
  // nanToNum isposinf isneginf
  { name: 'nanToNum defaults of float32 and bf16', inputs: [f32([N, INF, -INF, -0, 1]), bf16([N, INF, -INF, 2])], js: (x, b) => [x.nanToNum(), tpu.nanToNum(b)], py: '(x0.nan_to_num(), torch.nan_to_num(x1))' },
  { name: 'nanToNum with values, positional and in the options', inputs: [f32([N, INF, -INF, -0, 1]), bf16([N, INF, -INF])], js: (x, b) => [x.nanToNum(1.5, 2, -2), x.nanToNum({ posinf: 9 }), x.nanToNum(0, null, -7), b.nanToNum({ nan: 0.1, neginf: -1e30 })], py: '(x0.nan_to_num(1.5, 2, -2), x0.nan_to_num(posinf=9), x0.nan_to_num(0, None, -7), x1.nan_to_num(nan=0.1, neginf=-1e30))' },
  { name: 'nanToNum of ints and bools is a copy', inputs: [i32([1, -2]), bool([true, false])], js: (i, b) => [i.nanToNum(), b.nanToNum()], py: '(x0.nan_to_num(), x1.nan_to_num())' },
  { name: 'isposinf and isneginf of floats, ints, bools and bf16', inputs: [f32([INF, -INF, N, 3e38, -0]), i64([1, -1]), bool([true]), bf16([INF, -INF, 1])], js: (x, i, b, h) => [x.isposinf(), x.isneginf(), tpu.isposinf(i), tpu.isneginf(b), h.isposinf(), h.isneginf()], py: '(x0.isposinf(), x0.isneginf(), torch.isposinf(x1), torch.isneginf(x2), x3.isposinf(), x3.isneginf())' },
  // frac and aliases
  { name: 'frac at the edges and of bf16', inputs: [f32([2.5, -1.25, -0, 0, -0.5, INF, -INF, N, 1e10, 3e-30]), bf16([2.5, -7.75, 300.5])], js: (x, b) => [x.frac(), tpu.frac(b)], py: '(x0.frac(), torch.frac(x1))' },
  { name: 'frac of ints is an error', inputs: [i32([1, 2])], js: (x) => x.frac(), py: 'x0.frac()' },
  { name: 'clip absolute and sgn', inputs: [f32([-2, 0.5, 3, N, -0]), i32([-3, 0, 4])], js: (x, i) => [x.clip(0, 1), tpu.clip(x, { min: -1 }), x.absolute(), tpu.absolute(i), x.sgn(), tpu.sgn(i)], py: '(x0.clip(0, 1), torch.clip(x0, min=-1), x0.absolute(), torch.absolute(x1), x0.sgn(), torch.sgn(x1))' },
  // gradients
  weightedGrad('tan asin acos atan sinh cosh gradients', f32([0.3, -0.6, 0, 0.9]), (x) => x.tan().add(x.asin().mul(2)).add(x.acos().mul(3)).add(x.atan().mul(4)).add(x.sinh().mul(5)).add(x.cosh().mul(6)), 'x.tan() + x.asin() * 2 + x.acos() * 3 + x.atan() * 4 + x.sinh() * 5 + x.cosh() * 6', [1, -2, 3, 0.5]),
  grads2('atan2 gradients', [f32([1, -2, 0.5, 3]), f32([2, -1, -4, 0.5])], (y, x) => y.atan2(x), 'x0.atan2(x1)'),
  weightedGrad('log2 log10 exp2 gradients', f32([0.5, 2, 7, 1e-3]), (x) => x.log2().add(x.log10().mul(2)).add(x.exp2().mul(3)), 'x.log2() + x.log10() * 2 + x.exp2() * 3', [1, -2, 3, 0.5]),
  weightedGrad('logit gradient at 0, 1 and inside', f32([0, 1, 0.5, 0.25, N, 2]), (x) => x.logit(), 'x.logit()', [1, 2, 3, 4, 5, 6]),
  weightedGrad('logit gradient with eps is 0 outside and NaN at NaN', f32([0, 1, 0.5, 0.25, N, 0.2]), (x) => x.logit(0.2), 'x.logit(0.2)', [1, 2, 3, 4, 5, 6]),
  grads2('hypot gradients', [f32([3, -5, 3e30, 1e-30, 0]), f32([4, 12, -4e30, 2e-30, 2])], (x, y) => x.hypot(y), 'x0.hypot(x1)'),
  grads2('xlogy gradients', [f32([0, 2, -1, 0, 3]), f32([2, 0.5, 3, INF, 1])], (x, y) => x.xlogy(y), 'x0.xlogy(x1)'),
  grads2('logaddexp gradients, ties included', [f32([0, 1, -3, 2, 1000]), f32([0, -1, 4, 2, 999])], (x, y) => x.logaddexp(y), 'x0.logaddexp(x1)'),
  { ...weightedGrad('copysign gradient', f32([1, -2, 0, 3, -0.5]), (x) => x.copysign(tpu.tensor([-1, -1, -1, 2, -0])), 'x.copysign(torch.tensor([-1., -1, -1, 2, -0.]))', [1, 2, 3, 4, 5]), signedZeros: false },
  grads2('fmax gradients: ties and a NaN other to x', [f32([1, 2, N, 4, 5]), f32([1, 3, 2, N, 0])], (x, y) => x.fmax(y), 'x0.fmax(x1)'),
  grads2('fmin gradients', [f32([1, 2, N, 4, 5]), f32([1, 3, 2, N, 0])], (x, y) => x.fmin(y), 'x0.fmin(x1)'),
  weightedGrad('nanToNum and frac gradients', f32([N, INF, -INF, 1.5, -2.25]), (x) => x.nanToNum().add(x.frac().mul(2)), 'x.nan_to_num() + x.frac() * 2', [1, 2, 3, 4, 5]),
];

torchTier('float functions follow PyTorch', cases, { compile: true });
