// A tensor as the sequence of its first dim's slices, as Python's len(x) and `for row in x` on a
// torch tensor, in every mode, against values worked out here; a 0-d tensor has no first dim
// (PyTorch's TypeError), and an optimizer still wants a list of tensors, not one tensor.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('x.length is the first dim, and iterating gives its rows as views', async () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    expect(x.length).toBe(2);
    expect(tpu.zeros([0, 4]).length).toBe(0);
    const sums: number[] = [];
    for (let i = 0; i < x.length; i++) sums.push(x.at(i).sum().item());
    expect(sums).toEqual([6, 15]);
    const rows = [...x];
    expect(rows.map((r) => r.shape)).toEqual([[3], [3]]);
    expect(rows.map((r) => r.array())).toEqual([[1, 2, 3], [4, 5, 6]]);
    const [first, second] = x;
    first!.mul_(10); // a view: the base sees it, as a row of a torch tensor
    expect(x.array()).toEqual([[10, 20, 30], [4, 5, 6]]);
    expect(second!.array()).toEqual([4, 5, 6]);
    expect([...tpu.zeros([0, 4])]).toEqual([]);
  });

  it('a 0-d tensor has no length and no rows; an optimizer takes a list, not one tensor', () => {
    tpu.mode(mode);
    const s = tpu.tensor(3);
    expect(() => s.length).toThrow(/^length of a 0-d tensor: it has no first dim \(PyTorch: len\(\) of a 0-d tensor\)/);
    expect(() => [...s]).toThrow(/^iteration over a 0-d tensor/);
    const w = tpu.ones([2, 2], { requiresGrad: true });
    expect(() => new tpu.optim.SGD(w as never, { lr: 0.1 })).toThrow(/^SGD: params must be an array of tensors \(e\.g\. model\.parameters\(\)\); got one tensor: give \[w\]$/);
  });
});
