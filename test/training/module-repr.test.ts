// A model prints as PyTorch 2.13's repr() of the same model: its extraRepr() lines, then each
// child as `(name): child` indented, and a ModuleList's runs of equal children once
// (`(0-2): 3 x Linear(...)`; Sequential and ModuleDict list every child, as PyTorch's). The
// layers' own reprs use tpu's option names: PyTorch's text is compared with its keyword names
// in camelCase and True/False written true/false.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const { nn } = tpu;

/** A model with its own extraRepr beside its children. */
class Tagged extends nn.Module {
  readonly fc = new nn.Linear(2, 2);
  protected override extraRepr(): string {
    return 'depth=2\nwidth=4';
  }
}

class Encoder extends nn.Module {
  readonly embed = new nn.Embedding(10, 4);
  readonly layers = new nn.ModuleList(Array.from({ length: 6 }, () => new nn.Sequential(new nn.Linear(4, 4), new nn.GELU(), new nn.Tanh())));
  readonly head = new nn.ModuleDict({ cls: new nn.Linear(4, 2), same: new nn.Linear(4, 2) });
}

const models: [string, () => { toString(): string }, string][] = [
  [
    'Sequential with a ModuleList of runs (3 x Linear, 2 x ReLU) and an empty ModuleList',
    () => new nn.Sequential(new nn.Linear(4, 4), new nn.Linear(4, 4), new nn.ReLU(), new nn.ModuleList([new nn.Linear(4, 4), new nn.Linear(4, 4), new nn.Linear(4, 4), new nn.ReLU(), new nn.ReLU()]), new nn.ModuleList()),
    'nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU(), nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU(), nn.ReLU()]), nn.ModuleList())',
  ],
  [
    'an encoder: 6 equal multi-line blocks, a ModuleDict of equal heads',
    () => new Encoder(),
    `Encoder()`,
  ],
  [
    'equal children not side by side, and a run of different sizes',
    () => new nn.ModuleList([new nn.Linear(3, 3), new nn.Tanh(), new nn.Linear(3, 3), new nn.Linear(3, 4), new nn.Linear(3, 4), new nn.ModuleList([new nn.Tanh(), new nn.Tanh()]), new nn.ModuleList([new nn.Tanh(), new nn.Tanh()])]),
    'nn.ModuleList([nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3), nn.Linear(3, 4), nn.Linear(3, 4), nn.ModuleList([nn.Tanh(), nn.Tanh()]), nn.ModuleList([nn.Tanh(), nn.Tanh()])])',
  ],
  ['extraRepr lines beside children', () => new Tagged(), 'Tagged()'],
  ['a leaf with one extraRepr line; one without', () => new nn.ModuleList([new nn.Softmax(-1), new nn.Flatten()]), 'nn.ModuleList([nn.Softmax(dim=-1), nn.Flatten()])'],
];

const PY = `
import json, sys
import torch
from torch import nn
class Tagged(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    def extra_repr(self):
        return 'depth=2\\nwidth=4'
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Tanh()) for _ in range(6)])
        self.head = nn.ModuleDict({'cls': nn.Linear(4, 2), 'same': nn.Linear(4, 2)})
print(json.dumps([repr(eval(e)) for e in json.load(sys.stdin)]))
`;

/** PyTorch's repr with its keyword names in camelCase and its booleans as JavaScript writes them. */
const inTpuNames = (text: string) => text
  .replace(/\b([a-z]+(?:_[a-z0-9]+)+)=/g, (_, name: string) => `${name.replace(/_([a-z0-9])/g, (__, c: string) => c.toUpperCase())}=`)
  .replace(/\bTrue\b/g, 'true')
  .replace(/\bFalse\b/g, 'false');

it("models print as PyTorch's repr() (its keyword names in camelCase)", () => {
  const run = spawnSync('python3', ['-W', 'ignore', '-c', PY], { input: JSON.stringify(models.map(([, , py]) => py)), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  const want = (JSON.parse(run.stdout) as string[]).map(inTpuNames);
  models.forEach(([name, make], i) => expect(`${name}:\n${make().toString()}`).toBe(`${name}:\n${want[i]}`));
  // the collapsed line as PyTorch writes it, unmapped
  expect(want[0]).toContain('(0-2): 3 x Linear(inFeatures=4, outFeatures=4, bias=true)\n    (3-4): 2 x ReLU()');
});
