// The sign of zero through where, maskedFill, maximum, minimum, clamp and the ops built on
// them, and through in-place ops on views (the write reaching the base), against PyTorch in
// every mode and under tpu.compile: -0 picked from either operand, ties of -0 and 0 in both
// orders, broadcasting, 0-d operands, NaN and inf.
// Tensors stay under 16 elements: PyTorch's own maximum/minimum return the second operand of
// a tie in their vectorized loop (16 float32 lanes and more here), the first in the scalar
// loop that shorter tensors take; the runtime gives the first at every length.
import { tpu } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const N = NaN;
const INF = Infinity;
const T = true;
const F = false;
const A = f32([-0, 0, -0, 0, -0, 0, -0, N, 1, N, INF, -INF, -0]);
const B = f32([0, -0, -0, 0, N, 2, -1, -0, 1, N, INF, -INF, -INF]);
const C = bool([T, F, T, F, T, F, T, F]);
const X = f32([-0, 1, 0, 2, N, N, INF, -0]);
const Y = f32([5, -0, 5, 0, 1, N, 0, -INF]);
const Z = f32([[-0, 0], [-0, 5]]);
const W = f32([[1, 2], [3, 4]]);
const EXTREMA = '(torch.maximum(x0, x1), torch.minimum(x0, x1), torch.maximum(x1, x0), torch.minimum(x1, x0))';

const cases: TorchCase[] = [
  // maximum and minimum: a tie keeps the first operand, NaN from either side
  { name: 'maximum and minimum of zero ties, NaN and inf, both orders', inputs: [A, B], js: (a, b) => [a.maximum(b), a.minimum(b), b.maximum(a), b.minimum(a)], py: EXTREMA },
  { name: 'maximum and minimum broadcast [3,1] with [4]', inputs: [f32([[-0], [0], [N]]), f32([0, -0, -1, 1])], js: (a, b) => [a.maximum(b), a.minimum(b), b.maximum(a), b.minimum(a)], py: EXTREMA },
  { name: 'maximum and minimum of a 0-d -0 with a vector', inputs: [f32(-0), f32([0, -0, N, -1])], js: (a, b) => [a.maximum(b), a.minimum(b), b.maximum(a), b.minimum(a)], py: EXTREMA },
  { name: 'maximum and minimum of 0-d -0 and 0', inputs: [f32(-0), f32(0)], js: (a, b) => [a.maximum(b), a.minimum(b), b.maximum(a), b.minimum(a)], py: EXTREMA },
  { name: 'maximum and minimum with the literals 0 and -0', inputs: [A], js: (a) => [a.maximum(0), a.maximum(-0), a.minimum(0), a.minimum(-0)], py: '(torch.maximum(x0, torch.tensor(0.)), torch.maximum(x0, torch.tensor(-0.)), torch.minimum(x0, torch.tensor(0.)), torch.minimum(x0, torch.tensor(-0.)))' },
  { name: 'max(other) and min(other) of zero ties', inputs: [A, B], js: (a, b) => [a.max(b), b.min(a)], py: '(torch.max(x0, x1), torch.min(x1, x0))' },
  { name: 'bf16 maximum and minimum of zero ties', inputs: [bf16([-0, 0, -0, 0, N, 1]), bf16([0, -0, -0, 0, 1, N])], js: (a, b) => [a.maximum(b), a.minimum(b), b.maximum(a), b.minimum(a)], py: EXTREMA },
  { name: 'int32 maximum and minimum keep their values', inputs: [i32([3, -2, 0, 7]), i32([3, 5, -1, -7])], js: (a, b) => [a.maximum(b), a.minimum(b)], py: '(torch.maximum(x0, x1), torch.minimum(x0, x1))' },
  // where: -0 from either operand, whatever shape the condition and operands have
  { name: 'where picks -0 from x and from y', inputs: [C, X, Y], js: (c, x, y) => [tpu.where(c, x, y), tpu.where(c, y, x)], py: '(torch.where(x0, x1, x2), torch.where(x0, x2, x1))' },
  { name: 'where of a negated condition', inputs: [C, X, Y], js: (c, x, y) => [tpu.where(c.logicalNot(), y, x), tpu.where(c.logicalNot(), x, y)], py: '(torch.where(~x0, x2, x1), torch.where(~x0, x1, x2))' },
  { name: 'where broadcast: condition [3,1], x [1,4], y 0-d', inputs: [bool([[T], [F], [T]]), f32([[-0, 0, N, -1]]), f32(-0)], js: (c, x, y) => [tpu.where(c, x, y), tpu.where(c, y, x)], py: '(torch.where(x0, x1, x2), torch.where(x0, x2, x1))' },
  { name: 'where with a 0-d condition and 0-d y', inputs: [bool(T), bool(F), f32([-0, 0, N, 2]), f32(-0)], js: (t, f, x, y) => [tpu.where(t, x, y), tpu.where(f, x, y), tpu.where(t, y, x), tpu.where(f, y, x)], py: '(torch.where(x0, x2, x3), torch.where(x1, x2, x3), torch.where(x0, x3, x2), torch.where(x1, x3, x2))' },
  { name: 'where of 0-d operands', inputs: [bool(T), bool(F), f32(-0), f32(0)], js: (t, f, a, b) => [tpu.where(t, a, b), tpu.where(f, b, a), tpu.where(t, b, a), tpu.where(f, a, b)], py: '(torch.where(x0, x2, x3), torch.where(x1, x3, x2), torch.where(x0, x3, x2), torch.where(x1, x2, x3))' },
  { name: 'where with the literal -0 on either side', inputs: [C, Y], js: (c, y) => [tpu.where(c, -0, y), tpu.where(c, y, -0)], py: '(torch.where(x0, -0., x1), torch.where(x0, x1, -0.))' },
  { name: 'x.where(condition, other) keeps -0', inputs: [X, C, Y], js: (x, c, y) => x.where(c, y), py: 'x0.where(x1, x2)' },
  { name: 'bf16 where picks -0 from both sides', inputs: [C, bf16([-0, 1, 0, 2, N, N, INF, -0]), bf16([5, -0, 5, 0, 1, N, 0, -INF])], js: (c, x, y) => [tpu.where(c, x, y), tpu.where(c, y, x)], py: '(torch.where(x0, x1, x2), torch.where(x0, x2, x1))' },
  { name: 'where promotes bf16 and float32 operands', inputs: [C, bf16([-0, 1, 0, 2, N, N, INF, -0]), Y], js: (c, x, y) => [tpu.where(c, x, y), tpu.where(c, y, x)], py: '(torch.where(x0, x1, x2), torch.where(x0, x2, x1))' },
  { name: 'int32 where keeps its values', inputs: [C, i32([0, 1, -2, 3, 4, 5, 6, 7]), i32([9, 0, 9, -9, 9, 9, 9, 9])], js: (c, x, y) => tpu.where(c, x, y), py: 'torch.where(x0, x1, x2)' },
  // maskedFill: where(mask, value, x)
  { name: 'maskedFill with -0 and 0 over zeros', inputs: [f32([1, -0, 0, N, -0, 2]), bool([T, F, T, T, T, F])], js: (x, m) => [x.maskedFill(m, -0), x.maskedFill(m, 0)], py: '(x0.masked_fill(x1, -0.), x0.masked_fill(x1, 0.))' },
  { name: 'maskedFill with -0 through a broadcast mask', inputs: [f32([[1, -0, 3], [-0, 0, N]]), bool([[T], [F]])], js: (x, m) => x.maskedFill(m, -0), py: 'x0.masked_fill(x1, -0.)' },
  { name: 'bf16 maskedFill with -0', inputs: [bf16([1, -0, 0, 2]), bool([T, F, T, F])], js: (x, m) => x.maskedFill(m, -0), py: 'x0.masked_fill(x1, -0.)' },
  // clamp: maximum, minimum and where together; a bound equal to x keeps x
  { name: 'clamp of zeros at zero bounds', inputs: [f32([-0, 0, -0, 0, N, -1, 1, INF])], js: (x) => [x.clamp(0), x.clamp(-0), x.clamp(null, 0), x.clamp(null, -0), x.clamp(-0, 0), x.clamp(0, 0)], py: '(x0.clamp(0.), x0.clamp(-0.), x0.clamp(max=0.), x0.clamp(max=-0.), x0.clamp(-0., 0.), x0.clamp(0., 0.))' },
  { name: 'clamp with tensor bounds of -0 and 0', inputs: [f32([-0, 0, -0, 0, N, -1, 1, 0]), f32([0, -0, -0, 0, 0, -0, N, -1]), f32([1, 1, 0, -0, 1, 0, 2, N])], js: (x, lo, hi) => [x.clamp(lo, hi), x.clamp(lo), x.clamp(null, hi)], py: '(x0.clamp(x1, x2), x0.clamp(x1), x0.clamp(max=x2))' },
  { name: 'clamp of zeros while recording gradients, and its gradient', inputs: [f32([-0, 0, -0, 0, N, -1, 1, 0.5])], js: (x) => { x.requiresGrad_(); const y = x.clamp(0, 0.5).mul(1); y.sum().backward(); return [y, x.grad!]; }, py: '(lambda x: (lambda y: (y.sum().backward(), (y.detach(), x.grad))[1])(x.clamp(0., 0.5).mul(1)))(x0.clone().requires_grad_())' },
  { name: '0-d clamp of -0', inputs: [f32(-0), f32(0)], js: (x, b) => [x.clamp(b), x.clamp(null, b), b.clamp(x), b.clamp(null, x)], py: '(x0.clamp(x1), x0.clamp(max=x1), x1.clamp(x0), x1.clamp(max=x0))' },
  // ops built on where
  { name: 'floor division and remainder of zeros', inputs: [f32([-0, 0, -0, 0, -1, 1, 5, -5]), f32([1, 1, -1, -1, 3, -3, INF, INF])], js: (a, b) => [a.div(b, { roundingMode: 'floor' }), a.remainder(b)], py: "(torch.div(x0, x1, rounding_mode='floor'), torch.remainder(x0, x1))" },
  { name: 'lerp of -0 with a tensor weight', inputs: [f32([-0, -0, 1, -0]), f32([-0, 0, 1, -0]), f32([0.25, 0.75, 0.5, 1])], js: (s, e, w) => s.lerp(e, w), py: 'torch.lerp(x0, x1, x2)' },
  // in-place ops through a view: the written values reach the base with their signs of zero
  { name: 'clamp_ through reshape and view keeps -0 in the base', inputs: [Z, Z], js: (a, b) => { a.reshape([4]).clamp_(-0, 0); b.view(4).clamp_(0, 0); return [a, b]; }, py: 'x0.reshape([4]).clamp_(-0., 0.)\nx1.view(4).clamp_(0., 0.)\nresult = (x0, x1)' },
  { name: 'mul_ add_ and fill_ through transpose, narrow, a row and reshape keep -0', inputs: [Z, Z, W, W, W], js: (a, b, c, d, e) => { a.T.mul_(1); b.at(0).add_(-0); c.T.mul_(-0); d.narrow(1, 0, 1).mul_(-0); e.reshape([4]).fill_(-0); return [a, b, c, d, e]; }, py: 'x0.T.mul_(1)\nx1[0].add_(-0.)\nx2.T.mul_(-0.)\nx3.narrow(1, 0, 1).mul_(-0.)\nx4.reshape([4]).fill_(-0.)\nresult = (x0, x1, x2, x3, x4)' },
  { name: 'copy_ of -0 through a view, and a bf16 clamp_ through reshape', inputs: [W, bf16([[-0, 2], [0, -3]])], js: (a, h) => { a.reshape([4]).copy_(tpu.tensor([-0, 0, -0, 1])); h.reshape([4]).clamp_(-0, 0); return [a, h]; }, py: 'x0.reshape([4]).copy_(torch.tensor([-0., 0., -0., 1.]))\nx1.reshape([4]).clamp_(-0., 0.)\nresult = (x0, x1)' },
];

torchTier('the sign of zero through where, maximum, minimum, clamp and writes through views follows PyTorch', cases, { compile: true });
