// x.moveaxis and tpu.moveaxis: movedim's NumPy name, as torch.moveaxis (it was not a function).
import { tpu } from 'tpu-kernel/runtime';
import { torchTier, uniform, type TorchCase } from './torch-tier.js';

const X = uniform([2, 3, 4], 71);
const cases: TorchCase[] = [
  { name: 'moveaxis of one dim and of lists, negative dims', inputs: [X], js: (x) => [x.moveaxis(0, -1), x.moveaxis([0, 1], [2, 0]), tpu.moveaxis(x, -1, 0)], py: '[x0.moveaxis(0, -1), x0.moveaxis([0, 1], [2, 0]), torch.moveaxis(x0, -1, 0)]' },
  { name: 'moveaxis of a repeated destination is an error', inputs: [X], js: (x) => x.moveaxis([0, 1], [2, 2]), py: 'x0.moveaxis([0, 1], [2, 2])' },
];
torchTier('moveaxis', cases, { compile: true });
