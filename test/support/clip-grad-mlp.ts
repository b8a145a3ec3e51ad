// The small MLP both sides of the gradient clipping tests build (2 -> 10 -> 16 -> 2, Tanh, cross
// entropy over 12 rows): its weights, inputs and labels as torch-tier inputs, the runtime's model
// loaded from them, and PyTorch's lines that build and run the same model.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, ids, type InputSpec } from '../torch/torch-tier.js';

const { nn } = tpu;
type Module = InstanceType<typeof nn.Module>;

/** Seeded values in [-1, 1): the same on every run, and unlike each other. */
function values(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 31 - 1);
}
const matrix = (rows: number, cols: number, seed: number) => Array.from({ length: rows }, (_, r) => values(cols, seed * 97 + r));

/** w1, b1, w2, b2, w3, b3 (the parameters in module order), X, Y. */
export const MLP_INPUTS: InputSpec[] = [
  f32(matrix(10, 2, 1)), f32(values(10, 2)), f32(matrix(16, 10, 3)), f32(values(16, 4)), f32(matrix(2, 16, 5)), f32(values(2, 6)),
  f32(matrix(12, 2, 7)), ids([0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0]),
];

/** The runtime's MLP with the inputs' parameter values. */
export function mlpOf(params: readonly Tensor[]): Module {
  const m = new nn.Sequential(new nn.Linear(2, 10), new nn.Tanh(), new nn.Linear(10, 16), new nn.Tanh(), new nn.Linear(16, 2));
  tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_(params[i]!)));
  return m;
}

/** One forward and backward of the loss on x, y. */
export function backward(m: Module, x: Tensor, y: Tensor): void {
  nn.crossEntropy(m.forward(x), y).backward();
}

/** PyTorch's lines: the model `m` with the parameters x0..x5, one backward on x6, x7 (`step()`). */
export const PY_MLP = [
  'm = torch.nn.Sequential(torch.nn.Linear(2, 10), torch.nn.Tanh(), torch.nn.Linear(10, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))',
  'with torch.no_grad():',
  '    for p, v in zip(m.parameters(), [x0, x1, x2, x3, x4, x5]): p.copy_(v)',
  'def step(): F.cross_entropy(m(x6), x7).backward()',
  'step()',
].join('\n');
