// atan2's gradient where x² + y² is 0 (the origin, or squares that underflow): PyTorch 2.13 takes
// 1 / (x² + y²) as 0 there, so the gradients are signed zeros, not the NaN of 0 · inf. Every
// mode and tpu.compile; gradients of both operands, and of a number operand.
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  {
    name: 'atan2 gradients of both operands at the origin, near it and away from it',
    inputs: [f32([0, -0, 1e-30, 0, 1, -2]), f32([0, 0, 0, -0, 0, 3])],
    js: (y, x) => { y.requiresGrad_(); x.requiresGrad_(); y.atan2(x).mul(tpu.tensor([1, 2, 3, 4, 5, 6])).sum().backward(); return [y.grad!, x.grad!]; },
    py: 'x0.requires_grad_(); x1.requires_grad_()\n(x0.atan2(x1) * torch.tensor([1., 2, 3, 4, 5, 6])).sum().backward()\nresult = [x0.grad, x1.grad]',
  },
  {
    name: 'atan2 gradient with a number operand at 0',
    inputs: [f32([0, -0, 2])],
    js: (y) => { y.requiresGrad_(); tpu.atan2(y, 0).sum().backward(); return y.grad!; },
    py: 'x0.requires_grad_()\ntorch.atan2(x0, torch.tensor(0.)).sum().backward()\nresult = x0.grad',
  },
];

torchTier('atan2 gradients at the origin follow PyTorch', cases, { compile: true });
