// backward's options alone, as PyTorch's keyword form: y.backward({ retainGraph: true }) and
// y.backward({ gradient }), against PyTorch 2.13 in every mode.
import { tpu } from 'tpu-kernel/runtime';
import { expect, it } from 'vitest';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const cases: TorchCase[] = [
  {
    name: 'backward({ retainGraph: true }) then backward() adds the gradient twice',
    inputs: [f32([0.5, -1, 2])],
    js: (x0) => {
      const w = x0.detach().requiresGrad_();
      const y = w.exp().mul(w).sum();
      y.backward({ retainGraph: true });
      y.backward();
      return w.grad!;
    },
    py: 'w = x0.clone().requires_grad_()\ny = (w.exp() * w).sum()\ny.backward(retain_graph=True)\ny.backward()\nresult = w.grad',
  },
  {
    name: 'backward({ gradient }) of a non-scalar',
    inputs: [f32([0.5, -1, 2]), f32([1, 0.5, -2])],
    js: (x0, g) => {
      const w = x0.detach().requiresGrad_();
      w.square().backward({ gradient: g });
      return w.grad!;
    },
    py: 'w = x0.clone().requires_grad_()\n(w ** 2).backward(gradient=x1)\nresult = w.grad',
  },
  {
    name: 'backward({ gradient, retainGraph: true }) twice',
    inputs: [f32([0.5, -1]), f32([2, 3])],
    js: (x0, g) => {
      const w = x0.detach().requiresGrad_();
      const y = w.sin();
      y.backward({ gradient: g, retainGraph: true });
      y.backward({ gradient: g });
      return w.grad!;
    },
    py: 'w = x0.clone().requires_grad_()\ny = w.sin()\ny.backward(gradient=x1, retain_graph=True)\ny.backward(gradient=x1)\nresult = w.grad',
  },
];

torchTier('backward with keyword options vs PyTorch', cases);

it('backward names an unknown option and options given twice', () => {
  const w = tpu.tensor([1, 2], { requiresGrad: true });
  expect(() => w.sum().backward({ retain_graph: true } as never)).toThrow(/backward: unknown option 'retain_graph' \(did you mean 'retainGraph'\?\)/);
  expect(() => w.sum().backward({ retainGraph: true } as never, {})).toThrow(/backward: give the options once/);
});
