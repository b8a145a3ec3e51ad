// einsum's diagonals ('ii->i', traces, batch letters) and ellipsis ('...', broadcast as in
// PyTorch), values and gradients, in every mode and under tpu.compile; oneHot's numClasses -1
// (inferred from the largest index, a read of device data: eager modes only).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { f32, ids, seq, torchTier, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const INF = Infinity;

/** d(sum(f(x) * weights))/dx on both sides, weights 1, 2, 3, ... so every output counts apart. */
function grad(name: string, x: Parameters<typeof seq>, js: (x: Tensor) => Tensor, pyExpr: string): TorchCase {
  return {
    name,
    inputs: [seq(...x)],
    js: (v) => {
      const p = v.detach().requiresGrad_();
      const out = js(p);
      out.mul(tpu.arange(out.numel(), { dtype: 'float32' }).add(1).reshape([...out.shape])).sum().backward();
      return p.grad!;
    },
    py: `(lambda x: ((lambda o: (o * torch.arange(1., o.numel() + 1).reshape(o.shape)).sum())(${pyExpr}).backward(), x.grad)[1])(x0.clone().requires_grad_())`,
  };
}

const einsumCases: TorchCase[] = [
  { name: 'einsum diagonal and trace', inputs: [seq('float32', [3, 3], 1)], js: (a) => [tpu.einsum('ii->i', a), tpu.einsum('ii->', a), tpu.einsum('ii', a)], py: "(torch.einsum('ii->i', x0), torch.einsum('ii->', x0), torch.einsum('ii', x0))" },
  { name: 'einsum diagonal leaves NaN and inf off the diagonal out', inputs: [f32([[1, NaN, -INF], [-INF, INF, NaN], [NaN, NaN, -0]])], js: (a) => [tpu.einsum('ii->i', a), tpu.einsum('ii', a)], py: "(torch.einsum('ii->i', x0), torch.einsum('ii', x0))" },
  { name: 'einsum diagonal with more dims and batch letters', inputs: [seq('float32', [3, 3, 2], 0.5, -4), seq('float32', [2, 3, 3, 4], 0.25, -9), seq('float32', [3, 4, 3], 0.5, -7)], js: (a, b, c) => [tpu.einsum('iij->j', a), tpu.einsum('iij->ji', a), tpu.einsum('biij->bj', b), tpu.einsum('biij->bij', b), tpu.einsum('bjji,jij->bj', b, c), tpu.einsum('bjji,jij->bji', b, c.transpose(0, 2))], py: "(torch.einsum('iij->j', x0), torch.einsum('iij->ji', x0), torch.einsum('biij->bj', x1), torch.einsum('biij->bij', x1), torch.einsum('bjji,jij->bj', x1, x2), torch.einsum('bjji,jij->bji', x1, x2.transpose(0, 2)))" },
  { name: 'einsum triple diagonal', inputs: [seq('float32', [3, 3, 3], 1)], js: (a) => [tpu.einsum('iii->i', a), tpu.einsum('iii', a)], py: "(torch.einsum('iii->i', x0), torch.einsum('iii', x0))" },
  { name: 'einsum with an ellipsis', inputs: [seq('float32', [3, 3], 1), seq('float32', [2, 4, 3], 0.5)], js: (a, b) => [tpu.einsum('...j,jk->...k', b, a), tpu.einsum('...ij,jk', b, a), tpu.einsum('...ij,jk->ik', b, a), tpu.einsum('i...->...', b), tpu.einsum('...->...', b)], py: "(torch.einsum('...j,jk->...k', x1, x0), torch.einsum('...ij,jk', x1, x0), torch.einsum('...ij,jk->ik', x1, x0), torch.einsum('i...->...', x1), torch.einsum('...->...', x1))" },
  { name: 'einsum ellipsis dims broadcast', inputs: [seq('float32', [2, 1, 3, 4], 0.5, -5), seq('float32', [5, 4, 2], 0.25, -3)], js: (a, b) => [tpu.einsum('...ij,...jk->...ik', a, b), tpu.einsum('...ij,...jk', a, b)], py: "(torch.einsum('...ij,...jk->...ik', x0, x1), torch.einsum('...ij,...jk', x0, x1))" },
  { name: 'einsum ellipsis with a diagonal and a 0-d operand', inputs: [seq('float32', [2, 3, 3], 1), f32(2.5)], js: (a, s) => [tpu.einsum('...ii->...i', a), tpu.einsum('...ii,...->...', a, s)], py: "(torch.einsum('...ii->...i', x0), torch.einsum('...ii,...->...', x0, x1))" },
  { name: 'einsum sums a dim broadcast from 1', inputs: [seq('float32', [2, 1], 1, 1), seq('float32', [3, 4], 0.5), seq('float32', [1, 4], 1, -2)], js: (a, b, c) => [tpu.einsum('ij,jk->ik', a, b), tpu.einsum('ij,jk->ik', b.T, c), tpu.einsum('ij,jk', b.T, c)], py: "(torch.einsum('ij,jk->ik', x0, x1), torch.einsum('ij,jk->ik', x1.T, x2), torch.einsum('ij,jk', x1.T, x2))" },
  grad('einsum trace gradient', ['float32', [3, 3], 1], (x) => tpu.einsum('ii', x), "torch.einsum('ii', x)"),
  grad('einsum diagonal gradient with batch letters', ['float32', [2, 3, 3, 2], 0.5], (x) => tpu.einsum('biij->bj', x), "torch.einsum('biij->bj', x)"),
  grad('einsum ellipsis gradient', ['float32', [2, 3, 4], 0.5, -6], (x) => tpu.einsum('...ij,...kj->...ik', x, x), "torch.einsum('...ij,...kj->...ik', x, x)"),
];

torchTier('einsum diagonals and ellipsis follow PyTorch', einsumCases, { compile: true });

const oneHotCases: TorchCase[] = [
  { name: 'oneHot with numClasses -1', inputs: [ids([2, 0, 3])], js: (i) => [F.oneHot(i, -1), F.oneHot(i)], py: '(F.one_hot(x0, -1), F.one_hot(x0))' },
  { name: 'oneHot -1 of computed indices', inputs: [ids([[1, 0], [4, 2]])], js: (i) => F.oneHot(i.mul(2).T), py: 'F.one_hot((x0 * 2).T)' },
  { name: 'oneHot -1 with a negative index is an error', inputs: [ids([1, -1])], js: (i) => F.oneHot(i), py: 'F.one_hot(x0)' },
  { name: 'oneHot -1 of an empty index is an error', inputs: [ids([])], js: (i) => F.oneHot(i), py: 'F.one_hot(x0)' },
];

torchTier('oneHot with numClasses -1 follows PyTorch (eager modes)', oneHotCases);

describe('oneHot with numClasses -1 under tpu.compile', () => {
  it('is a clear error at trace time that asks for numClasses', () => {
    const f = tpu.compile((i: Tensor) => F.oneHot(i));
    expect(() => f(tpu.tensor([1, 0], { dtype: 'int32' }))).toThrow('oneHot: numClasses -1 (inferred from the largest index) needs the index values, which tpu.compile does not have while tracing: pass numClasses');
    const g = tpu.compile((i: Tensor) => F.oneHot(i, 3));
    expect(g(tpu.tensor([2, 0], { dtype: 'int32' })).array()).toEqual([[0, 0, 1], [1, 0, 0]]);
  });
});
