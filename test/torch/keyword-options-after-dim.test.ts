// PyTorch's keyword arguments after a positional dim, `x.sum(1, keepdim=True)`, written
// `x.sum(1, { keepdim: true })`, against PyTorch in every mode; a misspelt key is an error
// naming the op, the key and the keys accepted.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const A = f32([[1.5, -2, 3.25, 0], [4, 0.5, -1, 2], [7, -3, 0.25, 1]]);

const cases: TorchCase[] = [
  { name: 'sum and mean with keepdim after dim', inputs: [A], js: (x) => [x.sum(1, { keepdim: true }), x.mean(0, { keepdim: true }), x.sum([0, 1], { keepdim: true })], py: '(x0.sum(1, keepdim=True), x0.mean(0, keepdim=True), x0.sum([0, 1], keepdim=True))' },
  { name: 'sum with dtype after dim', inputs: [i32([[1, 2], [3, 4]])], js: (x) => x.sum(0, { dtype: 'float32', keepdim: true }), py: 'x0.sum(0, dtype=torch.float32, keepdim=True)' },
  { name: 'amax amin prod any all logsumexp with keepdim after dim', inputs: [A], js: (x) => [x.amax(1, { keepdim: true }), x.amin(0, { keepdim: true }), x.prod(1, { keepdim: true }), x.any(0, { keepdim: true }), x.all(1, { keepdim: true }), x.logsumexp(1, { keepdim: true })], py: '(x0.amax(1, keepdim=True), x0.amin(0, keepdim=True), x0.prod(1, keepdim=True), x0.any(0, keepdim=True), x0.all(1, keepdim=True), x0.logsumexp(1, keepdim=True))' },
  { name: 'max min argmax argmin with keepdim after dim', inputs: [A], js: (x) => [...x.max(1, { keepdim: true }), ...x.min(0, { keepdim: true }), x.argmax(1, { keepdim: true }), x.argmin(0, { keepdim: true })], py: '(*x0.max(1, keepdim=True), *x0.min(0, keepdim=True), x0.argmax(1, keepdim=True), x0.argmin(0, keepdim=True))' },
  { name: 'sort and argsort with descending after dim', inputs: [A], js: (x) => [...x.sort(0, { descending: true }), x.argsort(1, { descending: true })], py: '(*x0.sort(dim=0, descending=True, stable=True), x0.argsort(dim=1, descending=True, stable=True))' },
  { name: 'sort with dim and descending as keywords', inputs: [A], js: (x) => x.sort({ dim: 0, descending: true }), py: 'x0.sort(dim=0, descending=True, stable=True)' },
  { name: 'topk with largest after dim', inputs: [A], js: (x) => x.topk(2, 0, { largest: false }), py: 'x0.topk(2, 0, largest=False)' },
  { name: 'norm with dim then keepdim as keywords', inputs: [A], js: (x) => [x.norm(1, { dim: 1, keepdim: true }), x.norm(2, 0, { keepdim: true })], py: '(torch.linalg.vector_norm(x0, 1, dim=1, keepdim=True), torch.linalg.vector_norm(x0, 2, 0, keepdim=True))' },
];

torchTier('keyword options after a positional dim vs PyTorch', cases);

describe('options after a positional dim are checked', () => {
  const x = () => tpu.tensor([[1, 2], [3, 4]]);
  it.each([
    ['x.sum(1, { keepDim: true })', () => x().sum(1, { keepDim: true } as never), "sum: unknown option 'keepDim' (did you mean 'keepdim'?); sum accepts 'keepdim', 'dtype'"],
    ['x.mean(1, { keepdims: true })', () => x().mean(1, { keepdims: true } as never), "mean: unknown option 'keepdims' (did you mean 'keepdim'?); mean accepts 'keepdim'"],
    ['x.max(1, { keep: true })', () => x().max(1, { keep: true } as never), "max: unknown option 'keep'; max accepts 'keepdim'"],
    ['x.sort(0, { descend: true })', () => x().sort(0, { descend: true } as never), "sort: unknown option 'descend'; sort accepts 'descending', 'stable'"],
    ['x.sum(1, { dim: 0 })', () => x().sum(1, { dim: 0 } as never), 'sum: dim is given twice: positionally (1) and in the options (0)'],
    ['x.sum(1, { keepdim: 1 })', () => x().sum(1, { keepdim: 1 } as never), 'sum: keepdim must be a boolean; got 1'],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
