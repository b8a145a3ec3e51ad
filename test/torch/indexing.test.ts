// Index ops and losses against PyTorch: negative and out-of-range indices (which wrap where
// PyTorch wraps, else an error), crossEntropy's options, views as operands.
import { tpu } from 'tpu-kernel/runtime';
import { f32, ids, seq, torchTier, type TorchCase } from './torch-tier.js';
import { describe, expect, it } from 'vitest';

const F = tpu.nn.functional;
const X = seq('float32', [3, 4]);
const LOGITS = f32([[1.5, -0.5, 0.25, 2], [0, 3, -1, 0.5], [-2, 1, 1, 0], [0.3, 0.2, 0.1, 4]]);
const W = f32([1, 2, 0.5, 3]);

const cases: TorchCase[] = [
  { name: 'indexSelect', inputs: [X, ids([2, 0, 2])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  { name: 'indexSelect negative index is an error', inputs: [X, ids([-1])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  { name: 'indexSelect out of range is an error', inputs: [X, ids([3])], js: (x, i) => x.indexSelect(0, i), py: 'x0.index_select(0, x1)' },
  { name: 'gather negative index is an error', inputs: [X, ids([[-1], [0], [0]])], js: (x, i) => x.gather(1, i), py: 'x0.gather(1, x1)' },
  { name: 'gather out of range is an error', inputs: [X, ids([[4], [0], [0]])], js: (x, i) => x.gather(1, i), py: 'x0.gather(1, x1)' },
  { name: 'scatterAdd', inputs: [X, ids([[1, 1], [0, 3], [2, 2]])], js: (x, i) => tpu.zeros([3, 4]).scatterAdd(1, i, x.at(':', '0:2')), py: 'torch.zeros(3, 4).scatter_add(1, x1, x0[:, 0:2])' },
  { name: 'scatterAdd negative index is an error', inputs: [X, ids([[-1], [0], [0]])], js: (x, i) => tpu.zeros([3, 4]).scatterAdd(1, i, x.at(':', '0:1')), py: 'torch.zeros(3, 4).scatter_add(1, x1, x0[:, 0:1])' },
  { name: 'oneHot', inputs: [ids([0, 2, 1])], js: (i) => F.oneHot(i, 3), py: 'F.one_hot(x0, 3)' },
  { name: 'oneHot negative is an error', inputs: [ids([-1, 0])], js: (i) => F.oneHot(i, 3), py: 'F.one_hot(x0, 3)' },
  { name: 'oneHot out of range is an error', inputs: [ids([3, 0])], js: (i) => F.oneHot(i, 3), py: 'F.one_hot(x0, 3)' },
  { name: 'embedding', inputs: [ids([[2, 0], [1, 1]]), X], js: (i, w) => F.embedding(i, w), py: 'F.embedding(x0, x1)' },
  { name: 'embedding with paddingIdx: that row gets no gradient, also counted from the end', inputs: [ids([[2, 0], [1, 2]]), X], js: (i, x) => { const w = x.clone().requiresGrad_(); const v = x.clone().requiresGrad_(); const out = F.embedding(i, w, { paddingIdx: 2 }); const back = F.embedding(i, v, { paddingIdx: -3 }); out.add(back).mul(tpu.arange(8).reshape([2, 2, 4])).sum().backward(); return [out, w.grad!, v.grad!]; }, py: 'w = x1.clone().requires_grad_(); v = x1.clone().requires_grad_(); out = F.embedding(x0, w, padding_idx=2); back = F.embedding(x0, v, padding_idx=-3)\n((out + back) * torch.arange(8).reshape(2, 2, 4)).sum().backward()\nresult = (out, w.grad, v.grad)' },
  { name: 'embedding with paddingIdx past the table is an error', inputs: [ids([1]), X], js: (i, w) => F.embedding(i, w, { paddingIdx: 3 }), py: 'F.embedding(x0, x1, padding_idx=3)' },
  { name: 'embedding negative is an error', inputs: [ids([-1]), X], js: (i, w) => F.embedding(i, w), py: 'F.embedding(x0, x1)' },
  { name: 'embedding out of range is an error', inputs: [ids([3]), X], js: (i, w) => F.embedding(i, w), py: 'F.embedding(x0, x1)' },
  { name: 'tensor index wraps negatives', inputs: [X, ids([-1, 0, -3])], js: (x, i) => x.index(i), py: 'x0[x1]' },
  { name: 'tensor index below -n is an error', inputs: [X, ids([-4])], js: (x, i) => x.index(i), py: 'x0[x1]' },
  { name: 'tensor index at n is an error', inputs: [X, ids([3])], js: (x, i) => x.index(i), py: 'x0[x1]' },
  { name: 'at with a tensor on dim 1 wraps negatives', inputs: [X, ids([-1, 1])], js: (x, i) => x.at(':', i), py: 'x0[:, x1]' },
  { name: 'crossEntropy', inputs: [LOGITS, ids([3, 1, 0, 3])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'crossEntropy reductions', inputs: [LOGITS, ids([3, 1, 0, 3])], js: (x, t) => [tpu.nn.crossEntropy(x, t, { reduction: 'sum' }), tpu.nn.crossEntropy(x, t, { reduction: 'none' })], py: "(F.cross_entropy(x0, x1, reduction='sum'), F.cross_entropy(x0, x1, reduction='none'))" },
  { name: 'crossEntropy ignores -100 by default', inputs: [LOGITS, ids([3, -100, 0, 3])], js: (x, t) => [tpu.nn.crossEntropy(x, t), tpu.nn.crossEntropy(x, t, { reduction: 'none' })], py: "(F.cross_entropy(x0, x1), F.cross_entropy(x0, x1, reduction='none'))" },
  { name: 'crossEntropy ignoreIndex', inputs: [LOGITS, ids([3, 1, 0, 3])], js: (x, t) => tpu.nn.crossEntropy(x, t, { ignoreIndex: 3 }), py: 'F.cross_entropy(x0, x1, ignore_index=3)' },
  { name: 'crossEntropy all ignored is NaN', inputs: [LOGITS, ids([-100, -100, -100, -100])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'crossEntropy weight', inputs: [LOGITS, ids([3, 1, 0, 3]), W], js: (x, t, w) => [tpu.nn.crossEntropy(x, t, { weight: w }), tpu.nn.crossEntropy(x, t, { weight: w, reduction: 'none' })], py: "(F.cross_entropy(x0, x1, weight=x2), F.cross_entropy(x0, x1, weight=x2, reduction='none'))" },
  { name: 'crossEntropy labelSmoothing', inputs: [LOGITS, ids([3, 1, 0, 3])], js: (x, t) => [tpu.nn.crossEntropy(x, t, { labelSmoothing: 0.1 }), tpu.nn.crossEntropy(x, t, { labelSmoothing: 0.2, reduction: 'none' })], py: "(F.cross_entropy(x0, x1, label_smoothing=0.1), F.cross_entropy(x0, x1, label_smoothing=0.2, reduction='none'))" },
  { name: 'crossEntropy all options together', inputs: [LOGITS, ids([3, 1, 2, 3]), W], js: (x, t, w) => tpu.nn.crossEntropy(x, t, { weight: w, ignoreIndex: 1, labelSmoothing: 0.3 }), py: 'F.cross_entropy(x0, x1, weight=x2, ignore_index=1, label_smoothing=0.3)' },
  // finite losses over infinite intermediates (log 0, -inf logits): debug mode must not reject them
  { name: 'crossEntropy with -inf logits of other classes', inputs: [f32([[0, -Infinity, 1], [2, 0, -Infinity]]), ids([0, 1])], js: (x, t) => [tpu.nn.crossEntropy(x, t), tpu.nn.crossEntropy(x, t, { reduction: 'none' })], py: "(F.cross_entropy(x0, x1), F.cross_entropy(x0, x1, reduction='none'))" },
  { name: 'crossEntropy ignored target over a -inf logit', inputs: [f32([[-Infinity, 0, 1], [2, 0, 1]]), ids([-100, 1])], js: (x, t) => [tpu.nn.crossEntropy(x, t), tpu.nn.crossEntropy(x, t, { reduction: 'none' })], py: "(F.cross_entropy(x0, x1), F.cross_entropy(x0, x1, reduction='none'))" },
  { name: 'binaryCrossEntropy at 0 and 1 clamps the log', inputs: [f32([0, 1, 0, 1, 0.5]), f32([0, 1, 1, 0, 0.5])], js: (p, t) => tpu.nn.binaryCrossEntropy(p, t, { reduction: 'none' }), py: "F.binary_cross_entropy(x0, x1, reduction='none')" },
  { name: 'crossEntropy negative target is an error', inputs: [LOGITS, ids([3, -1, 0, 3])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'crossEntropy target out of range is an error', inputs: [LOGITS, ids([4, 1, 0, 3])], js: (x, t) => tpu.nn.crossEntropy(x, t), py: 'F.cross_entropy(x0, x1)' },
  { name: 'crossEntropy probability targets', inputs: [LOGITS, f32([[0.5, 0.5, 0, 0], [0, 1, 0, 0], [0.25, 0.25, 0.25, 0.25], [0, 0, 0.1, 0.9]])], js: (x, t) => tpu.nn.crossEntropy(x, t, { labelSmoothing: 0.1 }), py: 'F.cross_entropy(x0, x1, label_smoothing=0.1)' },
  { name: 'crossEntropy [N, C, d] input', inputs: [seq('float32', [2, 3, 2], 0.25), ids([[0, 2], [1, 1]])], js: (x, t) => tpu.nn.crossEntropy(x, t, { reduction: 'none' }), py: "F.cross_entropy(x0, x1, reduction='none')" },
  // gradients through the options (autograd on both sides)
  {
    name: 'crossEntropy gradient with weight, ignoreIndex and labelSmoothing',
    inputs: [LOGITS, ids([3, 1, 2, 3]), W],
    js: (x, t, w) => { x.requiresGrad_(); tpu.nn.crossEntropy(x, t, { weight: w, ignoreIndex: 1, labelSmoothing: 0.3 }).backward(); return x.grad!; },
    py: '(lambda x: (F.cross_entropy(x, x1, weight=x2, ignore_index=1, label_smoothing=0.3).backward(), x.grad)[1])(x0.clone().requires_grad_())',
  },
  {
    // without class weights no product by the kept mask: the where alone zeroes an ignored sample
    name: 'crossEntropy gradient with ignored targets and no weight',
    inputs: [LOGITS, ids([3, -100, 0, 3])],
    js: (x, t) => { x.requiresGrad_(); tpu.nn.crossEntropy(x, t).backward(); return x.grad!; },
    py: '(lambda x: (F.cross_entropy(x, x1).backward(), x.grad)[1])(x0.clone().requires_grad_())',
  },
  {
    name: 'indexSelect and gather gradients accumulate repeated indices',
    inputs: [X, ids([2, 0, 2])],
    js: (x, i) => { x.requiresGrad_(); x.indexSelect(0, i).mul(x.indexSelect(0, i)).sum().backward(); return x.grad!; },
    py: '(lambda x: ((x.index_select(0, x1) ** 2).sum().backward(), x.grad)[1])(x0.clone().requires_grad_())',
  },
];

torchTier('index ops and losses vs PyTorch', cases);

describe('nn.Embedding with paddingIdx', () => {
  it("starts its padding row at zeros, as PyTorch's, and trains every other row", () => {
    const emb = new tpu.nn.Embedding(4, 2, { paddingIdx: -1 });
    expect(emb.paddingIdx).toBe(3);
    expect(emb.weight.at(3).tolist()).toEqual([0, 0]);
    emb.forward(tpu.tensor([3, 0, 3], { dtype: 'int64' })).sum().backward();
    expect(emb.weight.grad!.tolist()).toEqual([[1, 1], [0, 0], [0, 0], [0, 0]]);
    expect(String(emb)).toBe('Embedding(4, 2, paddingIdx=3)');
    expect(() => new tpu.nn.Embedding(4, 2, { padding_idx: 0 } as never)).toThrow(/nn\.Embedding: unknown option 'padding_idx' \(did you mean 'paddingIdx'\?\)/);
  });
});
