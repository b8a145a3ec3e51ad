// tpu.nn.ModuleList and ModuleDict nested with Sequential in a model: parameter and stateDict
// names equal PyTorch 2.13's (its state_dict() and named_parameters() of the same model), the
// model's forward and backward through the containers give PyTorch's values given the same
// weights, and the containers' list and dict operations, train()/eval(), optimizer steps and
// data parallelism (DDP and fullyShard on 2 emulated chips copy and shard the modules inside).
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { ids, torchTier, uniform } from '../torch/torch-tier.js';
import { torchNames } from '../support/torch-names.js';

tpu.setDevice({ chips: 2 });
const { nn } = tpu;

/** The model both sides build: Sequential, ModuleList and ModuleDict, nested. */
class Net extends nn.Module {
  stem = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.LayerNorm(4));
  blocks = new nn.ModuleList([new nn.Linear(4, 4), new nn.Sequential(new nn.Linear(4, 4), new nn.Tanh()), new nn.Identity()]);
  heads = new nn.ModuleDict({
    cls: new nn.Linear(4, 2),
    reg: new nn.Sequential(new nn.Dropout(0.5), new nn.Linear(4, 1)),
    more: new nn.ModuleDict({ extra: new nn.Linear(4, 1) }),
  });

  forward(x: Tensor): Tensor {
    let h = this.stem.forward(x);
    for (const block of this.blocks) h = block.forward(h);
    const more = this.heads.get('more') as InstanceType<typeof nn.ModuleDict>;
    return tpu.cat([this.heads.get('cls')!.forward(h), this.heads.get('reg')!.forward(h), more.get('extra')!.forward(h)], 1);
  }
}

const PY_NET = `
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.LayerNorm(4))
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(4, 4), torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh()), torch.nn.Identity()])
        self.heads = torch.nn.ModuleDict({
            'cls': torch.nn.Linear(4, 2),
            'reg': torch.nn.Sequential(torch.nn.Dropout(0.5), torch.nn.Linear(4, 1)),
            'more': torch.nn.ModuleDict({'extra': torch.nn.Linear(4, 1)}),
        })
    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        return torch.cat([self.heads['cls'](h), self.heads['reg'](h), self.heads['more']['extra'](h)], 1)
`;

describe('ModuleList and ModuleDict name parameters as PyTorch', () => {
  it("stateDict() and namedParameters() of a nested model have PyTorch's keys, in its order", () => {
    const net = new Net();
    const [keys, names, shapes] = torchNames(`${PY_NET}\nm = Net()`, '[list(m.state_dict().keys()), [n for n, _ in m.named_parameters()], [list(t.shape) for t in m.state_dict().values()]]') as [string[], string[], number[][]];
    expect(keys.length).toBe(14);
    expect(Object.keys(net.stateDict())).toEqual(keys);
    expect(net.namedParameters().map(([n]) => n)).toEqual(names);
    expect(Object.values(net.stateDict()).map((t) => [...t.shape])).toEqual(shapes);
  });

  it('keys after append, insert, update, set and pop are PyTorch\'s', () => {
    const list = new nn.ModuleList([new nn.Linear(2, 2)]);
    list.append(new nn.ReLU()).extend([new nn.Linear(2, 3)]).insert(1, new nn.Linear(2, 2)).insert(3, new nn.Linear(2, 5));
    const dict = new nn.ModuleDict([['z', new nn.Linear(2, 1)], ['a', new nn.Linear(2, 1)]]);
    dict.update({ m: new nn.Linear(2, 2) }).set('z', new nn.Linear(2, 3)).set('b', new nn.ModuleList([new nn.Linear(1, 1)]));
    dict.pop('a');
    const py = torchNames([
      'import torch',
      'lst = torch.nn.ModuleList([torch.nn.Linear(2, 2)])',
      'lst.append(torch.nn.ReLU()).extend([torch.nn.Linear(2, 3)])',
      'lst.insert(1, torch.nn.Linear(2, 2)); lst.insert(3, torch.nn.Linear(2, 5))',
      "d = torch.nn.ModuleDict([('z', torch.nn.Linear(2, 1)), ('a', torch.nn.Linear(2, 1))])",
      "d.update({'m': torch.nn.Linear(2, 2)}); d['z'] = torch.nn.Linear(2, 3); d['b'] = torch.nn.ModuleList([torch.nn.Linear(1, 1)])",
      "d.pop('a')",
    ].join('\n'), '[{k: list(v.shape) for k, v in lst.state_dict().items()}, {k: list(v.shape) for k, v in d.state_dict().items()}, list(d.keys())]') as [Record<string, number[]>, Record<string, number[]>, string[]];
    const shapes = (m: InstanceType<typeof nn.Module>) => Object.fromEntries(Object.entries(m.stateDict()).map(([k, t]) => [k, [...t.shape]]));
    expect(Object.entries(shapes(list))).toEqual(Object.entries(py[0]));
    expect(Object.entries(shapes(dict))).toEqual(Object.entries(py[1]));
    expect([...dict]).toEqual(py[2]);
    expect(list.length).toBe(5);
    expect(String(list.at(-1))).toBe('Linear(inFeatures=2, outFeatures=3, bias=true)');
  });
});

describe('ModuleList and ModuleDict as containers', () => {
  it('train() and eval() reach the modules inside', () => {
    const net = new Net().eval();
    const dropout = (net.heads.get('reg') as InstanceType<typeof nn.Sequential>).layers[0]!;
    expect([net.blocks.training, net.heads.training, dropout.training, net.blocks[1]!.training]).toEqual([false, false, false, false]);
    net.train();
    expect([net.blocks.training, net.heads.training, dropout.training, net.blocks[1]!.training]).toEqual([true, true, true, true]);
  });

  it('an optimizer steps the parameters inside them', () => {
    const net = new Net();
    const inner = (net.heads.get('more') as InstanceType<typeof nn.ModuleDict>).get('extra') as InstanceType<typeof nn.Linear>;
    const before = inner.bias!.dataSync()[0] as number;
    const opt = new tpu.optim.SGD(net.parameters(), { lr: 1 });
    net.forward(tpu.ones([2, 3])).sum().backward();
    const g = inner.bias!.grad!.dataSync()[0] as number;
    opt.step();
    expect(g).toBe(2); // d(sum)/d(bias) of a [2, 1] output column
    expect(inner.bias!.dataSync()[0]).toBeCloseTo(before - 2, 6);
  });

  it('DDP and fullyShard run the modules inside on each chip: the one-chip loss and gradients', () => {
    const mesh = tpu.initDeviceMesh([2], { names: ['dp'] });
    const state = new Net().stateDict();
    const x = tpu.randn([6, 3]);
    const y = tpu.tensor(new Int32Array([0, 3, 1, 2, 3, 0]));
    const run = (wrap: (m: Net) => InstanceType<typeof nn.Module>) => {
      const net = new Net().eval();
      net.loadStateDict(state);
      const loss = new nn.CrossEntropyLoss().forward(wrap(net).forward(x), y);
      loss.backward();
      return [Array.from(loss.dataSync() as Float32Array), ...net.parameters().map((p) => Array.from((p as Tensor).grad?.dataSync() as Float32Array ?? []))];
    };
    const one = run((m) => m);
    const ddp = run((m) => new nn.DistributedDataParallel(m, { mesh }));
    expect(one[0]![0]).toBeGreaterThan(0);
    expect(one.map((v) => v.length)).toEqual([1, 12, 4, 4, 4, 16, 4, 16, 4, 8, 2, 4, 1, 4, 1]);
    expect(ddp.map((v) => v.length)).toEqual(one.map((v) => v.length));
    ddp.forEach((values, i) => values.forEach((v, j) => expect(v, `DDP value ${i}[${j}]`).toBeCloseTo(one[i]![j]!, 5)));
    const fsdpLoss = (() => {
      const net = new Net().eval();
      net.loadStateDict(state);
      return new nn.CrossEntropyLoss().forward(nn.fullyShard(net, { mesh }).forward(x), y).item();
    })();
    expect(fsdpLoss).toBeCloseTo(one[0]![0]!, 5);
  });

  it('loadStateDict fills the modules inside by name', () => {
    const a = new Net();
    const b = new Net();
    b.loadStateDict(a.stateDict());
    expect(b.heads.get('cls')!.stateDict().weight!.dataSync()).toEqual(a.heads.get('cls')!.stateDict().weight!.dataSync());
  });

  it('a ModuleDict key may be a method name, as in PyTorch; a dotted key, a non-module, a missing key and forward are errors', () => {
    const d = new nn.ModuleDict({ forward: new nn.Linear(1, 1), train: new nn.ReLU() });
    expect(Object.keys(d.stateDict())).toEqual(['forward.weight', 'forward.bias']);
    expect(() => new nn.ModuleDict({ 'a.b': new nn.ReLU() })).toThrow(/nn\.ModuleDict: a key must be a non-empty string without '\.'.*; got "a\.b"/);
    expect(() => new nn.ModuleDict({ a: 3 as never })).toThrow(/nn\.ModuleDict: 'a' must be a Module; got number/);
    expect(() => d.pop('nope')).toThrow(/nn\.ModuleDict\.pop: no module 'nope'; keys: forward, train/);
    expect(() => d.forward(tpu.ones([1]))).toThrow(/nn\.ModuleDict: has no forward/);
  });

  it('a ModuleList of a non-module, or not a list, and its forward are errors', () => {
    expect(() => new nn.ModuleList([new nn.ReLU(), 'relu' as never])).toThrow(/nn\.ModuleList: modules\[1\] must be a Module; got string/);
    expect(() => new nn.ModuleList(new nn.ReLU() as never)).toThrow(/nn\.ModuleList: modules must be an array \(an iterable\) of modules; got an object of type ReLU/);
    expect(() => new nn.ModuleList().forward(tpu.ones([1]))).toThrow(/nn\.ModuleList: has no forward/);
  });
});

/** Every parameter and buffer of the model, in stateDict order, then the input and the labels. */
const PARAM_SHAPES = [[4, 3], [4], [4], [4], [4, 4], [4], [4, 4], [4], [2, 4], [2], [1, 4], [1], [1, 4], [1]];
const INPUTS = [...PARAM_SHAPES.map((s, i) => uniform(s, 100 + i)), uniform([5, 3], 200), ids([0, 3, 1, 2, 3])];
const n = PARAM_SHAPES.length;

torchTier('a model of Sequential, ModuleList and ModuleDict follows PyTorch', [{
  name: 'eval() forward, CrossEntropyLoss and every gradient',
  inputs: INPUTS,
  js: (...xs) => {
    const net = new Net().eval();
    net.loadStateDict(Object.fromEntries(Object.keys(net.stateDict()).map((k, i) => [k, xs[i]!])));
    const loss = new nn.CrossEntropyLoss().forward(net.forward(xs[n]!), xs[n + 1]!);
    loss.backward();
    return [loss, ...net.parameters().map((p) => (p as Tensor).grad!)];
  },
  py: [
    PY_NET,
    'm = Net().eval()',
    `m.load_state_dict(dict(zip(m.state_dict().keys(), [${INPUTS.slice(0, n).map((_, i) => `x${i}`).join(', ')}])))`,
    `loss = torch.nn.CrossEntropyLoss()(m(x${n}), x${n + 1})`,
    'loss.backward()',
    'result = [loss] + [p.grad for p in m.parameters()]',
  ].join('\n'),
}]);
