// PyTorch's keyword arguments of add/sub (alpha) and of the in-place div_ (rounding_mode):
// they were ignored, so x.add(y, { alpha: 3 }) gave x + y and x.div_(2, { roundingMode:
// 'floor' }) a true quotient; alpha was also dropped for a boolean or a live number other.
// Values, dtypes and errors against PyTorch 2.13, every mode.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, bool, f32, i32, i64, seq, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([[1.5, -2, 3], [0, 7, -7]]);
const Y = f32([0.5, 2, -1]);
const N = i64([7, -7, 5, -5]);

const cases: TorchCase[] = [
  { name: 'add with alpha, broadcast', inputs: [X, Y], js: (x, y) => x.add(y, { alpha: 3 }), py: 'torch.add(x0, x1, alpha=3)' },
  { name: 'sub with a fractional alpha', inputs: [X, Y], js: (x, y) => x.sub(y, { alpha: 0.25 }), py: 'x0.sub(x1, alpha=0.25)' },
  { name: 'add of a number with alpha', inputs: [X], js: (x) => x.add(2, { alpha: -1.5 }), py: 'x0.add(2, alpha=-1.5)' },
  { name: 'tpu.add with alpha', inputs: [X, Y], js: (x, y) => tpu.add(x, y, { alpha: 2 }), py: 'torch.add(x0, x1, alpha=2)' },
  { name: 'int64 add with an integer alpha', inputs: [N, N], js: (a, b) => a.add(b.flip(0), { alpha: -2 }), py: 'x0.add(x1.flip(0), alpha=-2)' },
  { name: 'int32 plus a bool mask times alpha stays int32', inputs: [i32([1, 2, 3]), bool([true, false, true])], js: (a, m) => a.add(m, { alpha: 4 }), py: 'x0.add(x1, alpha=4)' },
  { name: 'an integer add with a fractional alpha is an error', inputs: [N, N], js: (a, b) => a.add(b, { alpha: 0.5 }), py: 'x0.add(x1, alpha=0.5)' },
  { name: 'add_ and sub_ with alpha', inputs: [X, Y], js: (x, y) => x.add_(y, { alpha: 2 }).sub_(y, { alpha: 0.5 }), py: 'x0.add_(x1, alpha=2).sub_(x1, alpha=0.5)' },
  { name: 'div_ with roundingMode floor and trunc', inputs: [X, N], js: (x, n) => [x.div_(2, { roundingMode: 'floor' }), n.div_(-2, { roundingMode: 'trunc' })], py: '(x0.div_(2, rounding_mode="floor"), x1.div_(-2, rounding_mode="trunc"))' },
  // a JS boolean other is True·alpha, as PyTorch's; in sub it is an error, as PyTorch's
  { name: 'add of true and false with alpha (float32, -0 kept)', inputs: [f32([-0, 1.5, -2])], js: (x) => [x.add(true, { alpha: 3 }), x.add(false, { alpha: -3 }), x.add(true, { alpha: 0.25 })], py: '(x0.add(True, alpha=3), x0.add(False, alpha=-3), x0.add(True, alpha=0.25))' },
  { name: 'add of true with alpha keeps int32 and int64', inputs: [i32([1, 0, -2]), N], js: (a, n) => [a.add(true, { alpha: 3 }), a.add(false, { alpha: 3 }), n.add(true, { alpha: -4 })], py: '(x0.add(True, alpha=3), x0.add(False, alpha=3), x1.add(True, alpha=-4))' },
  { name: 'add of true with alpha to bfloat16', inputs: [bf16([1, 0.1, -300])], js: (x) => [x.add(true, { alpha: 3 }), x.add(true, { alpha: 0.3 })], py: '(x0.add(True, alpha=3), x0.add(True, alpha=0.3))' },
  { name: 'bool plus a boolean with alpha stays bool', inputs: [bool([true, false, true])], js: (b) => [b.add(true, { alpha: 3 }), b.add(true, { alpha: 0 }), b.add(true, { alpha: -1 }), b.add(false, { alpha: 3 })], py: '(x0.add(True, alpha=3), x0.add(True, alpha=0), x0.add(True, alpha=-1), x0.add(False, alpha=3))' },
  { name: 'bool plus a bool tensor with alpha stays bool', inputs: [bool([true, false, false]), bool([false, true, false])], js: (a, b) => [a.add(b, { alpha: 3 }), a.add(b, { alpha: 0 })], py: '(x0.add(x1, alpha=3), x0.add(x1, alpha=0))' },
  { name: 'int32 plus true with a fractional alpha is an error', inputs: [i32([1, 2])], js: (a) => a.add(true, { alpha: 2.5 }), py: 'x0.add(True, alpha=2.5)' },
  { name: 'bool plus true with a fractional alpha is an error', inputs: [bool([true, false])], js: (b) => b.add(true, { alpha: 2.5 }), py: 'x0.add(True, alpha=2.5)' },
  { name: 'sub of true with alpha is an error', inputs: [X], js: (x) => x.sub(true, { alpha: 3 }), py: 'x0.sub(True, alpha=3)' },
  { name: 'sub of false is an error', inputs: [X], js: (x) => x.sub(false), py: 'x0.sub(False)' },
  { name: 'tpu.sub of true first is an error', inputs: [X], js: (x) => tpu.sub(true, x), py: 'torch.sub(True, x0)' },
  // a number times alpha in the dtype the number gives: an int tensor plus 1.5·2 is float32
  { name: 'int32 plus a fractional number with alpha is float32', inputs: [i32([1, 0, -2])], js: (a) => a.add(1.5, { alpha: 2 }), py: 'x0.add(1.5, alpha=2)' },
  { name: 'int32 plus a number with a fractional alpha is an error', inputs: [i32([1, 0, -2])], js: (a) => a.add(2, { alpha: 0.5 }), py: 'x0.add(2, alpha=0.5)' },
  { name: 'bool plus numbers with alpha', inputs: [bool([true, false, true])], js: (b) => [b.add(2, { alpha: 2 }), b.add(1.5, { alpha: 2 })], py: '(x0.add(2, alpha=2), x0.add(1.5, alpha=2))' },
  // a number argument of tpu.compile is live (re-read on every call): alpha scales it each time
  { name: 'add of a live number with alpha under tpu.compile', inputs: [X, i32([1, 0, -2])], js: (x, a) => { const f = tpu.compile((t: Tensor, k: number) => t.add(k, { alpha: 3 })); return [f(x, 2), f(x, -0.5), f(a, 2), f(a, 5)]; }, py: '(x0.add(2, alpha=3), x0.add(-0.5, alpha=3), x1.add(2, alpha=3), x1.add(5, alpha=3))' },
  // 64 values: PyTorch's vectorized bfloat16 loop (its scalar loop, for short tensors and the
  // tail, rounds alpha·other to bfloat16 before adding)
  { name: 'sub of a live number with alpha under tpu.compile (bfloat16)', inputs: [seq('bfloat16', [64], 0.375, -12)], js: (x) => { const f = tpu.compile((t: Tensor, k: number) => t.sub(k, { alpha: 0.3 })); return [f(x, 2), f(x, 7)]; }, py: '(x0.sub(2, alpha=0.3), x0.sub(7, alpha=0.3))' },
  // torch.add(1, t, alpha=2): a number first is wrapped as PyTorch wraps it
  { name: 'tpu.add and tpu.sub of a number first with alpha', inputs: [i32([2, -3, 4]), X], js: (a, x) => [tpu.add(1, a, { alpha: 2 }), tpu.sub(1.5, a, { alpha: 2 }), tpu.sub(1, x, { alpha: 0.5 })], py: '(torch.add(1, x0, alpha=2), torch.sub(1.5, x0, alpha=2), torch.sub(1, x1, alpha=0.5))' },
  {
    name: 'add with alpha in a gradient',
    inputs: [X, Y],
    js: (x, y) => { x.requiresGrad_(); y.requiresGrad_(); x.sub(y, { alpha: 3 }).pow(2).sum().backward(); return [x.grad!, y.grad!]; },
    py: 'x0.requires_grad_(); x1.requires_grad_()\nx0.sub(x1, alpha=3).pow(2).sum().backward()\nresult = (x0.grad, x1.grad)',
  },
];

torchTier('alpha and in-place rounding options vs PyTorch', cases);
