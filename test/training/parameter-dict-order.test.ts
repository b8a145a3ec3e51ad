// nn.ParameterDict and nn.ModuleDict list their keys in insertion order, as PyTorch's (a Python
// dict), integer-like keys ('0', '1') too, which JS object properties would list first; a
// ParameterDict made from a plain dict inserts its keys sorted, as PyTorch's.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { torchNames } from '../support/torch-names.js';

const { nn } = tpu;

const PY = `
import torch
class Holder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pd = torch.nn.ParameterDict({'b': torch.ones(1), '1': torch.ones(2), 'a': torch.ones(3), '0': torch.ones(4)})
        self.pairs = torch.nn.ParameterDict([('b', torch.ones(1)), ('1', torch.ones(2)), ('a', torch.ones(3)), ('0', torch.ones(4))])
        self.md = torch.nn.ModuleDict({'z': torch.nn.Linear(1, 1), '2': torch.nn.Linear(1, 2), '1': torch.nn.Linear(1, 3)})
        self.pd['10'] = torch.nn.Parameter(torch.ones(5))
        self.pd['b'] = torch.nn.Parameter(torch.ones(6))
        self.pd.pop('1')
        self.pd['1'] = torch.nn.Parameter(torch.ones(7))
h = Holder()
`;

class Holder extends nn.Module {
  pd = new nn.ParameterDict({ b: tpu.ones([1]), 1: tpu.ones([2]), a: tpu.ones([3]), 0: tpu.ones([4]) });
  pairs = new nn.ParameterDict([['b', tpu.ones([1])], ['1', tpu.ones([2])], ['a', tpu.ones([3])], ['0', tpu.ones([4])]]);
  // pairs, not an object literal: a literal's own keys already list '1' and '2' first in JS
  md = new nn.ModuleDict([['z', new nn.Linear(1, 1)], ['2', new nn.Linear(1, 2)], ['1', new nn.Linear(1, 3)]]);

  constructor() {
    super();
    this.pd.set('10', tpu.ones([5]));
    this.pd.set('b', tpu.ones([6])); // replacing keeps the key's place
    this.pd.pop('1');
    this.pd.set('1', tpu.ones([7])); // popped and set again: last
  }

  forward(): never {
    throw new Error('not used');
  }
}

describe('ParameterDict and ModuleDict keep insertion order, as PyTorch', () => {
  it("keys(), namedParameters(), parameters() and stateDict() follow PyTorch's order", () => {
    const h = new Holder();
    const [keys, names, sizes, stateKeys, pdNames, pairKeys] = torchNames(PY, "[list(h.pd.keys()), [n for n, _ in h.named_parameters()], [p.numel() for p in h.parameters()], list(h.state_dict().keys()), [n for n, _ in h.pd.named_parameters()], list(h.pairs.keys())]") as string[][];
    expect([...h.pd.keys()]).toEqual(keys);
    expect([...h.pd]).toEqual(keys);
    expect([...h.pd.items()].map(([k]) => k)).toEqual(keys);
    expect(h.namedParameters().map(([n]) => n)).toEqual(names);
    expect(h.parameters().map((p) => p.numel())).toEqual(sizes);
    expect(Object.keys(h.stateDict())).toEqual(stateKeys);
    expect(h.pd.namedParameters().map(([n]) => n)).toEqual(pdNames);
    expect([...h.pairs.keys()]).toEqual(pairKeys);
    expect(h.pairs.parameters().map((p) => p.numel())).toEqual([1, 2, 3, 4]);
  });
});
