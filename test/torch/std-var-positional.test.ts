// std and var in PyTorch's positional form std(dim, unbiased = true, keepdim = false): the
// second positional is unbiased (it was once taken as keepdim), and the keyword forms.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { bf16, f32, torchTier, type TorchCase } from './torch-tier.js';

const A = f32([[1.5, -2, 3.25, 0], [4, 0.5, -1, 2], [7, -3, 0.25, 1]]);

const cases: TorchCase[] = [
  { name: 'std(dim, unbiased) true and false', inputs: [A], js: (x) => [x.std(0, true), x.std(0, false), x.var(1, true), x.var(1, false)], py: '(x0.std(0, True), x0.std(0, False), x0.var(1, True), x0.var(1, False))' },
  { name: 'std(dim, unbiased, keepdim)', inputs: [A], js: (x) => [x.std(1, false, true), x.var([0, 1], true, true)], py: '(x0.std(1, False, True), x0.var([0, 1], True, True))' },
  { name: 'std(unbiased) over all elements', inputs: [A], js: (x) => [x.std(false), x.var(true)], py: '(x0.std(False), x0.var(True))' },
  { name: 'correction, unbiased and keepdim after dim', inputs: [A], js: (x) => [x.std(0, { correction: 0 }), x.var(1, { unbiased: false, keepdim: true }), x.std(1, { correction: 2 })], py: '(x0.std(0, correction=0), x0.var(1, unbiased=False, keepdim=True), x0.std(1, correction=2))' },
  { name: 'std(dim, unbiased) of bf16', inputs: [bf16([[1.5, 2.25, 3], [7.5, 0.125, -1]])], js: (x) => [x.std(1, false), x.var(0, true)], py: '(x0.std(1, False), x0.var(0, True))' },
];

torchTier('std and var positional forms vs PyTorch', cases);

describe('std and var arguments are checked', () => {
  const x = () => tpu.tensor([[1, 2], [3, 5]]);
  it.each([
    ['unbiased and correction together', () => x().std(0, { unbiased: false, correction: 0 }), 'std: give unbiased or correction, not both (unbiased false, correction 0)'],
    ['a positional after the options', () => x().var({ dim: 0 }, true), 'var: no argument may follow the options; got true'],
    ['a non-boolean unbiased', () => x().std(0, 1 as never), 'std: unbiased must be a boolean; got 1'],
    ['a misspelt key', () => x().var(0, { unbaised: false } as never), "var: unknown option 'unbaised'; var accepts 'keepdim', 'correction', 'unbiased'"],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
