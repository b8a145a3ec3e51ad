// A gradient cloned (or read) between two backward passes through a matmul: the second pass
// adds to .grad while the clone keeps the first. Fused mode once failed to run that program
// (ONNX Runtime's graph optimizer broke the Identity of the clone: onnx/lowerings/values.ts).
import { tpu } from 'tpu-kernel/runtime';
import { torchTier, uniform, type TorchCase } from './torch-tier.js';

const X = uniform([3, 4], 21);
const cases: TorchCase[] = [
  {
    name: 'clone of a weight gradient, then a second backward',
    inputs: [X, uniform([2, 4], 22)],
    js: (x, w) => {
      w.requiresGrad_();
      x.matmul(w.t()).sum().backward();
      const first = w.grad!.clone();
      x.matmul(w.t()).pow(2).sum().backward();
      return [first, w.grad!];
    },
    py: 'w = x1.requires_grad_()\n(x0 @ w.t()).sum().backward()\nfirst = w.grad.clone()\n((x0 @ w.t()) ** 2).sum().backward()\nresult = [first, w.grad]',
    rtol: 1e-5, atol: 1e-5,
  },
  {
    name: 'Linear gradients zeroed in place, cloned, accumulated',
    inputs: [X],
    js: (x) => {
      const m = new tpu.nn.Linear(4, 2);
      m.weight.data = tpu.ones([2, 4]);
      m.bias.data = tpu.tensor([-1, 0.5]);
      m.forward(x).sum().backward();
      m.zeroGrad({ setToNone: false });
      const cleared = m.weight.grad!.clone();
      m.forward(x).relu().sum().backward();
      return [cleared, m.weight.grad!];
    },
    py: 'm = torch.nn.Linear(4, 2)\nm.weight.data = torch.ones(2, 4)\nm.bias.data = torch.tensor([-1, 0.5])\nm(x0).sum().backward()\nm.zero_grad(set_to_none=False)\ncleared = m.weight.grad.clone()\nm(x0).relu().sum().backward()\nresult = [cleared, m.weight.grad]',
    rtol: 1e-5, atol: 1e-5,
  },
];
torchTier('a gradient cloned between two backward passes', cases, { compile: true });
