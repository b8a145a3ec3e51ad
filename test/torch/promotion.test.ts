// Type promotion against PyTorch: every pair of dtypes, as tensors, with a 0-d operand, and
// with JS scalars, through the binary ops and where.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, type InputSpec, torchTier, type TorchCase } from './torch-tier.js';

type Kind = 'float32' | 'bfloat16' | 'int32' | 'int64' | 'bool';
const KINDS: Kind[] = ['float32', 'bfloat16', 'int32', 'int64', 'bool'];
const vector: Record<Kind, InputSpec> = { float32: f32([1.5, -2, 3]), bfloat16: bf16([0.5, 4, -1.25]), int32: i32([3, -2, 5]), int64: i64([4, -3, 6]), bool: bool([true, false, true]) };
const scalar: Record<Kind, InputSpec> = { float32: f32(2.5), bfloat16: bf16(2), int32: i32(2), int64: i64(3), bool: bool(true) };
const OPS: [string, (a: Tensor, b: Tensor) => Tensor, string][] = [
  ['add', (a, b) => a.add(b), 'x0 + x1'],
  ['mul', (a, b) => a.mul(b), 'x0 * x1'],
  ['div', (a, b) => a.div(b), 'x0 / x1'],
  ['maximum', (a, b) => a.maximum(b), 'torch.maximum(x0, x1)'],
  ['where', (a, b) => tpu.where(tpu.tensor([true, false, true]), a, b), 'torch.where(torch.tensor([True, False, True]), x0, x1)'],
  ['lt', (a, b) => a.lt(b), 'x0 < x1'],
];

const cases: TorchCase[] = [];
for (const [op, js, py] of OPS) {
  for (const a of KINDS) {
    for (const b of KINDS) {
      cases.push({ name: `${op} ${a} tensor, ${b} tensor`, inputs: [vector[a], vector[b]], js, py });
      cases.push({ name: `${op} ${a} tensor, ${b} 0-d`, inputs: [vector[a], scalar[b]], js, py });
    }
  }
}
// JS numbers are weak scalars (PyTorch's Python scalars); 2.5 is a float, 2 an int
for (const a of KINDS) {
  cases.push({ name: `mul ${a} tensor by 2.5`, inputs: [vector[a]], js: (x) => x.mul(2.5), py: 'x0 * 2.5' });
  cases.push({ name: `mul ${a} tensor by 2`, inputs: [vector[a]], js: (x) => x.mul(2), py: 'x0 * 2' });
  cases.push({ name: `add true to ${a} tensor`, inputs: [vector[a]], js: (x) => x.add(true), py: 'x0 + True' });
}

torchTier('type promotion vs PyTorch', cases);

// The value a 0-d operand or a JS number keeps beside a bfloat16 tensor, compared exactly:
// PyTorch's CPU kernels round it to bfloat16 first (add, sub, comparisons, remainder, pow,
// clamp, the number-first torch.mul(0.1, x)), except mul and div, which read a second operand
// of one value whole in float32 and round only the result. 0.1, 0.3, 1/3 and 257 are not
// bfloat16 values, so each rule gives other numbers here.
const X = bf16(Array.from({ length: 64 }, (_, i) => (i % 2 ? 1 : -1) * (0.3 + i * 0.37)));
const Y = bf16(Array.from({ length: 64 }, (_, i) => 2.5 - i * 0.11));
const EXACT = { rtol: 0, atol: 0 };
const precision: TorchCase[] = [
  {
    name: 'bfloat16 times, over, plus and minus a 0-d float32 0.1, both ways',
    inputs: [X, f32(0.1)],
    js: (x, t) => [x.mul(t), t.mul(x), x.div(t), t.div(x), x.add(t), t.add(x), x.sub(t), t.sub(x)],
    py: '(x0 * x1, x1 * x0, x0 / x1, x1 / x0, x0 + x1, x1 + x0, x0 - x1, x1 - x0)',
  },
  {
    name: 'bfloat16 times, over, plus and minus the numbers 0.1 and 1/3',
    inputs: [X],
    js: (x) => [x.mul(0.1), x.div(0.1), x.add(0.1), x.sub(0.1), x.mul(1 / 3), x.add(1 / 3)],
    py: '(x0 * 0.1, x0 / 0.1, x0 + 0.1, x0 - 0.1, x0 * (1 / 3), x0 + (1 / 3))',
  },
  {
    name: 'tpu.add sub mul div with the number first, as torch.add sub mul div',
    inputs: [X],
    js: (x) => [tpu.add(0.1, x), tpu.sub(0.1, x), tpu.mul(0.1, x), tpu.div(0.1, x)],
    py: '(torch.add(0.1, x0), torch.sub(0.1, x0), torch.mul(0.1, x0), torch.div(0.1, x0))',
  },
  {
    name: 'bfloat16 with the integer 257: whole in mul and div, 256 in add',
    inputs: [X, i32(257), i32([257])],
    js: (x, n, v) => [x.mul(257), x.add(257), x.mul(n), x.div(n), x.add(n), x.mul(v)],
    py: '(x0 * 257, x0 + 257, x0 * x1, x0 / x1, x0 + x1, x0 * x2)',
  },
  {
    name: 'bfloat16 mul_ div_ add_ sub_ by a 0-d float32 and a number',
    inputs: [X, f32(0.1)],
    js: (x, t) => [x.clone().mul_(t), x.clone().div_(0.1), x.clone().add_(t), x.clone().sub_(0.1)],
    py: '(x0.clone().mul_(x1), x0.clone().div_(0.1), x0.clone().add_(x1), x0.clone().sub_(0.1))',
  },
  {
    name: 'bfloat16 compared with 0.3 as a number, a 0-d float32 and from a 0-d bfloat16',
    inputs: [bf16([0.3, 0.29, 0.31, -0.3, 0.30078125]), f32(0.3), bf16(0.3)],
    js: (x, t, h) => [x.eq(0.3), x.eq(t), x.lt(t), t.gt(x), x.ge(0.3), h.eq(0.3), h.eq(t), h.lt(t)],
    py: '(x0 == 0.3, x0 == x1, x0 < x1, x1 > x0, x0 >= 0.3, x2 == 0.3, x2 == x1, x2 < x1)',
  },
  {
    name: 'a 0-d bfloat16 with a number stays bfloat16, with a 0-d float32 becomes float32',
    inputs: [bf16(0.0693359375), f32(0.1)],
    js: (h, t) => [h.mul(0.1), h.add(0.1), h.div(0.1), h.mul(t), h.add(t)],
    py: '(x0 * 0.1, x0 + 0.1, x0 / 0.1, x0 * x1, x0 + x1)',
  },
  {
    name: 'bfloat16 remainder fmod pow clamp with 0.3',
    inputs: [X],
    js: (x) => [x.remainder(0.3), x.fmod(0.3), x.abs().pow(0.3), x.clamp(-0.3, 0.3)],
    py: '(x0.remainder(0.3), x0.fmod(0.3), x0.abs().pow(0.3), x0.clamp(-0.3, 0.3))',
  },
  {
    name: 'bfloat16 div with roundingMode by a 0-d float32 and a number',
    inputs: [X, f32(0.1)],
    js: (x, t) => [x.div(t, { roundingMode: 'floor' }), x.div(t, { roundingMode: 'trunc' }), x.div(0.3, { roundingMode: 'floor' }), x.div(0.3, { roundingMode: 'trunc' })],
    py: "(torch.div(x0, x1, rounding_mode='floor'), torch.div(x0, x1, rounding_mode='trunc'), torch.div(x0, 0.3, rounding_mode='floor'), torch.div(x0, 0.3, rounding_mode='trunc'))",
  },
  {
    // 64 values: PyTorch's vectorized loop (alpha·other in float32); its scalar loop, which
    // takes the last few elements of other lengths, rounds alpha·other to bfloat16 first
    name: 'bfloat16 add and sub with alpha 0.3',
    inputs: [X, f32(0.1), Y],
    js: (x, t, y) => [x.add(t, { alpha: 0.3 }), t.add(x, { alpha: 0.3 }), x.sub(0.1, { alpha: 0.3 }), x.add(y, { alpha: 0.3 }), tpu.sub(x, y, { alpha: 0.3 })],
    py: '(torch.add(x0, x1, alpha=0.3), torch.add(x1, x0, alpha=0.3), torch.sub(x0, 0.1, alpha=0.3), torch.add(x0, x2, alpha=0.3), torch.sub(x0, x2, alpha=0.3))',
  },
  {
    name: 'bfloat16 lerp with a 0-d float32 weight',
    inputs: [X, Y, f32(0.3), f32(0.7)],
    js: (x, y, w, v) => [x.lerp(y, w), x.lerp(y, v)],
    py: '(torch.lerp(x0, x1, x2), torch.lerp(x0, x1, x3))',
  },
].map((c) => ({ ...c, ...EXACT }));

torchTier('a 0-d operand or a JS number beside bfloat16 keeps the precision PyTorch gives it', precision, { compile: true });
