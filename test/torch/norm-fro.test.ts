// norm(p = 'fro'), PyTorch's Frobenius norm: the 2-norm of the elements, over all dims or over
// one or two; three dims are PyTorch's error. Against PyTorch 2.13 in every mode, gradient too.
import { f32, grads, torchTier, type TorchCase } from './torch-tier.js';

const X = f32([[[1, -2, 3], [0.5, 4, -1]], [[2, 2, -3], [1, 0, 6]]]);

const cases: TorchCase[] = [
  { name: "norm('fro') over all, one and two dims", inputs: [X], js: (x) => [x.norm('fro'), x.norm('fro', 1), x.norm('fro', [0, 2], true), x.norm({ p: 'fro', dim: -1 })], py: "(x0.norm('fro'), x0.norm('fro', 1), x0.norm('fro', [0, 2], True), x0.norm(p='fro', dim=-1))" },
  { name: "norm('fro') over three dims is an error", inputs: [X], js: (x) => x.norm('fro', [0, 1, 2]), py: "torch.norm(x0, 'fro', dim=(0, 1, 2))" },
  grads("norm('fro') gradient", [X], (x) => x.norm('fro', [1, 2]).sum(), "x0.norm('fro', [1, 2]).sum()"),
];

torchTier("norm with p 'fro' vs PyTorch", cases);
