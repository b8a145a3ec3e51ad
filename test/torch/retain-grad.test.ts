// retainGrad() on a non-leaf, as PyTorch's retain_grad(): backward() keeps its gradient in
// .grad, adding up across backward calls as a leaf's; a non-leaf without it has none. Against
// PyTorch 2.13 in every mode.
import { tpu } from 'tpu-kernel/runtime';
import { expect, it } from 'vitest';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  {
    name: 'a retained hidden value and the leaf',
    inputs: [f32([0.5, -1, 2]), f32([[1, 2, -1], [0.5, 0, 3]])],
    js: (x0, a) => {
      const w = x0.detach().requiresGrad_();
      const h = a.matmul(w).tanh();
      h.retainGrad();
      const y = h.square().sum();
      y.backward();
      return [h.grad!, w.grad!, tpu.tensor([h.retainsGrad])];
    },
    py: 'w = x0.clone().requires_grad_()\nh = (x1 @ w).tanh()\nh.retain_grad()\ny = (h ** 2).sum()\ny.backward()\nresult = (h.grad, w.grad, torch.tensor([h.retains_grad]))',
  },
  {
    name: 'a retained gradient adds up over two backward calls, and the root keeps ones',
    inputs: [f32([1.5, -2])],
    js: (x0) => {
      const w = x0.detach().requiresGrad_();
      const h = w.mul(3);
      h.retainGrad();
      const y = h.exp().sum();
      y.retainGrad();
      y.backward({ retainGraph: true });
      y.backward();
      const other = w.mul(2);
      other.sum().backward();
      return [h.grad!, y.grad!, w.grad!, tpu.tensor([other.grad === null])];
    },
    py: 'w = x0.clone().requires_grad_()\nh = w * 3\nh.retain_grad()\ny = h.exp().sum()\ny.retain_grad()\ny.backward(retain_graph=True)\ny.backward()\nother = w * 2\nother.sum().backward()\nresult = (h.grad, y.grad, w.grad, torch.tensor([other.grad is None]))',
  },
  {
    name: 'a retained value used twice gets the sum of both paths',
    inputs: [f32([0.5, 2])],
    js: (x0) => {
      const w = x0.detach().requiresGrad_();
      const h = w.sin();
      h.retainGrad();
      h.mul(h).add(h.mul(4)).sum().backward();
      return [h.grad!, w.grad!];
    },
    py: 'w = x0.clone().requires_grad_()\nh = w.sin()\nh.retain_grad()\n(h * h + h * 4).sum().backward()\nresult = (h.grad, w.grad)',
  },
];

torchTier('retainGrad vs PyTorch', cases);

it('retainGrad of a tensor that does not require grad is an error, of a leaf a no-op', () => {
  expect(() => tpu.tensor([1, 2]).retainGrad()).toThrow(/retainGrad: the tensor .* does not require grad/);
  const w = tpu.tensor([1, 2], { requiresGrad: true });
  w.retainGrad();
  expect(w.retainsGrad).toBe(false); // PyTorch's retains_grad is False for a leaf
  w.square().sum().backward();
  expect(w.grad!.array()).toEqual([2, 4]);
});
