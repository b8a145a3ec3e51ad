// Which operands an op's gradient reaches is fixed when the op runs, as in PyTorch 2.13: a
// leaf given requiresGrad_() after an op read it, a tensor that starts requiring grad by an
// in-place write, and a layer unfrozen between forward and backward get no gradient through
// the ops recorded before; one frozen after the forward gets none either.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const A = f32([1, 2, 3]);
const B = f32([4, 5, 0.5]);
/** grad, or a marker of its absence (PyTorch's None), beside it. */
const gradAndNone = (t: Tensor) => [t.grad ?? tpu.zeros(t.shape), tpu.tensor([t.grad === null])];
const pyGradAndNone = (name: string) => `(${name}.grad if ${name}.grad is not None else torch.zeros_like(${name}), torch.tensor([${name}.grad is None]))`;

const cases: TorchCase[] = [
  {
    name: 'a leaf given requiresGrad_ after the ops that read it',
    inputs: [A, B],
    js: (a, b) => {
      a.requiresGrad_();
      const c = a.mul(b).exp().mul(a).div(b);
      b.requiresGrad_();
      c.sum().backward();
      return [...gradAndNone(a), ...gradAndNone(b)];
    },
    py: `a = x0.requires_grad_()\nb = x1\nc = (a * b).exp() * a / b\nb.requires_grad_()\nc.sum().backward()\nresult = (*${pyGradAndNone('a')}, *${pyGradAndNone('b')})`,
  },
  {
    name: 'a tensor that starts requiring grad by an in-place write',
    inputs: [A],
    js: (p) => {
      p.requiresGrad_();
      const t = tpu.zeros([3]);
      const d = p.add(t).mul(t.add(1));
      t.add_(p);
      d.sum().backward();
      return p.grad!;
    },
    py: 'p = x0.requires_grad_()\nt = torch.zeros(3)\nd = (p + t) * (t + 1)\nt.add_(p)\nd.sum().backward()\nresult = p.grad',
  },
  {
    name: 'a linear input given requiresGrad_ between forward and backward',
    inputs: [f32([[0.5, 2], [1, -1]]), f32([[1, 2], [3, 4]]), f32([1, -1])],
    js: (x, w, b) => {
      w.requiresGrad_();
      b.requiresGrad_();
      const y = tpu.nn.functional.linear(x, w, b).relu();
      x.requiresGrad_();
      y.mul(y).sum().backward();
      return [w.grad!, b.grad!, ...gradAndNone(x)];
    },
    py: `w = x1.requires_grad_()\nb = x2.requires_grad_()\nx = x0\ny = F.linear(x, w, b).relu()\nx.requires_grad_()\n(y * y).sum().backward()\nresult = (w.grad, b.grad, *${pyGradAndNone('x')})`,
  },
  {
    name: 'a layer unfrozen between forward and backward gets no gradient',
    inputs: [f32([[0.5, 2, -1]]), f32([[1, 2, 3], [3, 4, -2]]), f32([[0.5, -1]])],
    js: (x, w1, w2) => {
      w2.requiresGrad_();
      const h = tpu.nn.functional.linear(x, w1).tanh();
      const logits = tpu.nn.functional.linear(h, w2);
      w1.requiresGrad_();
      tpu.nn.crossEntropy(logits, tpu.tensor([0], { dtype: 'int32' })).backward();
      return [w2.grad!, ...gradAndNone(w1)];
    },
    py: `w2 = x2.requires_grad_()\nw1 = x1\nh = F.linear(x0, w1).tanh()\nlogits = F.linear(h, w2)\nw1.requires_grad_()\nF.cross_entropy(logits, torch.tensor([0])).backward()\nresult = (w2.grad, *${pyGradAndNone('w1')})`,
  },
  {
    name: 'a leaf frozen between forward and backward gets no gradient',
    inputs: [A, B],
    js: (a, b) => {
      a.requiresGrad_();
      b.requiresGrad_();
      const c = a.mul(b).sum();
      b.requiresGrad_(false);
      c.backward();
      return [a.grad!, ...gradAndNone(b)];
    },
    py: `a = x0.requires_grad_()\nb = x1.requires_grad_()\nc = (a * b).sum()\nb.requires_grad_(False)\nc.backward()\nresult = (a.grad, *${pyGradAndNone('b')})`,
  },
];

torchTier('requiresGrad as it was when each op was recorded, against PyTorch', cases);
