// A tensor's length is its first dim, as Python's len(x) on a torch tensor, in every mode,
// against values worked out here; a 0-d tensor has none (PyTorch's TypeError). An optimizer
// still wants a list of tensors, not one tensor.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('x.length is the first dim: a loop to it visits every row', () => {
    tpu.mode(mode);
    const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    expect(x.length).toBe(2);
    expect(tpu.zeros([0, 4]).length).toBe(0);
    const sums: number[] = [];
    for (let i = 0; i < x.length; i++) sums.push(x.at(i).sum().item());
    expect(sums).toEqual([6, 15]);
  });

  it('a 0-d tensor has no length; an optimizer takes a list, not one tensor', () => {
    tpu.mode(mode);
    expect(() => tpu.tensor(3).length).toThrow(/^length of a 0-d tensor: it has no first dim \(PyTorch: len\(\) of a 0-d tensor\)/);
    const w = tpu.ones([2, 2], { requiresGrad: true });
    expect(() => new tpu.optim.SGD(w as never, { lr: 0.1 })).toThrow(/^SGD: params must be an array of tensors \(e\.g\. model\.parameters\(\)\); got one tensor: give \[w\]$/);
  });
});
