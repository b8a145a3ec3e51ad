// scatter's reduce option ('add', 'multiply': PyTorch's reduce=, once silently ignored) and the
// in-place scatter_, scatterAdd_ and scatterReduce_ against PyTorch 2.13, in every mode and under
// tpu.compile: repeated indices, a view as target, int tensors, gradients, errors.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { i32, i64, torchTier, uniform, type TorchCase } from './torch-tier.js';

const X = uniform([3, 4], 1);
const REPEATED = i64([[0, 0], [1, 1], [3, 0]]);
const SRC = uniform([3, 2], 3);

const cases: TorchCase[] = [
  {
    name: 'scatter with reduce multiply and add, a value or a tensor, and scatter_ with reduce',
    inputs: [X, REPEATED],
    js: (a, i) => [a.scatter(1, i, 2, { reduce: 'multiply' }), a.scatter(1, i, a.gather(1, i), { reduce: 'add' }), tpu.scatter(a, 1, i, a.gather(1, i), { reduce: 'multiply' }),
      a.clone().scatter_(1, i, 3, { reduce: 'add' })],
    py: '[x0.scatter(1, x1, 2, reduce="multiply"), x0.scatter(1, x1, x0.gather(1, x1), reduce="add"), torch.scatter(x0, 1, x1, x0.gather(1, x1), reduce="multiply"), x0.clone().scatter_(1, x1, 3, reduce="add")]',
  },
  {
    name: 'scatter with reduce of int32 tensors',
    inputs: [i32([[1, 2], [3, 4]]), i64([[0, 0], [1, 1]])],
    js: (a, i) => [a.scatter(1, i, 3, { reduce: 'multiply' }), a.clone().scatter_(1, i, a, { reduce: 'add' })],
    py: '[x0.scatter(1, x1, 3, reduce="multiply"), x0.clone().scatter_(1, x1, x0, reduce="add")]',
  },
  {
    name: 'scatter_ of a value and of a tensor',
    inputs: [X, i64([[0], [1], [3]])],
    js: (a, i) => [a.clone().scatter_(1, i, 1), a.clone().scatter_(1, i, a.gather(1, i).mul(2))],
    py: '[x0.clone().scatter_(1, x1, 1), x0.clone().scatter_(1, x1, x0.gather(1, x1) * 2)]',
  },
  { name: 'scatterAdd_ with repeated indices', inputs: [X, REPEATED, SRC], js: (a, i, s) => a.clone().scatterAdd_(1, i, s), py: 'x0.clone().scatter_add_(1, x1, x2)' },
  {
    name: 'scatterReduce_ amax and mean without self',
    inputs: [X, REPEATED, SRC],
    js: (a, i, s) => [a.clone().scatterReduce_(1, i, s, 'amax'), a.clone().scatterReduce_(1, i, s, 'mean', { includeSelf: false })],
    py: '[x0.clone().scatter_reduce_(1, x1, x2, "amax"), x0.clone().scatter_reduce_(1, x1, x2, "mean", include_self=False)]',
  },
  {
    name: 'scatter_ through a view writes the base',
    inputs: [X, i64([[0], [2]])],
    js: (a, i) => { const b = a.clone(); b.narrow(0, 1, 2).scatter_(1, i, -1); return b; },
    py: 'b = x0.clone()\nb.narrow(0, 1, 2).scatter_(1, x1, -1)\nresult = b',
  },
  {
    name: 'scatterReduce_ prod gradients of the target and src',
    inputs: [uniform([2, 3], 4), i64([[0, 0], [2, 1]]), uniform([2, 2], 5)],
    js: (a, i, s) => {
      a.requiresGrad_(); s.requiresGrad_();
      const b = a.mul(1);
      b.scatterReduce_(1, i, s, 'prod');
      b.mul(tpu.arange(6).reshape([2, 3]).add(1)).sum().backward();
      return [b, a.grad!, s.grad!];
    },
    py: 'x0.requires_grad_(); x2.requires_grad_()\nb = x0 * 1\nb.scatter_reduce_(1, x1, x2, "prod")\n(b * (torch.arange(6).reshape(2, 3) + 1)).sum().backward()\nresult = [b, x0.grad, x2.grad]',
    rtol: 1e-5,
    atol: 1e-5,
  },
  { name: 'scatter_ of a float tensor into an int32 tensor is an error', inputs: [i32([[1, 2]]), i64([[0]])], js: (a, i) => a.clone().scatter_(1, i, tpu.tensor([[1.5]])), py: 'x0.clone().scatter_(1, x1, torch.tensor([[1.5]]))' },
  { name: 'scatter with reduce mean is an error', inputs: [uniform([2], 6), i64([0])], js: (a, i) => a.scatter(0, i, 1, { reduce: 'mean' as never }), py: 'x0.scatter(0, x1, 1, reduce="mean")' },
];

torchTier('scatter reduce= and the in-place scatters follow PyTorch', cases, { compile: true });

describe('scatter names its bad options', () => {
  it('says which option and what it takes', () => {
    const x = tpu.zeros([3]);
    const i = tpu.tensor([0], { dtype: 'int64' });
    expect(() => x.scatter(0, i, 1, { reduction: 'add' } as never)).toThrow(/scatter: unknown option 'reduction'.*'reduce'/);
    expect(() => x.scatter(0, i, 1, { reduce: 'sum' as never })).toThrow(/scatter: reduce must be 'add' or 'multiply'; got string "sum"/);
    expect(() => x.scatter_(0, i, 1, { reduce: 'max' as never })).toThrow(/scatter: reduce must be 'add' or 'multiply'; got string "max"/);
  });
});
