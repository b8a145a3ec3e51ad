// PyTorch's integer dtypes end to end: index results (argmax argmin, max/min along a dim,
// sort argsort topk) are int64 and feed every index consumer (index_put_ too); integer arange and a bool
// tensor with a JS integer are int64; the ops users apply to such tensors accept them. In
// every mode and under tpu.compile, against PyTorch (dtype, shape and values exactly).
import { tpu } from 'tpu-kernel/runtime';
import { bool, f32, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const X = f32([[0.5, 3, -1, 2], [4, -2, 4, 0], [1, 1, 7, -3]]);

const indexResults: TorchCase[] = [
  { name: 'index results are int64', inputs: [X], js: (x) => [x.argmax(), x.argmin(1), x.max(1).indices, x.min(0, true).indices, x.sort(1).indices, x.argsort({ dim: 0, descending: true }), x.at('0:1').topk(2).indices], py: '(x0.argmax(), x0.argmin(1), x0.max(1).indices, x0.min(0, True).indices, x0.sort(dim=1, stable=True).indices, x0.argsort(dim=0, descending=True, stable=True), x0[0:1].topk(2).indices)' },
  { name: 'index results of int32 and bfloat16 inputs', inputs: [seq('int32', [2, 3], -1, 2), seq('bfloat16', [3, 2], 0.5, -2)], js: (a, b) => [a.argmax(1), b.argmin(0), a.topk(1).indices, b.sort(0).indices], py: '(x0.argmax(1), x1.argmin(0), x0.topk(1).indices, x1.sort(dim=0, stable=True).indices)' },
  { name: 'gather of argsort', inputs: [X], js: (x) => x.gather(1, x.argsort(1)), py: 'x0.gather(1, x0.argsort(dim=1, stable=True))' },
  { name: 'indexSelect and index of argmax', inputs: [X], js: (x) => [x.indexSelect(1, x.argmax(1)), x.index(x.argmin(0))], py: '(x0.index_select(1, x0.argmax(1)), x0[x0.argmin(0)])' },
  { name: 'at with topk indices', inputs: [X], js: (x) => x.at(':', x.topk(2, 1).indices.at(0)), py: 'x0[:, x0.topk(2, 1).indices[0]]' },
  { name: 'scatterAdd at argmax', inputs: [X], js: (x) => tpu.zeros([3, 4]).scatterAdd(1, x.argmax(1, true), x.amax(1, true)), py: 'torch.zeros(3, 4).scatter_add(1, x0.argmax(1, keepdim=True), x0.amax(1, keepdim=True))' },
  { name: 'indexPut at argmax', inputs: [X], js: (x) => [x.indexPut([tpu.arange(3), x.argmax(1)], 0), x.clone().setItem([x.argmin(0)], 1)], py: '(x0.index_put((torch.arange(3), x0.argmax(1)), torch.tensor(0.)), (lambda y: (y.__setitem__(x0.argmin(0), 1), y)[1])(x0.clone()))' },
  { name: 'oneHot of argmax', inputs: [X], js: (x) => F.oneHot(x.argmax(1), 4), py: 'F.one_hot(x0.argmax(1), 4)' },
  { name: 'embedding of argmin', inputs: [X], js: (x) => F.embedding(x.argmin(1), x), py: 'F.embedding(x0.argmin(1), x0)' },
  { name: 'crossEntropy with argmax targets', inputs: [X], js: (x) => [tpu.nn.crossEntropy(x.at('0:3', '0:3'), x.argmax(0).at('0:3').remainder(3)), tpu.nn.crossEntropy(x, x.argmin(1), { reduction: 'none' })], py: "(F.cross_entropy(x0[0:3, 0:3], x0.argmax(0)[0:3].remainder(3)), F.cross_entropy(x0, x0.argmin(1), reduction='none'))" },
  { name: 'arithmetic on indices', inputs: [X], js: (x) => [x.argmax(1).add(1), x.argmax(1).mul(x.argmin(1)), x.argmax(1).eq(2), x.sort(1).indices.sum(), x.argmax(1).to('float32').div(2)], py: '(x0.argmax(1) + 1, x0.argmax(1) * x0.argmin(1), x0.argmax(1) == 2, x0.sort(dim=1, stable=True).indices.sum(), x0.argmax(1).float() / 2)' },
];

const creation: TorchCase[] = [
  { name: 'integer arange is int64', inputs: [], js: () => [tpu.arange(5), tpu.arange(2, 9, 3), tpu.arange(4, -4, -3), tpu.arange(0)], py: '(torch.arange(5), torch.arange(2, 9, 3), torch.arange(4, -4, -3), torch.arange(0))' },
  { name: 'arange beyond 2^53 is exact', inputs: [], js: () => tpu.arange(2 ** 60, 2 ** 60 + 2 ** 12, 2 ** 10), py: 'torch.arange(2**60, 2**60 + 2**12, 2**10)' },
  { name: 'arange with a float stays float32', inputs: [], js: () => [tpu.arange(0, 2, 0.5), tpu.arange(3, { dtype: 'int32' })], py: '(torch.arange(0, 2, 0.5), torch.arange(3, dtype=torch.int32))' },
  { name: 'bool with a JS integer is int64', inputs: [bool([true, false, true])], js: (b) => [b.mul(2), b.add(1), tpu.where(b, 1, 0), b.mul(3).sub(b.mul(5))], py: '(x0 * 2, x0 + 1, torch.where(x0, 1, 0), x0 * 3 - x0 * 5)' },
  { name: 'int32 with a JS integer stays int32', inputs: [seq('int32', [3])], js: (a) => [a.mul(2), a.add(tpu.arange(3))], py: '(x0 * 2, x0 + torch.arange(3))' },
  { name: 'common ops on an int64 arange', inputs: [], js: () => { const a = tpu.arange(6).reshape([2, 3]); return [a.T, a.mul(3).sub(4), a.gt(2), a.sum(1), a.at(1, '1:'), a.to('float32').mean(), a.flatten().flip(0), a.div(4), a.remainder(4)]; }, py: 'a = torch.arange(6).reshape(2, 3)\nresult = (a.T, a * 3 - 4, a > 2, a.sum(1), a[1, 1:], a.float().mean(), a.flatten().flip(0), a / 4, a.remainder(4))' },
];

torchTier('int64 index results feed every index consumer, as PyTorch', indexResults, { compile: true });
torchTier('integer creation is int64, as PyTorch', creation, { compile: true });
