// max(dim), min(dim), sort and topk give PyTorch's (values, indices) named tuple: read by
// name, destructured as a pair, or indexed, each against PyTorch in every mode.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, i32, torchTier, type TorchCase } from './torch-tier.js';

const A = f32([[1.5, -2, 3.25, 0], [4, 0.5, -1, 2], [7, -3, 0.25, 1]]);

const cases: TorchCase[] = [
  { name: 'max(dim) destructured as a pair', inputs: [A], js: (x) => { const [values, indices] = x.max(1); return [values, indices]; }, py: '(lambda r: (r[0], r[1]))(torch.max(x0, 1))' },
  { name: 'min(dim, keepdim) destructured as a pair', inputs: [A], js: (x) => { const [values, indices] = x.min(0, true); return [values, indices]; }, py: 'tuple(torch.min(x0, 0, True))' },
  { name: 'max(dim) indexed as r[0] and r[1]', inputs: [A], js: (x) => { const r = x.max(-1); return [r[0], r[1], r.values, r.indices]; }, py: '(lambda r: (r[0], r[1], r.values, r.indices))(x0.max(-1))' },
  { name: 'sort destructured', inputs: [A], js: (x) => { const [v, i] = x.sort(0, true); return [v, i]; }, py: 'tuple(torch.sort(x0, dim=0, descending=True, stable=True))' },
  { name: 'topk destructured', inputs: [i32([[3, 9, 1], [4, 4, 8]])], js: (x) => { const [v, i] = x.topk(2); return [v, i]; }, py: 'tuple(torch.topk(x0, 2))' },
  { name: 'a pair spread into a list', inputs: [A], js: (x) => [...x.max(0), ...x.min(1)], py: '(*torch.max(x0, 0), *torch.min(x0, 1))' },
];

torchTier('(values, indices) pairs vs PyTorch', cases);

describe('a (values, indices) pair outside the op', () => {
  const x = () => tpu.tensor([[1, 5, 3], [7, 2, 9]]);

  it('is kept whole by tpu.scope', async () => {
    const [values, indices] = tpu.scope(() => x().max(1));
    expect(await values.array()).toEqual([5, 9]);
    expect(await indices.array()).toEqual([1, 2]);
  });

  it('is rebuilt as a pair by each tpu.compile replay', async () => {
    const f = tpu.compile((t: ReturnType<typeof x>) => t.min(0));
    for (let step = 0; step < 3; step++) {
      const [values, indices] = f(x());
      expect(await values.array()).toEqual([1, 2, 3]);
      expect(await indices.array()).toEqual([0, 1, 0]);
    }
  });

  it('shows its two tensors once each, by name', () => {
    const shown = inspect(x().sort(), { depth: 1 });
    expect(shown.match(/tensor\(/g)).toHaveLength(2);
    expect(shown).toMatch(/values: tensor/);
    expect(shown).toMatch(/indices: tensor/);
  });
});
