// nn.ParameterList against PyTorch 2.13: parameters() and stateDict() names ('0', 'scales.0'),
// plain tensors made parameters, a model using its parameters trained one SGD step with the same
// values as PyTorch's (every mode), a stateDict loaded back, bad values named.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, uniform } from '../torch/torch-tier.js';
import { torchNames } from '../support/torch-names.js';

const { nn } = tpu;

/** A Linear and a ParameterList of per-feature scales and a shift. */
class Scaled extends nn.Module {
  lin = new nn.Linear(3, 2);
  scales = new nn.ParameterList([tpu.ones([2]), tpu.zeros([2])]);

  forward(x: Tensor): Tensor {
    return this.lin.forward(x).mul(this.scales[0]!).add(this.scales[1]!);
  }
}
const PY_SCALED = `
import torch
class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.scales = torch.nn.ParameterList([torch.ones(2), torch.zeros(2)])
    def forward(self, x):
        return self.lin(x) * self.scales[0] + self.scales[1]
`;

describe('ParameterList names its parameters as PyTorch', () => {
  it("parameters() and stateDict() of a model holding one have PyTorch's names, in its order", () => {
    const [keys, names] = torchNames(`${PY_SCALED}\nm = Scaled()`, '[list(m.state_dict().keys()), [n for n, _ in m.named_parameters()]]') as [string[], string[]];
    const m = new Scaled();
    expect(Object.keys(m.stateDict())).toEqual(keys);
    expect(m.namedParameters().map(([n]) => n)).toEqual(names);
    expect(keys).toContain('scales.1');
  });

  it('makes plain tensors parameters, appends, extends, indexes and iterates', () => {
    const list = new nn.ParameterList([tpu.ones([3])]);
    list.append(tpu.zeros([2, 2])).extend([tpu.full([1], 5).mul(2)]);
    expect(list.length).toBe(3);
    expect([...list].map((p) => [p.requiresGrad, p.isLeaf])).toEqual([[true, true], [true, true], [true, true]]);
    expect(list.at(-1)!.item()).toBe(10);
    expect(Object.keys(list.stateDict())).toEqual(['0', '1', '2']);
    expect(list.parameters()).toHaveLength(3);
    expect(String(list)).toBe('ParameterList(\n  (0): Parameter containing: [float32 of size [3]]\n  (1): Parameter containing: [float32 of size [2, 2]]\n  (2): Parameter containing: [float32 of size [1]]\n)');
  });

  it('loads a stateDict back into its parameters', () => {
    const a = new Scaled();
    const b = new Scaled();
    tpu.noGrad(() => a.scales[0]!.fill_(3));
    b.loadStateDict(a.stateDict());
    expect(b.scales[0]!.tolist()).toEqual([3, 3]);
  });

  it('names bad values', () => {
    expect(() => new nn.ParameterList([tpu.ones([1]), 2 as never])).toThrow(/nn\.ParameterList: values\[1\] must be a tensor; got number 2/);
    expect(() => new nn.ParameterList(5 as never)).toThrow(/nn\.ParameterList: values must be an array \(an iterable\) of tensors; got number 5/);
    expect(() => new nn.ParameterList().append('w' as never)).toThrow(/nn\.ParameterList\.append: value must be a tensor/);
    expect(() => new nn.ParameterList().forward()).toThrow(/nn\.ParameterList: has no forward/);
  });
});

torchTier('a model with a ParameterList trains as PyTorch', [{
  name: 'forward, gradients of every parameter and one SGD step',
  inputs: [uniform([2, 3], 60), uniform([2], 61), uniform([2], 62, 0.5, 2), uniform([2], 63), uniform([4, 3], 64, -2, 2)],
  js: (w, b, s, t, x) => {
    const m = new Scaled();
    tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_([w, b, s, t][i]!)));
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1 });
    const y = m.forward(x!);
    y.square().sum().backward();
    const gradsBefore = m.parameters().map((p) => (p as Tensor).grad!.clone());
    opt.step();
    return [y, ...gradsBefore, ...m.parameters().map((p) => (p as Tensor).detach().clone())];
  },
  py: `${PY_SCALED}
m = Scaled()
with torch.no_grad():
    for p, v in zip(m.parameters(), [x0, x1, x2, x3]): p.copy_(v)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
y = m(x4)
(y ** 2).sum().backward()
grads = [p.grad.clone() for p in m.parameters()]
opt.step()
result = [y.detach()] + grads + [p.detach().clone() for p in m.parameters()]`,
}]);
