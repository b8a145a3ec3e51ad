// A leaf's .grad is accumulated in place across backward calls, as PyTorch's AccumulateGrad:
// a gradient tensor held from an earlier backward (`const g = w.grad`) sees the sum and stays
// w.grad; the caller's own `gradient` tensor given to backward is copied, never added into.
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const W = f32([1, 2, 3]);

const cases: TorchCase[] = [
  {
    name: 'a .grad held across two backward calls sees their sum',
    inputs: [W],
    js: (x) => {
      const w = x.requiresGrad_();
      w.mul(2).sum().backward();
      const g = w.grad!;
      w.mul(w).sum().backward();
      return [g, tpu.tensor([g === w.grad])];
    },
    py: 'w = x0.requires_grad_()\n(w * 2).sum().backward()\ng = w.grad\n(w * w).sum().backward()\nresult = (g, torch.tensor([g is w.grad]))',
  },
  {
    name: "backward(gradient) of a leaf twice leaves the caller's gradient alone",
    inputs: [W],
    js: (x) => {
      const w = x.requiresGrad_();
      const v = tpu.tensor([1, 10, 100]);
      w.backward(v);
      w.backward(v);
      return [v, w.grad!];
    },
    py: 'w = x0.requires_grad_()\nv = torch.tensor([1., 10., 100.])\nw.backward(v)\nw.backward(v)\nresult = (v, w.grad)',
  },
  {
    name: 'gradients held over a loop with zeroGrad forgotten',
    inputs: [W],
    js: (x) => {
      const w = x.requiresGrad_();
      const held = [];
      for (let i = 1; i <= 3; i++) {
        w.mul(w).mul(i).sum().backward();
        held.push(w.grad!);
      }
      return [...held, w.detach()];
    },
    py: 'w = x0.requires_grad_()\nheld = []\nfor i in range(1, 4):\n    (w * w * i).sum().backward()\n    held.append(w.grad)\nresult = (*held, w.detach())',
  },
];

torchTier('.grad accumulates in place vs PyTorch', cases);
