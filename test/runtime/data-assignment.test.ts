// `w.data = v`, as PyTorch users set weights by hand: the values land in w, outside autograd,
// and the next forward and backward use them. Expected values are worked by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it("writes v's values into a module's weight and bias, which the forward then uses", () => {
    tpu.mode(mode);
    const layer = new tpu.nn.Linear(3, 2);
    layer.weight.data = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
    layer.bias!.data = tpu.tensor([1, -1]);
    // [1, 0, 1] · rows + bias: 1 + 3 + 1 = 5, 4 + 6 - 1 = 9
    expect(layer.forward(tpu.tensor([[1, 0, 1]])).tolist()).toEqual([[5, 9]]);
    expect(layer.weight.requiresGrad).toBe(true);
    expect(layer.weight.isLeaf).toBe(true);
  });

  it('is outside autograd: the leaf keeps requiring grad, and the gradient is computed at the new values', () => {
    tpu.mode(mode);
    const w = tpu.tensor([1, 2], { requiresGrad: true });
    const source = tpu.tensor([3, -4], { requiresGrad: true });
    w.data = source;
    w.mul(w).sum().backward(); // d/dw sum(w²) = 2w at w = [3, -4]
    expect(w.grad!.tolist()).toEqual([6, -8]);
    expect(source.grad).toBeNull();
  });

  it('keeps data() readable as the values', async () => {
    tpu.mode(mode);
    const w = tpu.zeros([2]);
    w.data = tpu.tensor([0.5, 1.5]);
    expect([...(await w.data())]).toEqual([0.5, 1.5]);
  });

  it('refuses a value of another shape or dtype, or no tensor, naming what it expected; w is unchanged', () => {
    tpu.mode(mode);
    const w = tpu.tensor([[1, 2], [3, 4]]);
    expect(() => { w.data = tpu.ones([4]); }).toThrow('x.data = v: v must be a tensor of shape [2, 2] and dtype float32, as x is; got [4] float32');
    expect(() => { w.data = tpu.ones([2, 2], { dtype: 'int32' }); }).toThrow('got [2, 2] int32');
    expect(() => { (w as unknown as { data: unknown }).data = [[0, 0], [0, 0]]; }).toThrow('x.data = v: v must be a tensor of shape [2, 2] and dtype float32; got an object of type Array');
    expect(w.tolist()).toEqual([[1, 2], [3, 4]]);
  });
});
