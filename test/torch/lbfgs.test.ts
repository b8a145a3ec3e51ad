// optim.LBFGS against torch.optim.LBFGS (float32 on both sides): a least-squares fit and the
// Rosenbrock function, with and without the strong Wolfe line search, a history shorter than
// the run, three step(closure) calls: the losses step() returns, how often each step called the
// closure, and the parameters, in every mode; and its errors.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const A = [[1, 2, 0.5], [0.3, -1, 2], [2, 0.1, 1], [-1, 1, 1], [0.5, 0.5, -2]];
const B = [1, -2, 0.5, 3, 1];

/** digits: the decimals compared (the strong Wolfe search on Rosenbrock's valley amplifies float32 rounding: PyTorch's
 * line search computes its scalars partly in float32 tensors, ours in float64; the closure call counts still match). */
interface Case { name: string; problem: 'lsq' | 'rosenbrock'; options: Record<string, unknown>; py: string; digits?: number }
const cases: Case[] = [
  { name: 'least squares, no line search, historySize 2', problem: 'lsq', options: { lr: 0.05, maxIter: 3, historySize: 2 }, py: 'lr=0.05, max_iter=3, history_size=2' },
  { name: 'least squares, strong Wolfe', problem: 'lsq', options: { maxIter: 5, lineSearchFn: 'strong_wolfe' }, py: "max_iter=5, line_search_fn='strong_wolfe'" },
  { name: 'Rosenbrock, no line search', problem: 'rosenbrock', options: { lr: 0.1, maxIter: 8 }, py: 'lr=0.1, max_iter=8' },
  { name: 'Rosenbrock, strong Wolfe, historySize 3, maxEval 12', problem: 'rosenbrock', options: { maxIter: 10, maxEval: 12, historySize: 3, lineSearchFn: 'strong_wolfe' }, py: "max_iter=10, max_eval=12, history_size=3, line_search_fn='strong_wolfe'", digits: 2 },
];

const PY = `
import json, sys, torch
A = torch.tensor(${JSON.stringify(A)}); B = torch.tensor(${JSON.stringify(B)})
out = []
for c in json.load(sys.stdin):
    if c['problem'] == 'lsq':
        ps = [torch.tensor([0.5, -0.5], requires_grad=True), torch.tensor([0.25], requires_grad=True)]
        f = lambda: ((A @ torch.cat(ps) - B) ** 2).sum()
    else:
        ps = [torch.tensor([-1.2, 1.0], requires_grad=True)]
        f = lambda: (1 - ps[0][0]) ** 2 + 100 * (ps[0][1] - ps[0][0] ** 2) ** 2
    opt = eval('torch.optim.LBFGS(ps, ' + c['py'] + ')')
    calls = [0]
    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = f()
        loss.backward()
        return loss
    losses, counts = [], []
    for _ in range(3):
        calls[0] = 0
        losses.append(float(opt.step(closure)))
        counts.append(calls[0])
    out.append({'losses': losses, 'calls': counts, 'params': [v for p in ps for v in p.tolist()]})
print(json.dumps(out))
`;

function torchRuns(): { losses: number[]; calls: number[]; params: number[] }[] {
  const run = spawnSync('python3', ['-W', 'ignore', '-c', PY], { input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function run(c: Case) {
  const a = tpu.tensor(A);
  const b = tpu.tensor(B);
  const ps = c.problem === 'lsq' ? [tpu.tensor([0.5, -0.5], { requiresGrad: true }), tpu.tensor([0.25], { requiresGrad: true })] : [tpu.tensor([-1.2, 1], { requiresGrad: true })];
  const f = c.problem === 'lsq'
    ? () => a.matmul(tpu.concat(ps)).sub(b).square().sum()
    : () => { const [x, y] = [ps[0]!.at(0), ps[0]!.at(1)]; return tpu.sub(1, x).square().add(y.sub(x.square()).square().mul(100)); };
  const opt = new tpu.optim.LBFGS(ps, c.options);
  let calls = 0;
  const closure = () => { calls++; opt.zeroGrad(); const loss = f(); loss.backward(); return loss; };
  const losses: number[] = [];
  const counts: number[] = [];
  for (let k = 0; k < 3; k++) {
    calls = 0;
    losses.push(Number((opt.step(closure) as Tensor).item()));
    counts.push(calls);
  }
  return { losses, calls: counts, params: ps.flatMap((p) => p.tolist() as number[]) };
}

describe('LBFGS vs torch.optim.LBFGS (three steps)', () => {
  const want = torchRuns();
  describe.each(['debug', 'strict', 'fused'] as const)('%s', (mode) => {
    cases.forEach((c, i) => {
      it(c.name, () => {
        tpu.mode(mode);
        try {
          const got = run(c);
          expect(got.calls).toEqual(want[i]!.calls);
          got.losses.forEach((v, k) => expect(v).toBeCloseTo(want[i]!.losses[k]!, c.digits ?? 4));
          got.params.forEach((v, k) => expect(v).toBeCloseTo(want[i]!.params[k]!, c.digits ?? 4));
        } finally {
          tpu.mode('strict');
        }
      });
    });
  });
});

it('LBFGS errors name what was wrong', () => {
  const w = tpu.zeros([2], { requiresGrad: true });
  expect(() => new tpu.optim.LBFGS([w], { lineSearchFn: 'backtracking' as never })).toThrow(`LBFGS: lineSearchFn must be null or 'strong_wolfe', as PyTorch's; got "backtracking"`);
  expect(() => new tpu.optim.LBFGS([w], { historySize: 0 })).toThrow('LBFGS: historySize must be an integer >= 1; got 0');
  expect(() => new tpu.optim.LBFGS([w], { weightDecay: 0.1 } as never)).toThrow(/LBFGS: unknown option 'weightDecay'/);
  expect(() => new tpu.optim.LBFGS([{ params: [w] }, { params: [tpu.zeros([1], { requiresGrad: true })] }])).toThrow(/one param group only/);
  const opt = new tpu.optim.LBFGS([w]);
  expect(() => opt.step()).toThrow(/LBFGS.step: takes a closure/);
  expect(() => opt.stateDict()).toThrow(/LBFGS.stateDict: not supported/);
  const compiled = tpu.compile(() => opt.step(() => { opt.zeroGrad(); const l = w.square().sum(); l.backward(); return l; }) as Tensor);
  expect(() => compiled()).toThrow(/LBFGS.step: not inside tpu.compile/);
});
