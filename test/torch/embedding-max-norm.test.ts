// Embedding's maxNorm (PyTorch's max_norm) against PyTorch 2.13 in every mode and compiled: the
// picked rows of a larger norm are scaled down in the weight itself before the lookup (repeated
// and unpicked rows too), with normType, through F.embedding and nn.Embedding; the lookup's
// gradient; bad options named.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, ids, torchTier, type TorchCase } from './torch-tier.js';
import { expectThrowInEveryMode } from '../support/throws-in-every-mode.js';

const F = tpu.nn.functional;
// row norms 5, 0.5, 13, 3 (2-norm); 7, 0.7, 17, 3 (1-norm)
const TABLE = f32([[3, 4], [0.3, -0.4], [-5, 12], [0, 3]]);

const cases: TorchCase[] = [
  {
    name: 'F.embedding with maxNorm scales the picked rows in the table itself',
    inputs: [TABLE, ids([[0, 2], [2, 1]])],
    js: (w, i) => { const t = w.clone(); const out = F.embedding(i, t, { maxNorm: 4 }); return [out, t]; },
    py: 't = x0.clone()\nout = F.embedding(x1, t, max_norm=4.)\nresult = (out, t)',
  },
  {
    name: 'maxNorm with normType 1 and with the max norm',
    inputs: [TABLE, ids([3, 0, 1])],
    js: (w, i) => {
      const a = w.clone();
      const b = w.clone();
      return [F.embedding(i, a, { maxNorm: 2, normType: 1 }), a, F.embedding(i, b, { maxNorm: 2, normType: Infinity }), b];
    },
    py: 'a = x0.clone()\nb = x0.clone()\nresult = (F.embedding(x1, a, max_norm=2., norm_type=1.), a, F.embedding(x1, b, max_norm=2., norm_type=float("inf")), b)',
  },
  {
    name: 'the lookup gradient after the rows are scaled',
    inputs: [TABLE, ids([2, 2, 0])],
    js: (w, i) => {
      const t = w.clone().requiresGrad_();
      F.embedding(i, t, { maxNorm: 1 }).mul(tpu.tensor([[1, 2], [3, 4], [5, 6]])).sum().backward();
      return [t.grad!, t.detach()];
    },
    py: 't = x0.clone().requires_grad_()\n(F.embedding(x1, t, max_norm=1.) * torch.tensor([[1., 2], [3, 4], [5, 6]])).sum().backward()\nresult = (t.grad, t.detach())',
  },
];

torchTier('embedding maxNorm', cases, { compile: true });

describe('nn.Embedding with maxNorm', () => {
  it('scales the weight of the looked-up rows at each forward, as torch.nn.Embedding(max_norm=...)', () => {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.mode(mode);
      try {
        const emb = new tpu.nn.Embedding(3, 2, { maxNorm: 1 });
        tpu.noGrad(() => emb.weight.copy_(tpu.tensor([[3, 4], [0.6, 0.8], [0, 2]])));
        const out = emb.forward(tpu.tensor([0, 0], { dtype: 'int64' }));
        // row 0: 3, 4 scaled by 1 / (5 + 1e-7); rows 1 (norm 1, not above) and 2 (not picked) kept
        const s = Math.fround(1 / Math.fround(5 + 1e-7));
        const w = emb.weight.tolist() as number[][];
        expect(w[0]![0], mode).toBeCloseTo(3 * s, 6);
        expect(w[0]![1], mode).toBeCloseTo(4 * s, 6);
        expect(w.slice(1), mode).toEqual([[Math.fround(0.6), Math.fround(0.8)], [0, 2]]);
        expect(out.tolist(), mode).toEqual([w[0], w[0]]);
        expect(String(emb)).toBe('Embedding(3, 2, maxNorm=1)');
      } finally {
        tpu.mode('strict');
      }
    }
  });

  it('names a bad maxNorm or normType', () => {
    const w = () => tpu.ones([3, 2]);
    const i = () => tpu.tensor([0], { dtype: 'int64' });
    expectThrowInEveryMode(() => F.embedding(i(), w(), { maxNorm: -1 }), /embedding: maxNorm must be a positive number; got -1/);
    expectThrowInEveryMode(() => F.embedding(i(), w(), { maxNorm: 1, normType: 0 }), /embedding: normType must be a positive number/);
    expectThrowInEveryMode(() => F.embedding(i(), w(), { normType: 1 }), /embedding: normType applies with maxNorm only/);
    expect(() => new tpu.nn.Embedding(3, 2, { maxNorm: 'big' as unknown as number })).toThrow(/nn.Embedding: maxNorm must be a positive number; got "big"/);
    expect(() => new tpu.nn.Embedding(3, 2, { max_norm: 1 } as never)).toThrow(/max_norm.*maxNorm/);
  });
});
