// x[i, j] with several int tensors or lists, PyTorch's advanced indexing, against PyTorch 2.13
// in every mode and under tpu.compile: the indices broadcast together; adjacent indexed dims
// give the broadcast shape in their place, separated ones put it first; negatives count from
// the end; gradients reach the picked elements (a picked twice element gets both).
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, ids, torchTier, weightedGrad, type TorchCase } from './torch-tier.js';

const x3 = f32([[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]);

const cases: TorchCase[] = [
  { name: "each row's entry at its target: logits[arange(n), y]", inputs: [f32([[1, 2, 3], [4, 5, 6]]), ids([2, 0])], js: (l, y) => [l.at(tpu.arange(2), y), l.index(tpu.arange(2), y), l.at([0, 1], y)], py: '(x0[torch.arange(2), x1], x0[torch.arange(2), x1], x0[[0, 1], x1])' },
  { name: 'indices broadcast together, negatives from the end', inputs: [x3, ids([[0], [1]]), ids([-1, 0, 2])], js: (x, i, j) => [x.at(i, j), x.at(':', i.reshape([2]), j.at('0:2'))], py: '(x0[x1, x2], x0[:, x1.reshape(2), x2[0:2]])' },
  { name: 'adjacent indexed dims keep their place; a slice between puts them first', inputs: [x3, ids([1, 0]), ids([3, 1])], js: (x, i, j) => [x.at(':', i, j), x.at(i, ':', j), x.at(i, '1:3', j), x.at('...', i, j)], py: '(x0[:, x1, x2], x0[x1, :, x2], x0[x1, 1:3, x2], x0[..., x1, x2])' },
  { name: 'three indices, int32 beside int64, and 0-d indices', inputs: [x3, i32([1, 0, 1]), ids([2, 2, 0]), ids([3, 0, 1])], js: (x, i, j, k) => [x.at(i, j, k), x.at(i.at(0), j.at(1), k.at(2))], py: '(x0[x1, x2, x3], x0[x1[0], x2[1], x3[2]])' },
  { name: 'an index past its dim is an error, not a neighbour', inputs: [f32([[1, 2, 3], [4, 5, 6]]), ids([0, 1]), ids([3, 0])], js: (l, i, j) => l.at(i, j), py: 'x0[x1, x2]' },
  { name: 'indices that do not broadcast are an error', inputs: [f32([[1, 2, 3], [4, 5, 6]]), ids([0, 1]), ids([0, 1, 2])], js: (l, i, j) => l.at(i, j), py: 'x0[x1, x2]' },
  weightedGrad('the gradient of x[i, j] with a repeated pick', f32([[1, 2, 3], [4, 5, 6]]), (x) => x.at(tpu.tensor([1, 1, 0], { dtype: 'int64' }), tpu.tensor([2, 2, 0], { dtype: 'int64' })), 'x[torch.tensor([1, 1, 0]), torch.tensor([2, 2, 0])]', [1, 2, 3]),
];

torchTier('advanced indexing with several indices follows PyTorch', cases, { compile: true });

describe('x.index', () => {
  it('with no index is an error naming what to give', () => {
    expect(() => tpu.ones([2]).index(...([] as unknown as [never]))).toThrow('index: give at least one index (x.index(i), or x.index(i, j) for x[i, j])');
  });
});
