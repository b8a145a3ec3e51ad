// y.backward({ inputs: [...] }) as PyTorch's backward(inputs=...): only the listed tensors'
// .grad gets the gradient (a non-leaf listed too); an empty list or one that needs no grad is an error.
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, uniform, type TorchCase } from './torch-tier.js';

const A = uniform([3, 4], 91);
const B = f32([1, 2, 3, 4]);
const noneFlag = (t: { grad: unknown }) => tpu.tensor(t.grad === null ? 1 : 0);
const cases: TorchCase[] = [
  {
    name: 'inputs of one leaf: the other leaf keeps no gradient',
    inputs: [A, B],
    js: (a, b) => { a.requiresGrad_(); b.requiresGrad_(); a.mul(b).sum().backward({ inputs: [b] }); return [b.grad!, noneFlag(a)]; },
    py: 'a = x0.requires_grad_()\nb = x1.requires_grad_()\n(a * b).sum().backward(inputs=[b])\nresult = [b.grad, torch.tensor(1. if a.grad is None else 0.)]',
  },
  {
    name: 'inputs as one tensor, with a gradient, accumulated over two calls',
    inputs: [A, B],
    js: (a, b) => {
      a.requiresGrad_(); b.requiresGrad_();
      const y = a.mul(b).exp();
      y.backward(tpu.onesLike(y).mul(2), { inputs: a, retainGraph: true });
      y.backward({ gradient: tpu.onesLike(y), inputs: [a, b] });
      return [a.grad!, b.grad!];
    },
    py: 'a = x0.requires_grad_()\nb = x1.requires_grad_()\ny = (a * b).exp()\ny.backward(torch.ones_like(y) * 2, inputs=a, retain_graph=True)\ny.backward(gradient=torch.ones_like(y), inputs=[a, b])\nresult = [a.grad, b.grad]',
    rtol: 1e-5, atol: 1e-5,
  },
  {
    name: 'a non-leaf input gets its .grad; the leaf behind it none',
    inputs: [A],
    js: (a) => { a.requiresGrad_(); const h = a.mul(3); h.pow(2).sum().backward({ inputs: [h] }); return [h.grad!, noneFlag(a)]; },
    py: 'a = x0.requires_grad_()\nh = a * 3\n(h ** 2).sum().backward(inputs=[h])\nresult = [h.grad, torch.tensor(1. if a.grad is None else 0.)]',
  },
  {
    name: 'empty inputs is an error',
    inputs: [A],
    js: (a) => { a.requiresGrad_(); a.sum().backward({ inputs: [] }); return [a.grad!]; },
    py: 'a = x0.requires_grad_()\na.sum().backward(inputs=[])\nresult = [a.grad]',
  },
  {
    name: 'an input that needs no grad is an error',
    inputs: [A, B],
    js: (a, b) => { a.requiresGrad_(); a.mul(b).sum().backward({ inputs: [b] }); return [a.grad!]; },
    py: 'a = x0.requires_grad_()\n(a * x1).sum().backward(inputs=[x1])\nresult = [a.grad]',
  },
];
torchTier('backward inputs', cases, { compile: true });
