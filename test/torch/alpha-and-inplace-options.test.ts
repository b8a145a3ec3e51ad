// PyTorch's keyword arguments of add/sub (alpha) and of the in-place div_ (rounding_mode):
// they were ignored, so x.add(y, { alpha: 3 }) gave x + y and x.div_(2, { roundingMode:
// 'floor' }) a true quotient. Values, dtypes and errors against PyTorch 2.13, every mode.
import { tpu } from 'tpu-kernel/runtime';
import { bool, f32, i32, i64, torchTier, type TorchCase } from './torch-tier.js';

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
  {
    name: 'add with alpha in a gradient',
    inputs: [X, Y],
    js: (x, y) => { x.requiresGrad_(); y.requiresGrad_(); x.sub(y, { alpha: 3 }).pow(2).sum().backward(); return [x.grad!, y.grad!]; },
    py: 'x0.requires_grad_(); x1.requires_grad_()\nx0.sub(x1, alpha=3).pow(2).sum().backward()\nresult = (x0.grad, x1.grad)',
  },
];

torchTier('alpha and in-place rounding options vs PyTorch', cases);
