// detach() shares storage with a leaf that requires grad but is no view of it to autograd, as
// in PyTorch: `w.detach().add_(1)` (or a slice of it) writes w without the leaf's in-place
// error, and a backward that saved w before the write raises "modified by an inplace operation".
import { type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const W = f32([1, 2, 3]);
const leaf = (w: Tensor) => w.requiresGrad_();

const cases: TorchCase[] = [
  {
    name: 'detach().add_ writes the leaf, then a backward reads the new value',
    inputs: [W],
    js: (x) => { const w = leaf(x); w.detach().add_(1); w.mul(w).sum().backward(); return [w.detach(), w.grad!]; },
    py: 'w = x0.requires_grad_()\nw.detach().add_(1)\n(w * w).sum().backward()\nresult = (w.detach(), w.grad)',
  },
  {
    name: 'a slice of detach() zeroed, then a manual SGD step through detach()',
    inputs: [W],
    js: (x) => { const w = leaf(x); w.detach().at('1:').zero_(); w.mul(3).sum().backward(); w.detach().sub_(w.grad!.mul(0.5)); return w.detach(); },
    py: 'w = x0.requires_grad_()\nw.detach()[1:].zero_()\n(w * 3).sum().backward()\nw.detach().sub_(w.grad * 0.5)\nresult = w.detach()',
  },
  {
    name: 'detach().mul_ after mul saved the leaf is an error at backward',
    inputs: [W],
    js: (x) => { const w = leaf(x); const loss = w.mul(w).sum(); w.detach().mul_(2); loss.backward(); return w.grad!; },
    py: 'w = x0.requires_grad_()\nloss = (w * w).sum()\nw.detach().mul_(2)\nloss.backward()\nresult = w.grad',
  },
];

torchTier('writes through detach() of a leaf vs PyTorch', cases);
