// tpu.nn.functional's normalize, cosineSimilarity and pairwiseDistance against PyTorch 2.13: norms below eps
// (zero and tiny vectors), p and dim, broadcasting, NaN and inf, bfloat16, errors and gradients.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { bf16, f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const N = NaN;
const INF = Infinity;
const ROWS = f32([[3, 4, 0], [0, 0, 0], [1e-13, 0, -2e-13], [1e30, 1e30, 0], [-1, 2, -2], [1, N, 0], [INF, 1, 0], [2e-9, 1e-9, 0]]);
const OTHER = f32([[1, 0, 0], [1, 2, 3], [0, 1e-13, 1], [1, 1, 0], [-1, 2, -2], [1, 2, 3], [1, 0, 0], [1e-9, 1e-9, 0]]);
/** The gradients of Σ w·f(x0, x1) for both inputs, on both sides, w of f's shape. */
const grads2 = (name: string, inputs: TorchCase['inputs'], js: (x: Tensor, y: Tensor) => Tensor, py: string): TorchCase => ({
  name,
  inputs,
  js: (x, y) => { x!.requiresGrad_(); y!.requiresGrad_(); const f = js(x!, y!); f.mul(tpu.arange(1, f.numel() + 1).to('float32').reshape([...f.shape])).sum().backward(); return [x!.grad!, y!.grad!]; },
  py: `x0.requires_grad_()\nx1.requires_grad_()\nf = ${py}\n(f * torch.arange(1, f.numel() + 1).float().reshape(f.shape)).sum().backward()\nresult = (x0.grad, x1.grad)`,
  rtol: 1e-4,
  signedZeros: false,
});

const cases: TorchCase[] = [
  { name: 'normalize of rows, zero and tiny ones included', inputs: [ROWS], js: (x) => [F.normalize(x), F.normalize(x, { dim: 0 }), F.normalize(x, { p: 1, dim: -1 }), F.normalize(x, { p: INF, eps: 1e-3 })], py: '(F.normalize(x0), F.normalize(x0, dim=0), F.normalize(x0, p=1, dim=-1), F.normalize(x0, p=float("inf"), eps=1e-3))' },
  { name: 'normalize of bf16', inputs: [bf16([[3, 4], [0.1, -0.3], [0, 0]])], js: (x) => F.normalize(x), py: 'F.normalize(x0)' },
  { name: 'normalize of ints is an error', inputs: [i32([[3, 4]])], js: (x) => F.normalize(x), py: 'F.normalize(x0)' },
  { name: 'cosineSimilarity of rows, zero and tiny ones included', inputs: [ROWS, OTHER], js: (a, b) => [F.cosineSimilarity(a, b), F.cosineSimilarity(a, b, { dim: 0 }), F.cosineSimilarity(a, b, { dim: -1, eps: 1e-3 })], py: '(F.cosine_similarity(x0, x1), F.cosine_similarity(x0, x1, dim=0), F.cosine_similarity(x0, x1, dim=-1, eps=1e-3))' },
  { name: 'cosineSimilarity broadcasts', inputs: [f32([1, 2, 3]), f32([[1, 0, 0], [0, 1, 0], [-1, -2, -3]])], js: (a, b) => [F.cosineSimilarity(a, b, { dim: -1 }), F.cosineSimilarity(b, a)], py: '(F.cosine_similarity(x0, x1, dim=-1), F.cosine_similarity(x1, x0))' },
  { name: 'cosineSimilarity of bf16', inputs: [bf16([[3, 4], [0.1, -0.3]]), bf16([[1, 1], [2, 0.5]])], js: (a, b) => F.cosineSimilarity(a, b), py: 'F.cosine_similarity(x0, x1)' },
  { name: 'cosineSimilarity of ints is an error', inputs: [i32([1, 2]), i32([1, 0])], js: (a, b) => F.cosineSimilarity(a, b, { dim: 0 }), py: 'F.cosine_similarity(x0, x1, dim=0)' },
  { name: 'pairwiseDistance of rows, equal ones included', inputs: [ROWS, OTHER], js: (a, b) => [F.pairwiseDistance(a, b), F.pairwiseDistance(a, b, { p: 1, eps: 0, keepdim: true }), F.pairwiseDistance(a, b, { p: INF })], py: '(F.pairwise_distance(x0, x1), F.pairwise_distance(x0, x1, p=1, eps=0, keepdim=True), F.pairwise_distance(x0, x1, p=float("inf")))' },
  { name: 'pairwiseDistance broadcasts, and of bf16', inputs: [f32([1, 2, 3]), f32([[1, 0, 0], [1, 2, 3]]), bf16([[0.5, 1], [2, 3]])], js: (a, b, h) => [F.pairwiseDistance(a, b), F.pairwiseDistance(h, h.flip(0))], py: '(F.pairwise_distance(x0, x1), F.pairwise_distance(x2, x2.flip(0)))' },
  grads2('pairwiseDistance gradients, a zero distance included', [f32([[3, 4, 0], [1, 2, 3], [-1, 2, -2]]), f32([[1, 0, 0], [1, 2, 3], [2, 2, 2]])], (a, b) => F.pairwiseDistance(a, b).add(F.pairwiseDistance(a, b, { p: 1, eps: 0 })), 'F.pairwise_distance(x0, x1) + F.pairwise_distance(x0, x1, p=1, eps=0)'),
  grads2('normalize gradients, norms below eps included', [f32([[3, 4, 0], [0, 0, 0], [1e-13, 0, -2e-13], [-1, 2, -2]]), f32([[1, 0, 0], [1, 2, 3], [0, 1, 1], [2, 2, 2]])], (a, b) => F.normalize(a).add(F.normalize(b, { p: 1, dim: 0 })), 'F.normalize(x0) + F.normalize(x1, p=1, dim=0)'),
  grads2('cosineSimilarity gradients, norms below eps included', [f32([[3, 4, 0], [0, 0, 0], [2e-9, 1e-9, 0], [-1, 2, -2]]), f32([[1, 0, 0], [1, 2, 3], [1e-9, 1e-9, 0], [-1, 2, -2]])], (a, b) => F.cosineSimilarity(a, b), 'F.cosine_similarity(x0, x1)'),
];

torchTier('nn.functional normalize, cosineSimilarity and pairwiseDistance follow PyTorch', cases, { compile: true });

describe('normalize and cosineSimilarity options', () => {
  const x = tpu.tensor([[1, 2]]);
  it('name a mistyped option and a bad value', () => {
    expect(() => F.normalize(x, { axis: 1 } as never)).toThrow(/normalize: unknown option 'axis'/);
    expect(() => F.cosineSimilarity(x, x, { Eps: 1 } as never)).toThrow(/did you mean 'eps'/);
    expect(() => F.normalize(x, { eps: null } as never)).toThrow(/normalize: eps must be a number; got null/);
    expect(() => F.cosineSimilarity(x, tpu.zeros([3]))).toThrow(/cosineSimilarity/);
    expect(() => F.pairwiseDistance(x, x, { keepDim: true } as never)).toThrow(/did you mean 'keepdim'/);
  });
});
