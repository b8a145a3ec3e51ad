// Binary cross entropy's weights against PyTorch 2.13: `weight` per element (broadcast to the
// input) on binaryCrossEntropy and binaryCrossEntropyWithLogits, `posWeight` per class on the
// logits' form (PyTorch's pos_weight), every reduction, extreme logits, gradients, the layers
// BCELoss / BCEWithLogitsLoss (weight by position, posWeight a buffer), and bad weights.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';
import { expectThrowInEveryMode } from '../support/throws-in-every-mode.js';

const F = tpu.nn.functional;
const INF = Infinity;
const REDUCTIONS = ['none', 'sum', 'mean'] as const;
type Reduction = (typeof REDUCTIONS)[number];

/** The three reductions of one loss, as a list on both sides. */
const reductions = (name: string, inputs: TorchCase['inputs'], js: (r: Reduction, ...xs: Tensor[]) => Tensor, py: (r: string) => string): TorchCase =>
  ({ name, inputs, js: (...xs) => REDUCTIONS.map((r) => js(r, ...xs)), py: `(${REDUCTIONS.map((r) => py(`'${r}'`)).join(', ')})` });

const LOGITS = f32([[0.5, -1, 2], [1, 0, -0.5], [-3, 4, 0.25], [7, -6, 1.5]]);
const LABELS = f32([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0.5, 1, 0]]);
const PROBS = f32([[0.2, 0.9, 0.4], [0.7, 0.1, 0.5], [0.01, 0.99, 0.3], [0.5, 0.6, 0.8]]);
const POS = f32([3, 0.5, 1]);
const ROW_WEIGHT = f32([[1], [2], [0], [0.5]]);

const cases: TorchCase[] = [
  reductions('logits with posWeight per class', [LOGITS, LABELS, POS],
    (r, x, t, p) => F.binaryCrossEntropyWithLogits(x, t, { posWeight: p, reduction: r }),
    (r) => `F.binary_cross_entropy_with_logits(x0, x1, pos_weight=x2, reduction=${r})`),
  reductions('logits with a weight per row', [LOGITS, LABELS, ROW_WEIGHT],
    (r, x, t, w) => F.binaryCrossEntropyWithLogits(x, t, { weight: w, reduction: r }),
    (r) => `F.binary_cross_entropy_with_logits(x0, x1, weight=x2, reduction=${r})`),
  reductions('logits with weight and posWeight', [LOGITS, LABELS, ROW_WEIGHT, POS],
    (r, x, t, w, p) => F.binaryCrossEntropyWithLogits(x, t, { weight: w, posWeight: p, reduction: r }),
    (r) => `F.binary_cross_entropy_with_logits(x0, x1, weight=x2, pos_weight=x3, reduction=${r})`),
  {
    name: 'posWeight at extreme logits',
    inputs: [f32([100, -100, 40, -40, 0]), f32([1, 0, 1, 1, 0.5]), f32([2, 2, 0.25, 4, 3])],
    js: (x, t, p) => F.binaryCrossEntropyWithLogits(x, t, { posWeight: p, reduction: 'none' }),
    py: "F.binary_cross_entropy_with_logits(x0, x1, pos_weight=x2, reduction='none')",
  },
  {
    name: 'posWeight of an infinite logit',
    inputs: [f32([INF, -INF, INF]), f32([1, 0, 0]), f32([2, 2, 2])],
    js: (x, t, p) => F.binaryCrossEntropyWithLogits(x, t, { posWeight: p, reduction: 'none' }),
    py: "F.binary_cross_entropy_with_logits(x0, x1, pos_weight=x2, reduction='none')",
  },
  reductions('probabilities with a weight per element', [PROBS, LABELS, f32([[1, 2, 3], [0, 1, 1], [2, 2, 2], [1, 0.5, 0.25]])],
    (r, p, t, w) => F.binaryCrossEntropy(p, t, { weight: w, reduction: r }),
    (r) => `F.binary_cross_entropy(x0, x1, weight=x2, reduction=${r})`),
  reductions('probabilities with a weight per class', [PROBS, LABELS, POS],
    (r, p, t, w) => F.binaryCrossEntropy(p, t, { weight: w, reduction: r }),
    (r) => `F.binary_cross_entropy(x0, x1, weight=x2, reduction=${r})`),
  {
    name: 'gradient of the logits with weight and posWeight',
    inputs: [LOGITS, LABELS, POS],
    js: (x, t, p) => {
      x!.requiresGrad_();
      F.binaryCrossEntropyWithLogits(x!, t!, { posWeight: p, weight: tpu.tensor([[1], [2], [3], [4]]) }).backward();
      return x!.grad!;
    },
    py: 'x0.requires_grad_()\nF.binary_cross_entropy_with_logits(x0, x1, pos_weight=x2, weight=torch.tensor([[1.], [2], [3], [4]])).backward()\nresult = x0.grad',
    signedZeros: false,
  },
  {
    name: 'gradient of weighted probabilities',
    inputs: [PROBS, LABELS, POS],
    js: (p, t, w) => { p!.requiresGrad_(); F.binaryCrossEntropy(p!, t!, { weight: w, reduction: 'sum' }).backward(); return p!.grad!; },
    py: "x0.requires_grad_()\nF.binary_cross_entropy(x0, x1, weight=x2, reduction='sum').backward()\nresult = x0.grad",
    signedZeros: false,
  },
  {
    name: 'the layers: weight by position, posWeight by option',
    inputs: [LOGITS, LABELS, POS, PROBS, ROW_WEIGHT],
    js: (x, t, p, q, w) => [
      new tpu.nn.BCEWithLogitsLoss({ posWeight: p }).forward(x!, t!),
      new tpu.nn.BCEWithLogitsLoss(w!, { posWeight: p, reduction: 'sum' }).forward(x!, t!),
      new tpu.nn.BCELoss(w!).forward(q!, t!),
      new tpu.nn.BCELoss({ weight: p, reduction: 'none' }).forward(q!, t!),
    ],
    py: "(torch.nn.BCEWithLogitsLoss(pos_weight=x2)(x0, x1), torch.nn.BCEWithLogitsLoss(x4, pos_weight=x2, reduction='sum')(x0, x1), torch.nn.BCELoss(x4)(x3, x1), torch.nn.BCELoss(weight=x2, reduction='none')(x3, x1))",
  },
];

torchTier('binary cross entropy weights', cases);

describe('binary cross entropy weights: layers and bad input', () => {
  it('keeps weight and posWeight as buffers, as PyTorch registers them', () => {
    const loss = new tpu.nn.BCEWithLogitsLoss(tpu.tensor([1, 2]), { posWeight: tpu.tensor([3, 4]) });
    expect(Object.keys(loss.stateDict()).sort()).toEqual(['posWeight', 'weight']);
    expect(loss.stateDict()['posWeight']!.tolist()).toEqual([3, 4]);
    expect(loss.parameters()).toEqual([]);
  });

  it('refuses a weight that does not broadcast to the input, naming it', () => {
    const x = () => tpu.zeros([4, 3]);
    const t = () => tpu.ones([4, 3]);
    expectThrowInEveryMode(() => F.binaryCrossEntropyWithLogits(x(), t(), { posWeight: tpu.ones([2]) }), /binaryCrossEntropyWithLogits: .*posWeight/);
    expectThrowInEveryMode(() => F.binaryCrossEntropyWithLogits(x(), t(), { weight: tpu.ones([5, 4, 3]) }),
      /binaryCrossEntropyWithLogits: weight \[5, 4, 3\] must broadcast to the input's shape \[4, 3\]/);
    expectThrowInEveryMode(() => F.binaryCrossEntropy(x().sigmoid(), t(), { weight: tpu.ones([2]) }), /binaryCrossEntropy: .*weight/);
    expectThrowInEveryMode(() => F.binaryCrossEntropyWithLogits(x(), t(), { posWeight: 3 as unknown as Tensor }),
      /binaryCrossEntropyWithLogits: posWeight must be a tensor; got number/);
    expectThrowInEveryMode(() => F.binaryCrossEntropyWithLogits(x(), t(), { pos_weight: tpu.ones([3]) } as never), /pos_weight.*posWeight/);
  });
});
