// In-place writes that reach a compiled function's arguments through views: an argument that
// is a view (its base must take the write on every replay, also when the next call passes a
// view of another base or at another position, or a plain tensor), views the body makes of its
// arguments, arguments that share memory (f(a, a), f(a, a.reshape(...))), a module's buffers
// and parameters written through views, and returned views (a write through one reaches the
// argument). Each case runs eagerly and compiled in every mode, against PyTorch 2.13 eagerly.
// Before, from the second call on a write through a view argument reached the first call's
// base or no base, and a returned view was a copy.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchNames } from '../support/torch-names.js';

const { nn } = tpu;
type Nested = number | boolean | Nested[];
type Wrap = <F extends (...a: never[]) => unknown>(f: F) => F;

interface Case {
  readonly name: string;
  /** The scenario, its functions made by `wrap` (eager: as they are; compiled: tpu.compile). */
  readonly js: (wrap: Wrap) => Nested;
  /** PyTorch's scenario: the body of a Python function returning the same values. */
  readonly py: string;
}

const L = (t: Tensor) => t.tolist() as Nested;

const CASES: readonly Case[] = [
  {
    name: 'the same view argument each call (a reshape of a [3, 1] buffer)',
    js: (wrap) => {
      const t = tpu.zeros([3, 1]);
      const rm = t.reshape([3]);
      const f = wrap((x: Tensor, r: Tensor) => { r.add_(x); return r.sum(); });
      const x = tpu.tensor([1, 2, 3]);
      return [[0, 1, 2].map(() => f(x, rm).item()), L(rm), L(t)];
    },
    py: `t = torch.zeros(3, 1); rm = t.reshape(3); x = torch.tensor([1., 2, 3])
def f(x, r):
    r.add_(x); return r.sum()
return [[f(x, rm).item() for _ in range(3)], rm.tolist(), t.tolist()]`,
  },
  {
    name: 'views of two bases, alternately',
    js: (wrap) => {
      const t1 = tpu.zeros([3, 1]);
      const t2 = tpu.full([3, 1], 10);
      const f = wrap((x: Tensor, r: Tensor) => { r.add_(x); return r.sum(); });
      const x = tpu.tensor([1, 2, 3]);
      return [[t1, t2, t1, t2, t2].map((t) => f(x, t.reshape([3])).item()), L(t1), L(t2)];
    },
    py: `t1 = torch.zeros(3, 1); t2 = torch.full((3, 1), 10.); x = torch.tensor([1., 2, 3])
def f(x, r):
    r.add_(x); return r.sum()
return [[f(x, t.reshape(3)).item() for t in [t1, t2, t1, t2, t2]], t1.tolist(), t2.tolist()]`,
  },
  {
    name: 'rows, narrowed windows and transposed columns of one base',
    js: (wrap) => {
      const m = tpu.zeros([2, 3]);
      const w = tpu.zeros([5]);
      const c = tpu.zeros([3, 2]);
      const f = wrap((x: Tensor, r: Tensor) => { r.add_(x); return r.sum(); });
      const x = tpu.tensor([1, 2, 3]);
      const sums = [m.at(0), m.at(1), m.at(1), w.narrow(0, 0, 3), w.narrow(0, 2, 3), w.narrow(0, 1, 3), c.T.at(0), c.T.at(1)].map((v) => f(x, v).item());
      return [sums, L(m), L(w), L(c)];
    },
    py: `m = torch.zeros(2, 3); w = torch.zeros(5); c = torch.zeros(3, 2); x = torch.tensor([1., 2, 3])
def f(x, r):
    r.add_(x); return r.sum()
sums = [f(x, v).item() for v in [m[0], m[1], m[1], w.narrow(0, 0, 3), w.narrow(0, 2, 3), w.narrow(0, 1, 3), c.T[0], c.T[1]]]
return [sums, m.tolist(), w.tolist(), c.tolist()]`,
  },
  {
    name: 'a plain tensor, then a view, then the plain tensor again',
    js: (wrap) => {
      const p = tpu.zeros([3]);
      const t = tpu.zeros([3, 1]);
      const f = wrap((x: Tensor, r: Tensor) => { r.mul_(2).add_(x); return r.sum(); });
      const x = tpu.tensor([1, 2, 3]);
      const v = t.reshape([3]);
      return [[p, v, v, p, v].map((r) => f(x, r).item()), L(p), L(t), L(v)];
    },
    py: `p = torch.zeros(3); t = torch.zeros(3, 1); x = torch.tensor([1., 2, 3]); v = t.reshape(3)
def f(x, r):
    r.mul_(2).add_(x); return r.sum()
return [[f(x, r).item() for r in [p, v, v, p, v]], p.tolist(), t.tolist(), v.tolist()]`,
  },
  {
    name: 'one tensor passed twice, then two tensors',
    js: (wrap) => {
      const a = tpu.tensor([1, 2, 3]);
      const b = tpu.tensor([10, 20, 30]);
      const f = wrap((x: Tensor, y: Tensor) => { x.add_(y); y.mul_(2); return x.sum(); });
      return [[f(a, a).item(), f(a, b).item(), f(a, a).item(), f(b, a).item()], L(a), L(b)];
    },
    py: `a = torch.tensor([1., 2, 3]); b = torch.tensor([10., 20, 30])
def f(x, y):
    x.add_(y); y.mul_(2); return x.sum()
return [[f(a, a).item(), f(a, b).item(), f(a, a).item(), f(b, a).item()], a.tolist(), b.tolist()]`,
  },
  {
    name: 'a tensor and a view of it, then of another tensor',
    js: (wrap) => {
      const a = tpu.tensor([[1, 2], [3, 4]]);
      const b = tpu.tensor([[5, 6], [7, 8]]);
      const f = wrap((x: Tensor, y: Tensor) => { y.add_(1); x.mul_(2); return x.sum().add(y.sum()); });
      const sums = [[a, a], [a, b], [a, a], [b, b]].map(([x, y]) => f(x!, y!.reshape([4])).item());
      return [sums, L(a), L(b)];
    },
    py: `a = torch.tensor([[1., 2], [3, 4]]); b = torch.tensor([[5., 6], [7, 8]])
def f(x, y):
    y.add_(1); x.mul_(2); return x.sum() + y.sum()
return [[f(x, y.reshape(4)).item() for x, y in [[a, a], [a, b], [a, a], [b, b]]], a.tolist(), b.tolist()]`,
  },
  {
    name: 'views the body makes of its argument (a row, a narrow, a view) written in place',
    js: (wrap) => {
      const a = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
      const f = wrap((x: Tensor) => { x.at(0).add_(1); x.narrow(1, 1, 2).mul_(2); x.view([6]).narrow(0, 0, 1).zero_(); return x.sum(); });
      return [[f(a).item(), f(a).item()], L(a)];
    },
    py: `a = torch.tensor([[1., 2, 3], [4, 5, 6]])
def f(x):
    x[0].add_(1); x.narrow(1, 1, 2).mul_(2); x.view(6).narrow(0, 0, 1).zero_(); return x.sum()
return [[f(a).item(), f(a).item()], a.tolist()]`,
  },
  {
    name: 'views the body makes of a view argument, at two positions of its base',
    js: (wrap) => {
      const base = tpu.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
      const f = wrap((x: Tensor) => { x.at(0).add_(1); x.narrow(0, 1, 1).mul_(2); return x.sum(); });
      return [[0, 0, 1].map((s) => f(base.narrow(0, s, 2)).item()), L(base)];
    },
    py: `base = torch.tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
def f(x):
    x[0].add_(1); x.narrow(0, 1, 1).mul_(2); return x.sum()
return [[f(base.narrow(0, s, 2)).item() for s in [0, 0, 1]], base.tolist()]`,
  },
  {
    name: "BatchNorm1d's running statistics, a weight written through w.T.at(1) and w.detach().at(0)",
    js: (wrap) => {
      const bn = new nn.BatchNorm1d(3);
      const lin = new nn.Linear(2, 2);
      tpu.noGrad(() => { lin.weight.copy_(tpu.tensor([[1, 2], [3, 4]])); lin.bias!.zero_(); });
      const f = wrap((x: Tensor) => {
        tpu.noGrad(() => lin.weight.T.at(1).add_(1));
        lin.weight.detach().at(0).mul_(2);
        return bn.forward(x).sum().add(lin.forward(x.narrow(1, 0, 2)).sum());
      });
      const x = tpu.tensor([[1, 2, 3], [4, 5, 7], [0, 1, -1]]);
      const sums = [1, 2, 3].map((k) => f(x.mul(k)).item());
      return [sums, L(bn.runningMean!), L(bn.runningVar!), Number(bn.numBatchesTracked!.item()), L(lin.weight)];
    },
    py: `bn = torch.nn.BatchNorm1d(3); lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2], [3, 4]])); lin.bias.zero_()
def f(x):
    with torch.no_grad(): lin.weight.T[1].add_(1)
    lin.weight.detach()[0].mul_(2)
    return bn(x).sum() + lin(x.narrow(1, 0, 2)).sum()
x = torch.tensor([[1., 2, 3], [4, 5, 7], [0, 1, -1]])
sums = [f(x * k).item() for k in [1, 2, 3]]
return [sums, bn.running_mean.tolist(), bn.running_var.tolist(), bn.num_batches_tracked.item(), lin.weight.tolist()]`,
  },
  {
    name: 'a returned view of an argument, of a view argument and of another returned tensor takes writes through it',
    js: (wrap) => {
      const a = tpu.tensor([1, 2, 3, 4]);
      const t = tpu.zeros([2, 4]);
      const asMatrix = wrap((x: Tensor) => x.reshape([2, 2]));
      const both = wrap((x: Tensor) => { const y = x.mul(2); return [y, y.reshape([2, 2])] as const; });
      const r1 = asMatrix(a);
      const r2 = asMatrix(a);
      r2.at(0).fill_(9);
      const rows = [0, 1, 1].map((i) => { const v = asMatrix(t.at(i)); v.at(0).fill_(i + 1); return L(v); });
      both(a);
      const [y, v] = both(a);
      v.at(1).fill_(0);
      return [L(r1), L(r2), L(a), rows, L(t), L(y), L(v)];
    },
    py: `a = torch.tensor([1., 2, 3, 4]); t = torch.zeros(2, 4)
as_matrix = lambda x: x.reshape(2, 2)
def both(x):
    y = x * 2; return y, y.reshape(2, 2)
r1 = as_matrix(a); r2 = as_matrix(a); r2[0].fill_(9)
rows = []
for i in [0, 1, 1]:
    v = as_matrix(t[i]); v[0].fill_(i + 1); rows.append(v.tolist())
both(a); y, v = both(a); v[1].fill_(0)
return [r1.tolist(), r2.tolist(), a.tolist(), rows, t.tolist(), y.tolist(), v.tolist()]`,
  },
  {
    name: 'one tensor returned twice and an argument returned: the same objects, as eager',
    js: (wrap) => {
      const a = tpu.tensor([1, 2]);
      const f = wrap((x: Tensor) => { const y = x.mul(2); return [y, y, x] as const; });
      f(a);
      const [p, q, r] = f(a);
      p.add_(1);
      return [p === q, r === a, L(q), L(r)];
    },
    py: `a = torch.tensor([1., 2])
def f(x):
    y = x * 2; return y, y, x
f(a); p, q, r = f(a); p.add_(1)
return [p is q, r is a, q.tolist(), r.tolist()]`,
  },
  {
    name: 'a returned row at a number argument is that row when its base is written later',
    js: (wrap) => {
      const a = tpu.tensor([[1, 2], [3, 4], [5, 6]]);
      const row = wrap((x: Tensor, i: number) => x.at(i));
      const rows = [0, 2, 1].map((i) => row(a, i));
      tpu.noGrad(() => a.add_(10));
      return rows.map(L);
    },
    py: `a = torch.tensor([[1., 2], [3, 4], [5, 6]])
rows = [a[i] for i in [0, 2, 1]]
a.add_(10)
return [r.tolist() for r in rows]`,
  },
];

let torch: Nested[];

function expectNear(actual: Nested, expected: Nested, where: string): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), where).toBe(true);
    expect((actual as Nested[]).length, where).toBe(expected.length);
    expected.forEach((e, i) => expectNear((actual as Nested[])[i]!, e, `${where}[${i}]`));
  } else if (typeof expected === 'number') {
    expect(actual, where).toBeCloseTo(expected, 4);
  } else {
    expect(actual, where).toBe(expected);
  }
}

describe('in-place writes through views under tpu.compile', () => {
  // one python3 run for every case (loading torch takes a while on a busy machine)
  beforeAll(() => {
    torch = torchNames(
      `import torch\n${CASES.map((c, k) => `def case_${k}():\n${c.py.split('\n').map((l) => `    ${l}`).join('\n')}`).join('\n')}`,
      `[${CASES.map((_c, k) => `case_${k}()`).join(', ')}]`,
    ) as Nested[];
  }, 180_000);

  it.each(CASES.map((c, i) => [c.name, i] as const))('%s: PyTorch, eager and compiled agree in every mode', (_, i) => {
    const c = CASES[i]!;
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      tpu.withMode(mode, () => {
        expectNear(c.js((f) => f), torch[i]!, `${mode} eager`);
        expectNear(c.js((f) => tpu.compile(f)), torch[i]!, `${mode} compiled`);
      });
    }
  });

  it('a new base or position of a view argument written in place traces again, and says why', () => {
    const m = tpu.zeros([2, 3]);
    const f = tpu.compile((r: Tensor) => r.add_(1).sum());
    f(m.at(0));
    f(m.at(0));
    expect(f.stats().traces).toBe(1);
    f(m.at(1));
    expect(f.stats().traces).toBe(2);
    expect(f.stats().lastRetrace).toBe('tensor argument #0, written in place, was a view (strides [1] offset 0) of a tensor from outside and is a view (strides [1] offset 3) of the same base now');
    f(m.at(0)); // the first plan is kept: a replay
    expect(f.stats().traces).toBe(2);
    expect(m.tolist()).toEqual([[3, 3, 3], [1, 1, 1]]);
  });

  it('read-only view arguments replay one plan for every position', () => {
    const data = tpu.tensor([[1, 2], [3, 4], [5, 6]]);
    const f = tpu.compile((r: Tensor) => r.mul(2).sum());
    expect([0, 1, 2, 0].map((i) => f(data.at(i)).item())).toEqual([6, 14, 22, 6]);
    expect(f.stats().traces).toBe(1);
  });
});
