// A module that keeps an activation (`this.hidden = h` in forward, for a plot) still has
// PyTorch's parameters and state: a tensor computed from parameters is neither (PyTorch lists
// registered ones only), so an optimizer built after a forward, and a state dict loaded into a
// fresh model, see the same tensors as before the forward. Every mode.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

class Net extends tpu.nn.Module {
  fc = new tpu.nn.Linear(2, 2);
  hidden: Tensor | null = null;
  forward(x: Tensor) {
    this.hidden = this.fc.forward(x).tanh();
    return this.hidden.sum(1);
  }
}

describe.each(['debug', 'strict', 'fused'] as const)('an activation kept on a module (%s)', (mode) => {
  it('is not a parameter nor in the state dict; the state loads into a fresh model', async () => {
    tpu.mode(mode);
    const net = new Net();
    const x = tpu.tensor([[1, 2], [-1, 0.5]]);
    net.forward(x).sum().backward();
    // PyTorch: list(net.parameters()) has 2 tensors, net.state_dict() the keys fc.weight, fc.bias
    expect(net.parameters()).toEqual([net.fc.weight, net.fc.bias]);
    expect(Object.keys(net.stateDict())).toEqual(['fc.weight', 'fc.bias']);
    const fresh = new Net();
    fresh.loadStateDict(net.stateDict());
    expectClose(await fresh.fc.weight.data() as Float32Array, Array.from(await net.fc.weight.data() as Float32Array));
    const opt = new tpu.optim.SGD(net.parameters(), { lr: 0.5 });
    const before = Array.from(await net.fc.bias.data() as Float32Array);
    const gb = Array.from(await net.fc.bias.grad!.data() as Float32Array);
    opt.step();
    expectClose(await net.fc.bias.data() as Float32Array, before.map((b, i) => b - 0.5 * gb[i]!));
  });
});
