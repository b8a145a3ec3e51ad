// Reductions whose PyTorch dim is one int (max, min, argmax, argmin, prod) reject a list, as
// PyTorch raises (x.max([0, 1]) once reduced over both dims silently); those that take a list
// (sum, mean, amax, amin, std, var, logsumexp, any, all) keep taking it. Against PyTorch in
// every mode, and the error's words.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const A = f32([[1.5, -2, 3.25, 0], [4, 0.5, -1, 2], [7, -3, 0.25, 1]]);
const rejects = (name: string, js: TorchCase['js'], py: string): TorchCase => ({ name, inputs: [A], js, py });

const cases: TorchCase[] = [
  rejects('max over a list', (x) => x.max([0, 1] as never), 'x0.max([0, 1])'),
  rejects('min over a one-element list', (x) => x.min([0] as never), 'x0.min([0])'),
  rejects('max with a list as dim option', (x) => x.max({ dim: [0, 1] } as never), 'x0.max(dim=[0, 1])'),
  rejects('argmax over a list', (x) => x.argmax([0, 1] as never), 'x0.argmax([0, 1])'),
  rejects('argmin over a list', (x) => x.argmin({ dim: [1] } as never), 'x0.argmin(dim=[1])'),
  rejects('prod over a list', (x) => x.prod([0, 1] as never), 'x0.prod([0, 1])'),
  rejects('prod over a list with keepdim', (x) => x.prod({ dim: [1], keepdim: true } as never), 'x0.prod(dim=[1], keepdim=True)'),
  {
    name: 'sum mean amax amin std var logsumexp any all over a list',
    inputs: [A],
    js: (x) => [x.sum([0, 1]), x.mean([0, 1], { keepdim: true }), x.amax([0, 1]), x.amin([1]), x.std([0, 1]), x.var([1]), x.logsumexp([0, 1]), x.any([0, 1]), x.all([1])],
    py: '(x0.sum([0, 1]), x0.mean([0, 1], keepdim=True), x0.amax([0, 1]), x0.amin([1]), x0.std([0, 1]), x0.var([1]), x0.logsumexp([0, 1]), x0.any([0, 1]), x0.all([1]))',
  },
  { name: 'max min argmax prod over one int dim', inputs: [A], js: (x) => [...x.max(1), ...x.min(0), x.argmax(0), x.prod(1)], py: '(*x0.max(1), *x0.min(0), x0.argmax(0), x0.prod(1))' },
];

torchTier('one-int dims vs PyTorch', cases);

describe('a list where one int dim is expected names the argument and what reduces over several', () => {
  const x = () => tpu.tensor([[1, 5], [7, 2]]);
  it.each([
    ['x.max([0, 1])', () => x().max([0, 1] as never), "max: dim must be one integer, as in PyTorch's max; got the array [0,1]. For the maximum over several dims, x.amax(dims) takes a list (values only)."],
    ['x.min([0, 1])', () => x().min([0, 1] as never), "min: dim must be one integer, as in PyTorch's min; got the array [0,1]. For the minimum over several dims, x.amin(dims) takes a list (values only)."],
    ['x.argmax([0, 1])', () => x().argmax([0, 1] as never), "argmax: dim must be one integer, as in PyTorch's argmax; got the array [0,1]. For the index over several dims, flatten them first: x.flatten(start, end).argmax(start)."],
    ['x.prod([0, 1], { keepdim: true })', () => x().prod([0, 1] as never, { keepdim: true }), "prod: dim must be one integer, as in PyTorch's prod; got the array [0,1]. For the product over several dims, take one dim at a time: x.prod(1).prod(0)."],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(message);
  });
});
