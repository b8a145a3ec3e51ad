// A module's tree (namedModules, modules, children, apply, model[-1]), loadStateDict's unmatched keys and freezing (module.requiresGrad_,
// `p.requiresGrad = false`): a frozen parameter stays in parameters() and in an optimizer made
// after freezing, which steps it again once it is unfrozen, as PyTorch's. Against PyTorch 2.13
// in every mode; the names against PyTorch's own, written out.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { describe, expect, it } from 'vitest';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const nn = tpu.nn;
const X = f32([[1, -2, 0.5], [3, 0.25, -1]]);

/** Linear(3, 2) -> Tanh -> Linear(2, 1), weights from a fixed formula (PyTorch's side sets the same). */
function model(): InstanceType<typeof nn.Sequential> {
  const m = new nn.Sequential(new nn.Linear(3, 2), new nn.Tanh(), new nn.Linear(2, 1));
  tpu.noGrad(() => m.parameters().forEach((p, i) => (p as Tensor).copy_(tpu.arange((p as Tensor).numel()).float().mul(0.37 * (i + 1)).sin().mul(0.5).reshape([...p.shape]))));
  return m;
}
const MODEL_PY = [
  'm = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))',
  'with torch.no_grad():',
  '    for i, p in enumerate(m.parameters()): p.copy_((torch.arange(p.numel()).float() * (0.37 * (i + 1))).sin().mul(0.5).reshape(p.shape))',
];
const count = (ps: readonly unknown[]) => tpu.tensor([ps.length], { dtype: 'int64' });

const cases: TorchCase[] = [
  {
    name: 'a layer frozen before the optimizer is made, stepped after it is unfrozen',
    inputs: [X],
    js: (x) => {
      const m = model();
      m[0]!.requiresGrad_(false);
      const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1, momentum: 0.9 });
      const n = count(m.parameters());
      for (let i = 0; i < 2; i++) {
        opt.zeroGrad();
        m(x).square().sum().backward();
        opt.step();
      }
      const frozen = (m[0] as InstanceType<typeof nn.Linear>).weight.detach().clone();
      m[0]!.requiresGrad_(true);
      opt.zeroGrad();
      m(x).square().sum().backward();
      opt.step();
      return [n, frozen, (m[0] as InstanceType<typeof nn.Linear>).weight.detach(), (m[2] as InstanceType<typeof nn.Linear>).weight.detach()];
    },
    py: [
      ...MODEL_PY,
      'm[0].requires_grad_(False)',
      'opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)',
      'n = torch.tensor([len(list(m.parameters()))])',
      'for i in range(2):',
      '    opt.zero_grad(); m(x0).square().sum().backward(); opt.step()',
      'frozen = m[0].weight.detach().clone()',
      'm[0].requires_grad_(True)',
      'opt.zero_grad(); m(x0).square().sum().backward(); opt.step()',
      'result = (n, frozen, m[0].weight.detach(), m[2].weight.detach())',
    ].join('\n'),
  },
  {
    name: 'every parameter frozen by assignment: still listed, Adam takes them and the output needs no grad',
    inputs: [X],
    js: (x) => {
      const m = model();
      for (const p of m.parameters()) p.requiresGrad = false;
      const opt = new tpu.optim.Adam(m.parameters(), { lr: 0.1 });
      const y = m(x);
      opt.step();
      return [count(m.parameters()), tpu.tensor([y.requiresGrad]), (m[0] as InstanceType<typeof nn.Linear>).bias!.detach()];
    },
    py: [
      ...MODEL_PY,
      'for p in m.parameters(): p.requires_grad = False',
      'opt = torch.optim.Adam(m.parameters(), lr=0.1)',
      'y = m(x0)',
      'opt.step()',
      'result = (torch.tensor([len(list(m.parameters()))]), torch.tensor([y.requires_grad]), m[0].bias.detach())',
    ].join('\n'),
  },
  {
    name: 'apply initializes every Linear, children first',
    inputs: [X],
    js: (x) => {
      const m = model();
      const order: number[] = [];
      m.apply((l) => {
        order.push(l instanceof nn.Linear ? 1 : l instanceof nn.Sequential ? 2 : 0);
        if (l instanceof nn.Linear) tpu.nn.init.constant_(l.weight, 0.5);
      });
      return [tpu.tensor(order, { dtype: 'int64' }), m(x).detach()];
    },
    py: [
      ...MODEL_PY,
      'order = []',
      'def f(l):',
      '    order.append(1 if isinstance(l, torch.nn.Linear) else 2 if isinstance(l, torch.nn.Sequential) else 0)',
      '    if isinstance(l, torch.nn.Linear): torch.nn.init.constant_(l.weight, 0.5)',
      'm.apply(f)',
      'result = (torch.tensor(order), m(x0).detach())',
    ].join('\n'),
  },
];

torchTier('module tree and freezing vs PyTorch', cases);

describe('module tree names', () => {
  const inner = new nn.Sequential(new nn.ReLU());
  const shared = new nn.Linear(2, 2);
  const m = new nn.Sequential(shared, inner, shared);

  it('namedModules lists each module once under its first name, as PyTorch', () => {
    // torch: [n for n, _ in Sequential(l, Sequential(ReLU()), l).named_modules()] == ['', '0', '1', '1.0']
    expect(m.namedModules().map(([n]) => n)).toEqual(['', '0', '1', '1.0']);
    expect(m.namedModules('model').map(([n]) => n)).toEqual(['model', 'model.0', 'model.1', 'model.1.0']);
    expect(m.modules()).toEqual([m, shared, inner, inner[0]]);
    // torch: len(list(...children())) == 2 (the shared Linear once)
    expect(m.children()).toEqual([shared, inner]);
  });

  it('model[-1] counts from the end, as Python indexing (Sequential and ModuleList)', () => {
    expect(m[-1]).toBe(shared);
    expect(m[-2]).toBe(inner);
    expect(m[-3]).toBe(m[0]);
    const list = new nn.ModuleList([new nn.ReLU()]);
    list.append(new nn.Tanh());
    expect(list[-1]).toBe(list[1]);
    expect(list[-2]).toBe(list[0]);
  });

  it('apply and requiresGrad_ name a bad argument', () => {
    expect(() => m.apply(3 as never)).toThrow(/apply: fn must be a function of a module; got/);
    expect(() => m.requiresGrad_('no' as never)).toThrow(/requiresGrad_: requiresGrad must be a boolean/);
  });

  it("loadStateDict returns the keys it did not match, as PyTorch's _IncompatibleKeys", () => {
    const a = new nn.Linear(2, 2);
    const sd = a.stateDict();
    // torch: Linear(2, 2).load_state_dict({'weight': w, 'extra': e}, strict=False)
    //   == _IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['extra'])
    expect(a.loadStateDict({ weight: sd.weight!, extra: tpu.zeros([1]) }, { strict: false })).toEqual({ missingKeys: ['bias'], unexpectedKeys: ['extra'] });
    expect(a.loadStateDict(sd)).toEqual({ missingKeys: [], unexpectedKeys: [] });
  });

  it('a tensor that never required grad is still a buffer, not a parameter', () => {
    const bn = new nn.BatchNorm1d(2);
    bn.requiresGrad_(false);
    expect(bn.parameters().length).toBe(2);
    expect(Object.keys(bn.stateDict())).toEqual(['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']);
    bn.requiresGrad_(true);
    expect(bn.parameters().map((p) => p.requiresGrad)).toEqual([true, true]);
    expect((bn as unknown as { running_mean: Tensor }).running_mean.requiresGrad).toBe(false);
  });
});
