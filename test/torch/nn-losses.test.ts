// tpu.nn.functional's nllLoss l1Loss smoothL1Loss huberLoss klDiv cosineEmbeddingLoss against PyTorch 2.13: every
// reduction, class weights and ignored targets, NaN and ±inf, bfloat16, errors, and the
// gradients of input and target, at the kinks too (|d| = beta, delta; d = 0).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, i32, ids, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const N = NaN;
const INF = Infinity;
const REDUCTIONS = ['none', 'sum', 'mean'] as const;
/** The three reductions of one loss, as a list on both sides. */
const reductions = (name: string, inputs: TorchCase['inputs'], js: (r: 'none' | 'sum' | 'mean', ...xs: Tensor[]) => Tensor, py: (r: string) => string): TorchCase =>
  ({ name, inputs, js: (...xs) => REDUCTIONS.map((r) => js(r, ...xs)), py: `(${REDUCTIONS.map((r) => py(`'${r}'`)).join(', ')})` });
/** The gradients of Σ w·loss(x, y) (reduction 'none') for both inputs, on both sides. */
const grads2 = (name: string, inputs: TorchCase['inputs'], js: (x: Tensor, y: Tensor) => Tensor, py: string): TorchCase => ({
  name,
  inputs,
  js: (x, y) => { x!.requiresGrad_(); y!.requiresGrad_(); js(x!, y!).mul(tpu.arange(1, x!.numel() + 1).to('float32').reshape([...x!.shape])).sum().backward(); return [x!.grad!, y!.grad!]; },
  py: `x0.requires_grad_()\nx1.requires_grad_()\n((${py}) * torch.arange(1, x0.numel() + 1).float().reshape(x0.shape)).sum().backward()\nresult = (x0.grad, x1.grad)`,
  signedZeros: false,
});

const D_IN = f32([0, 1, -1, 0.5, 2, 3, -3, 0.25, 10, -0, 1e30, INF, -INF, N, 0]);
const D_TG = f32([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, N]);
const LOGP = f32([[-1.2, -0.4, -2], [-0.1, -3, -INF], [-0.7, -0.7, -2.1], [-5, -0.01, -6]]);

const cases: TorchCase[] = [
  // nllLoss
  reductions('nllLoss of int64 targets', [LOGP, ids([2, 0, 1, 1])], (r, x, t) => F.nllLoss(x, t, { reduction: r }), (r) => `F.nll_loss(x0, x1, reduction=${r})`),
  reductions('nllLoss with weights and an ignored target', [LOGP, ids([2, -100, 1, 0]), f32([0.5, 2, 1.5])], (r, x, t, w) => F.nllLoss(x, t, { reduction: r, weight: w }), (r) => `F.nll_loss(x0, x1, weight=x2, reduction=${r})`),
  reductions('nllLoss with ignoreIndex on a -inf log-probability', [LOGP, i32([2, 2, 1, 0])], (r, x, t) => F.nllLoss(x, t, { reduction: r, ignoreIndex: 2 }), (r) => `F.nll_loss(x0, x1.long(), ignore_index=2, reduction=${r})`),
  { name: 'nllLoss with every target ignored is NaN', inputs: [LOGP, ids([1, 1, 1, 1])], js: (x, t) => F.nllLoss(x, t, { ignoreIndex: 1 }), py: 'F.nll_loss(x0, x1, ignore_index=1)' },
  reductions('nllLoss of [N, C, d] and of [C]', [f32([[[-1, -2], [-0.5, -3], [-4, -0.1]], [[-2, -1], [-0.3, -0.2], [-1, -1]]]), ids([[0, 2], [1, 0]])], (r, x, t) => F.nllLoss(x, t, { reduction: r }), (r) => `F.nll_loss(x0, x1, reduction=${r})`),
  { name: 'nllLoss of a 1-d input', inputs: [f32([-1, -2, -0.5]), ids(2)], js: (x, t) => F.nllLoss(x, t), py: 'F.nll_loss(x0, x1)' },
  { name: 'nllLoss of bf16', inputs: [bf16([[-1.2, -0.4, -2], [-0.1, -3, -2.5]]), ids([2, 0])], js: (x, t) => [F.nllLoss(x, t), F.nllLoss(x, t, { reduction: 'none' })], py: "(F.nll_loss(x0, x1), F.nll_loss(x0, x1, reduction='none'))" },
  { name: 'nllLoss of float targets is an error', inputs: [LOGP, f32([2, 0, 1, 1])], js: (x, t) => F.nllLoss(x, t), py: 'F.nll_loss(x0, x1)' },
  { name: 'nllLoss of an out-of-range target is an error', inputs: [LOGP, ids([3, 0, 1, 1])], js: (x, t) => F.nllLoss(x, t), py: 'F.nll_loss(x0, x1)' },
  {
    name: 'nllLoss gradient with weights and an ignored target',
    inputs: [f32([[-1.2, -0.4, -2], [-0.1, -3, -9], [-0.7, -0.7, -2.1], [-5, -0.01, -6]]), ids([2, -100, 1, 0]), f32([0.5, 2, 1.5])],
    js: (x, t, w) => { x.requiresGrad_(); F.nllLoss(x, t, { weight: w }).backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\nF.nll_loss(x, x1, weight=x2).backward()\nresult = x.grad',
  },
  // l1Loss smoothL1Loss huberLoss
  reductions('l1Loss at the edges', [D_IN, D_TG], (r, x, t) => F.l1Loss(x, t, { reduction: r }), (r) => `F.l1_loss(x0, x1, reduction=${r})`),
  reductions('smoothL1Loss at the edges', [D_IN, D_TG], (r, x, t) => F.smoothL1Loss(x, t, { reduction: r }), (r) => `F.smooth_l1_loss(x0, x1, reduction=${r})`),
  { name: 'smoothL1Loss with beta 0.5, 3 and 0', inputs: [D_IN, D_TG], js: (x, t) => [0.5, 3, 0].map((beta) => F.smoothL1Loss(x, t, { reduction: 'none', beta })), py: "[F.smooth_l1_loss(x0, x1, reduction='none', beta=b) for b in (0.5, 3., 0.)]" },
  reductions('huberLoss at the edges', [D_IN, D_TG], (r, x, t) => F.huberLoss(x, t, { reduction: r }), (r) => `F.huber_loss(x0, x1, reduction=${r})`),
  { name: 'huberLoss with delta 0.5 and 3', inputs: [D_IN, D_TG], js: (x, t) => [0.5, 3].map((delta) => F.huberLoss(x, t, { reduction: 'none', delta })), py: "[F.huber_loss(x0, x1, reduction='none', delta=d) for d in (0.5, 3.)]" },
  { name: 'l1 smoothL1 huber of bf16', inputs: [bf16([0.3, -2.5, 7, 0.9]), bf16([0, 0.1, -1, 1.7])], js: (x, t) => [F.l1Loss(x, t), F.smoothL1Loss(x, t, { reduction: 'none' }), F.huberLoss(x, t, { reduction: 'none', delta: 2 })], py: "(F.l1_loss(x0, x1), F.smooth_l1_loss(x0, x1, reduction='none'), F.huber_loss(x0, x1, reduction='none', delta=2.))" },
  { name: 'smoothL1Loss with a negative beta is an error', inputs: [f32([1]), f32([0])], js: (x, t) => F.smoothL1Loss(x, t, { beta: -1 }), py: 'F.smooth_l1_loss(x0, x1, beta=-1.)' },
  { name: 'huberLoss with delta 0 is an error', inputs: [f32([1]), f32([0])], js: (x, t) => F.huberLoss(x, t, { delta: 0 }), py: 'F.huber_loss(x0, x1, delta=0.)' },
  grads2('l1Loss gradients at d = 0', [f32([0, 1, -1, 2, 0.5]), f32([0, 1, 0, -1, 0.5])], (x, t) => F.l1Loss(x, t, { reduction: 'none' }), "F.l1_loss(x0, x1, reduction='none')"),
  grads2('smoothL1Loss gradients at |d| = beta', [f32([0, 1, -1, 2, 0.5, 0.3, 4, -0.5, INF, -INF]), f32([0, 0, 0, 1, 0, 0, 3.5, 0, 0, 0])], (x, t) => F.smoothL1Loss(x, t, { reduction: 'none', beta: 0.5 }).add(F.smoothL1Loss(x, t, { reduction: 'none' })), "F.smooth_l1_loss(x0, x1, reduction='none', beta=0.5) + F.smooth_l1_loss(x0, x1, reduction='none')"),
  grads2('huberLoss gradients at |d| = delta', [f32([0, 1, -1, 2, 0.5, 0.3, 4, -0.5, INF, -INF]), f32([0, 0, 0, 1, 0, 0, 3.5, 0, 0, 0])], (x, t) => F.huberLoss(x, t, { reduction: 'none', delta: 0.5 }).add(F.huberLoss(x, t, { reduction: 'none' })), "F.huber_loss(x0, x1, reduction='none', delta=0.5) + F.huber_loss(x0, x1, reduction='none')"),
  {
    name: 'smoothL1Loss and huberLoss mean gradients',
    inputs: [f32([[0, 1.5], [-1, 0.2]]), f32([[1, 0], [0, 0]])],
    js: (x, t) => { x.requiresGrad_(); F.smoothL1Loss(x, t).add(F.huberLoss(x, t, { reduction: 'sum', delta: 2 })).backward(); return x.grad!; },
    py: 'x = x0.requires_grad_()\n(F.smooth_l1_loss(x, x1) + F.huber_loss(x, x1, reduction="sum", delta=2.)).backward()\nresult = x.grad',
  },
  // klDiv
  {
    name: 'klDiv of every reduction, zero targets included',
    inputs: [f32([[-1.2, -0.4, -2], [-0.1, -3, -INF], [-0.7, -0.7, -2.1]]), f32([[0.2, 0.5, 0.3], [1, 0, 0], [0, 0.6, 0.4]])],
    js: (x, t) => [F.klDiv(x, t, { reduction: 'none' }), F.klDiv(x, t, { reduction: 'sum' }), F.klDiv(x, t), F.klDiv(x, t, { reduction: 'batchmean' })],
    py: "(F.kl_div(x0, x1, reduction='none'), F.kl_div(x0, x1, reduction='sum'), F.kl_div(x0, x1), F.kl_div(x0, x1, reduction='batchmean'))",
  },
  {
    name: 'klDiv with logTarget, NaN and inf',
    inputs: [f32([[-1.2, -0.4, N], [-0.1, -3, INF]]), f32([[-1.6, -0.7, -1.2], [-INF, 0, -0.5]])],
    js: (x, t) => [F.klDiv(x, t, { reduction: 'none', logTarget: true }), F.klDiv(x, t, { reduction: 'batchmean', logTarget: true })],
    py: "(F.kl_div(x0, x1, reduction='none', log_target=True), F.kl_div(x0, x1, reduction='batchmean', log_target=True))",
  },
  { name: 'klDiv of a negative target is NaN', inputs: [f32([-1, -2]), f32([-0.5, 0.5])], js: (x, t) => F.klDiv(x, t, { reduction: 'none' }), py: "F.kl_div(x0, x1, reduction='none')" },
  { name: 'klDiv of bf16 and of a 0-d input with batchmean', inputs: [bf16([[-1.2, -0.4], [-0.3, -2]]), bf16([[0.3, 0.7], [0.9, 0.1]]), f32(-0.5), f32(0.25)], js: (x, t, a, b) => [F.klDiv(x, t, { reduction: 'batchmean' }), F.klDiv(a, b, { reduction: 'batchmean' })], py: "(F.kl_div(x0, x1, reduction='batchmean'), F.kl_div(x2, x3, reduction='batchmean'))" },
  // cosineEmbeddingLoss
  reductions('cosineEmbeddingLoss of alike and unalike pairs, a zero vector included', [f32([[1, 0, 2], [0, 0, 0], [3, -1, 2], [1, 1, 1]]), f32([[2, 1, 0], [1, 2, 3], [-3, 1, -2], [1, 1, 0.5]]), f32([1, -1, -1, 1])], (r, a, b, y) => F.cosineEmbeddingLoss(a, b, y, { reduction: r }), (r) => `F.cosine_embedding_loss(x0, x1, x2, reduction=${r})`),
  { name: 'cosineEmbeddingLoss with a margin, int labels and 1-d inputs', inputs: [f32([[1, 0, 2], [3, -1, 2], [1, 1, 1]]), f32([[2, 1, 0], [3, -1, 2.5], [-1, 1, 0.5]]), ids([-1, -1, -1]), f32([1, 2]), f32([2, 1]), f32(-1)], js: (a, b, y, c, d, z) => [F.cosineEmbeddingLoss(a, b, y, { margin: 0.5, reduction: 'none' }), F.cosineEmbeddingLoss(c, d, z)], py: "(F.cosine_embedding_loss(x0, x1, x2, margin=0.5, reduction='none'), F.cosine_embedding_loss(x3, x4, x5))" },
  {
    name: 'cosineEmbeddingLoss gradients',
    inputs: [f32([[1, 0, 2], [3, -1, 2], [1, 1, 1]]), f32([[2, 1, 0], [3, -1, 2.5], [-1, 1, 0.5]]), f32([1, -1, -1])],
    js: (a, b, y) => { a.requiresGrad_(); b.requiresGrad_(); F.cosineEmbeddingLoss(a, b, y, { margin: 0.2 }).backward(); return [a.grad!, b.grad!]; },
    py: 'x0.requires_grad_()\nx1.requires_grad_()\nF.cosine_embedding_loss(x0, x1, x2, margin=0.2).backward()\nresult = (x0.grad, x1.grad)',
    rtol: 1e-4,
  },
  grads2('klDiv gradients', [f32([[-1.2, -0.4, -2], [-0.1, -3, -1]]), f32([[0.2, 0.5, 0.3], [1, 0, 2]])], (x, t) => F.klDiv(x, t, { reduction: 'none' }), "F.kl_div(x0, x1, reduction='none')"),
  grads2('klDiv gradients with logTarget', [f32([[-1.2, -0.4, -2], [-0.1, -3, -1]]), f32([[-1.6, -0.7, -1.2], [-9, 0, -0.5]])], (x, t) => F.klDiv(x, t, { reduction: 'none', logTarget: true }), "F.kl_div(x0, x1, reduction='none', log_target=True)"),
];

torchTier('nn.functional losses follow PyTorch', cases, { compile: true });

describe('nn.functional loss options', () => {
  const x = tpu.tensor([[-1, -2], [-0.5, -1]]);
  const t = tpu.tensor(new Int32Array([0, 1]));
  it('name a mistyped option and suggest the right one', () => {
    expect(() => F.nllLoss(x, t, { ignore_index: 1 } as never)).toThrow(/nllLoss: unknown option 'ignore_index' \(did you mean 'ignoreIndex'\?\)/);
    expect(() => F.klDiv(x, x, { log_target: true } as never)).toThrow(/did you mean 'logTarget'/);
    expect(() => F.smoothL1Loss(x, x, { Beta: 1 } as never)).toThrow(/did you mean 'beta'/);
  });
  it('name a bad reduction, batchmean where it is one', () => {
    expect(() => F.l1Loss(x, x, { reduction: 'avg' } as never)).toThrow(/l1Loss: reduction must be 'mean', 'sum' or 'none'; got "avg"/);
    expect(() => F.klDiv(x, x, { reduction: 'avg' } as never)).toThrow(/klDiv: reduction must be 'mean', 'batchmean', 'sum' or 'none'; got "avg"/);
    expect(() => F.huberLoss(x, x, { delta: '1' } as never)).toThrow(/huberLoss: delta must be a number; got string "1"/);
  });
  it('name mismatched shapes', () => {
    expect(() => F.l1Loss(x, tpu.zeros([2]))).toThrow(/l1Loss: input \[2, 3\]|l1Loss: input \[2, 2\] and target \[2\] must have the same shape/);
    expect(() => F.nllLoss(x, tpu.tensor(new Int32Array([0])))).toThrow(/nllLoss: target must have shape \[2\]/);
  });
});
