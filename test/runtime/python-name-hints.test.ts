// PyTorch's snake_case names on a tensor, a module and an optimizer throw, naming the camelCase
// member: `if (x.requires_grad)` read undefined (silently false), x.masked_fill(...) was "not a
// function". The tensor and the session are unharmed.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const read = (o: object, key: string): unknown => (o as Record<string, unknown>)[key];

describe("PyTorch's snake_case names", () => {
  it('a read or a call of one names the camelCase member to use', () => {
    const x = tpu.tensor([1, -2], { requiresGrad: true });
    expect(() => read(x, 'requires_grad')).toThrow("x.requires_grad: PyTorch's requires_grad is x.requiresGrad here (tpu's names are camelCase)");
    expect(() => read(x, 'is_leaf')).toThrow("x.is_leaf: PyTorch's is_leaf is x.isLeaf here");
    expect(() => read(x, 'masked_fill')).toThrow("x.masked_fill: PyTorch's masked_fill is x.maskedFill here");
    expect(() => read(x, 'requires_grad_')).toThrow("x.requires_grad_: PyTorch's requires_grad_ is x.requiresGrad_ here");
    expect(() => read(x, 'log_softmax')).toThrow("x.log_softmax: PyTorch's log_softmax is x.logSoftmax here");
    const model = new tpu.nn.Linear(2, 1);
    expect(() => read(model, 'state_dict')).toThrow("model.state_dict: PyTorch's state_dict is model.stateDict here");
    expect(() => read(model, 'named_parameters')).toThrow("model.named_parameters: PyTorch's named_parameters is model.namedParameters here");
    const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
    expect(() => read(opt, 'zero_grad')).toThrow("opt.zero_grad: PyTorch's zero_grad is opt.zeroGrad here");
    expect(x.maskedFill(x.lt(0), 0).tolist()).toEqual([1, 0]);
  });

  it('an assignment to one throws too, rather than setting a property nothing reads', () => {
    const x = tpu.tensor([1]);
    expect(() => { (x as unknown as Record<string, unknown>).requires_grad = true; }).toThrow("x.requires_grad: PyTorch's requires_grad is x.requiresGrad here");
    expect(x.requiresGrad).toBe(false);
  });

  it('names a module defines itself are its own', () => {
    class Net extends tpu.nn.Module {
      hidden_size = 4;
      fc = new tpu.nn.Linear(2, this.hidden_size);
      forward(v: ReturnType<typeof tpu.ones>) { return this.fc.forward(v); }
    }
    const net = new Net();
    expect(net.hidden_size).toBe(4);
    expect(net.forward(tpu.ones([1, 2])).shape).toEqual([1, 4]);
  });
});
