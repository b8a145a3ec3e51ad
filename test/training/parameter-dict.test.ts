// nn.ParameterDict against PyTorch 2.13: parameters(), namedParameters() and stateDict() names
// ('scale', 'extra.scale'), plain tensors made parameters, to('bfloat16'), a model using its
// parameters trained one SGD step with the same values as PyTorch's (every mode, and its step
// under tpu.compile), a stateDict loaded back, keys PyTorch refuses refused, bad values named.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, uniform } from '../torch/torch-tier.js';
import { torchNames } from '../support/torch-names.js';

const { nn } = tpu;

/** A Linear and a ParameterDict of a per-feature scale and shift. */
class Affine extends nn.Module {
  lin = new nn.Linear(3, 2);
  extra = new nn.ParameterDict({ scale: tpu.ones([2]), shift: tpu.zeros([2]) });

  forward(x: Tensor): Tensor {
    return this.lin.forward(x).mul(this.extra.get('scale')!).add(this.extra.get('shift')!);
  }
}
const PY_AFFINE = `
import torch
class Affine(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.extra = torch.nn.ParameterDict({'scale': torch.ones(2), 'shift': torch.zeros(2)})
    def forward(self, x):
        return self.lin(x) * self.extra['scale'] + self.extra['shift']
`;

describe('ParameterDict registers its parameters as PyTorch', () => {
  it("parameters(), namedParameters() and stateDict() of a model holding one have PyTorch's names, in its order", () => {
    const [keys, names, count] = torchNames(`${PY_AFFINE}\nm = Affine()\nm.extra['bias2'] = torch.nn.Parameter(torch.ones(3))`,
      '[list(m.state_dict().keys()), [n for n, _ in m.named_parameters()], len(list(m.parameters()))]') as [string[], string[], number];
    const m = new Affine();
    m.extra.set('bias2', tpu.ones([3]));
    expect(Object.keys(m.stateDict())).toEqual(keys);
    expect(m.namedParameters().map(([n]) => n)).toEqual(names);
    expect(m.parameters()).toHaveLength(count);
    expect(keys).toContain('extra.shift');
  });

  it('makes plain tensors parameters; get, has, set, pop, update, clear, keys, values, items, iteration', () => {
    const d = new nn.ParameterDict([['a', tpu.ones([3])]]);
    d.update({ b: tpu.zeros([2, 2]), c: tpu.full([1], 5).mul(2) });
    expect(d.size).toBe(3);
    expect([...d]).toEqual(['a', 'b', 'c']);
    expect([...d.values()].map((p) => [p.requiresGrad, p.isLeaf])).toEqual([[true, true], [true, true], [true, true]]);
    expect(d.get('c')!.item()).toBe(10);
    expect([d.has('a'), d.has('z'), d.has('forward'), d.get('z')]).toEqual([true, false, false, undefined]);
    expect(d.pop('a').shape).toEqual([3]);
    expect([...d.items()].map(([k, p]) => [k, p.shape])).toEqual([['b', [2, 2]], ['c', [1]]]);
    expect(String(d)).toBe('ParameterDict(\n  (b): Parameter containing: [float32 of size [2, 2]]\n  (c): Parameter containing: [float32 of size [1]]\n)');
    d.clear();
    expect([d.size, d.parameters().length, Object.keys(d.stateDict())]).toEqual([0, 0, []]);
  });

  it('converts its parameters in place with to(), as a layer', () => {
    const m = new Affine();
    const scale = m.extra.get('scale')!;
    m.to('bfloat16');
    expect([scale.dtype, m.extra.get('scale'), m.lin.weight.dtype]).toEqual(['bfloat16', scale, 'bfloat16']);
  });

  it('loads a stateDict back into its parameters', () => {
    const a = new Affine();
    const b = new Affine();
    tpu.noGrad(() => a.extra.get('scale')!.fill_(3));
    b.loadStateDict(a.stateDict());
    expect(b.extra.get('scale')!.tolist()).toEqual([3, 3]);
  });

  it('refuses the keys PyTorch refuses and names bad values', () => {
    expect(() => new nn.ParameterDict({ forward: tpu.ones([1]) })).toThrow(/nn\.ParameterDict: key 'forward' names a member of the module \(PyTorch: attribute 'forward' already exists\); pick another key/);
    expect(() => new nn.ParameterDict({ training: tpu.ones([1]) })).toThrow(/key 'training' names a member of the module/);
    expect(() => new nn.ParameterDict({ 'a.b': tpu.ones([1]) })).toThrow(/nn\.ParameterDict: a key must be a non-empty string without '\.' \(it names the parameter in stateDict\(\)\); got "a\.b"/);
    expect(() => new nn.ParameterDict({ w: 2 as never })).toThrow(/nn\.ParameterDict: 'w' must be a tensor; got number 2/);
    expect(() => new nn.ParameterDict(5 as never)).toThrow(/nn\.ParameterDict: values must be an object of tensors or \[key, tensor\] pairs; got number 5/);
    expect(() => new nn.ParameterDict().pop('w')).toThrow(/nn\.ParameterDict\.pop: no parameter 'w'; keys: none/);
    expect(() => new nn.ParameterDict().forward()).toThrow(/nn\.ParameterDict: has no forward/);
  });
});

torchTier('a model with a ParameterDict trains as PyTorch', [{
  name: 'forward, gradients of every parameter and one SGD step',
  inputs: [uniform([2, 3], 70), uniform([2], 71), uniform([2], 72, 0.5, 2), uniform([2], 73), uniform([4, 3], 74, -2, 2)],
  js: (w, b, s, t, x) => {
    const m = new Affine();
    tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_([w, b, s, t][i]!)));
    const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1 });
    const y = m.forward(x!);
    y.square().sum().backward();
    const gradsBefore = m.parameters().map((p) => (p as Tensor).grad!.clone());
    opt.step();
    return [y, ...gradsBefore, ...m.parameters().map((p) => (p as Tensor).detach().clone())];
  },
  py: `${PY_AFFINE}
m = Affine()
with torch.no_grad():
    for p, v in zip(m.parameters(), [x0, x1, x2, x3]): p.copy_(v)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
y = m(x4)
(y ** 2).sum().backward()
grads = [p.grad.clone() for p in m.parameters()]
opt.step()
result = [y.detach()] + grads + [p.detach().clone() for p in m.parameters()]`,
}]);

describe('a compiled training step over a ParameterDict', () => {
  it('steps its parameters as the eager step does', async () => {
    const run = (compiled: boolean) => {
      tpu.manualSeed(2);
      const m = new Affine();
      const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1 });
      const x = tpu.tensor([[1, -2, 0.5], [0.25, 3, -1]]);
      const step = (xb: Tensor) => { opt.zeroGrad(); const loss = m.forward(xb).square().sum(); loss.backward(); opt.step(); return loss; };
      const f = compiled ? tpu.compile(step) : step;
      for (let i = 0; i < 3; i++) f(x);
      return [...m.extra.values()].map((p) => p.tolist());
    };
    expect(run(true)).toEqual(run(false));
  });
});
