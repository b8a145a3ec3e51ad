// What decides a compiled call's gradients besides its shapes: a parameter frozen
// (requiresGrad_(false)) or unfrozen between calls, an argument that requires grad at one call
// and not at another, a call under tpu.noGrad, and a replay's result that requires grad (a
// forward returned for a backward() outside: a replay records no graph, so backward through
// it is an error naming the fix, never gradients silently left out). With a learning-rate
// scheduler stepping inside the body. Against eager execution and PyTorch 2.13. Before, a
// frozen parameter kept being updated by replays, and replay results never required grad.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchNames } from '../support/torch-names.js';

const { nn, optim } = tpu;
type Wrap = <F extends (...a: never[]) => unknown>(f: F) => F;

/** Linear(2, 1) with weight [[0.5, -0.25]] and bias 0.1, as the Python side makes it. */
function linear(): InstanceType<typeof nn.Linear> {
  const lin = new nn.Linear(2, 1);
  tpu.noGrad(() => { lin.weight.copy_(tpu.tensor([[0.5, -0.25]])); lin.bias!.fill_(0.1); });
  return lin;
}
const PY_LINEAR = `lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -0.25]])); lin.bias.fill_(0.1)`;
const X = [[1, 2], [3, -1], [0.5, 0.5]];
const Y = [[1], [0], [2]];

/** SGD with momentum over an MSE loss, the weight frozen for calls 2 and 3, then unfrozen. */
function freezing(wrap: Wrap) {
  const lin = linear();
  const opt = new optim.SGD(lin.parameters(), { lr: 0.1, momentum: 0.9 });
  const step = wrap((x: Tensor, y: Tensor) => {
    opt.zeroGrad();
    const loss = nn.functional.mseLoss(lin.forward(x), y);
    loss.backward();
    opt.step();
    return loss;
  });
  const [x, y] = [tpu.tensor(X), tpu.tensor(Y)];
  const losses = [0, 1, 2, 3, 4].map((k) => {
    lin.weight.requiresGrad_(k === 0 || k === 4);
    return step(x, y).item();
  });
  return { losses, weight: lin.weight.tolist(), bias: lin.bias!.tolist(), traces: (step as { stats?: () => { traces: number } }).stats?.().traces };
}

/** StepLR and OneCycleLR stepped inside the body, after the optimizer. */
function scheduled(wrap: Wrap, which: 'step' | 'onecycle') {
  const lin = linear();
  const opt = new optim.SGD(lin.parameters(), { lr: 0.1, momentum: 0.9 });
  const sched = which === 'step' ? new optim.lrScheduler.StepLR(opt, { stepSize: 2, gamma: 0.5 }) : new optim.lrScheduler.OneCycleLR(opt, { maxLr: 0.2, totalSteps: 6 });
  const step = wrap((x: Tensor, y: Tensor) => {
    opt.zeroGrad();
    const loss = nn.functional.mseLoss(lin.forward(x), y);
    loss.backward();
    opt.step();
    sched.step();
    return loss;
  });
  const [x, y] = [tpu.tensor(X), tpu.tensor(Y)];
  const losses = [0, 1, 2, 3, 4, 5].map(() => step(x, y).item());
  return { losses, weight: lin.weight.tolist(), lr: opt.paramGroups[0]!.lr };
}

const torch = () => torchNames(`import torch
def freezing():
    ${PY_LINEAR.split('\n').join('\n    ')}
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    x = torch.tensor(${JSON.stringify(X)}); y = torch.tensor(${JSON.stringify(Y)})
    losses = []
    for k in range(5):
        lin.weight.requires_grad_(k == 0 or k == 4)
        opt.zero_grad(); loss = torch.nn.functional.mse_loss(lin(x), y); loss.backward(); opt.step()
        losses.append(loss.item())
    return {'losses': losses, 'weight': lin.weight.tolist(), 'bias': lin.bias.tolist()}
def scheduled(which):
    ${PY_LINEAR.split('\n').join('\n    ')}
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5) if which == 'step' else torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=6)
    x = torch.tensor(${JSON.stringify(X)}); y = torch.tensor(${JSON.stringify(Y)})
    losses = []
    for _ in range(6):
        opt.zero_grad(); loss = torch.nn.functional.mse_loss(lin(x), y); loss.backward(); opt.step(); sched.step()
        losses.append(loss.item())
    return {'losses': losses, 'weight': lin.weight.tolist(), 'lr': opt.param_groups[0]['lr']}
`, `{'freezing': freezing(), 'step': scheduled('step'), 'onecycle': scheduled('onecycle')}`) as Record<string, Record<string, unknown>>;

function expectNear(actual: unknown, expected: unknown, where: string): void {
  if (Array.isArray(expected)) expected.forEach((e, i) => expectNear((actual as unknown[])[i], e, `${where}[${i}]`));
  else expect(actual as number, where).toBeCloseTo(expected as number, 5);
}

let reference: Record<string, Record<string, unknown>>;
const ref = () => reference;
// one python3 run for every mode (loading torch takes a while on a busy machine)
beforeAll(() => { reference = torch(); }, 180_000);

describe.each(['debug', 'strict', 'fused'] as const)('gradients under tpu.compile (%s mode)', (mode) => {

  it('a parameter frozen and unfrozen between calls: PyTorch, eager and compiled agree; each state traces once', () => tpu.withMode(mode, () => {
    const want = ref().freezing!;
    const eager = freezing((f) => f);
    const compiled = freezing((f) => tpu.compile(f));
    for (const got of [eager, compiled]) {
      expectNear(got.losses, want.losses, 'losses');
      expectNear(got.weight, want.weight, 'weight');
      expectNear(got.bias, want.bias, 'bias');
    }
    expect(compiled.traces).toBe(2); // frozen and not: the fifth call replays the first trace
  }));

  it.each(['step', 'onecycle'] as const)('a %s scheduler stepped inside the body: PyTorch, eager and compiled agree', (which) => tpu.withMode(mode, () => {
    const want = ref()[which]!;
    for (const got of [scheduled((f) => f, which), scheduled((f) => tpu.compile(f), which)]) {
      expectNear(got.losses, want.losses, 'losses');
      expectNear(got.weight, want.weight, 'weight');
      expectNear(got.lr, want.lr, 'lr');
    }
  }));

  it('an argument that requires grad at one call and not at another gets its gradient as eagerly', () => tpu.withMode(mode, () => {
    const f = tpu.compile((x: Tensor) => x.mul(x).sum());
    const a = tpu.tensor([1, 2]);
    const b = tpu.tensor([3, 4], { requiresGrad: true });
    expect(f(a).requiresGrad).toBe(false);
    const r = f(b);
    expect(r.requiresGrad).toBe(true);
    r.backward();
    expect(b.grad!.tolist()).toEqual([6, 8]); // d/dx Σx² = 2x, as PyTorch's
    expect(f(a).requiresGrad).toBe(false);
    expect(f.stats().traces).toBe(2);
  }));

  it('a call under tpu.noGrad is a trace of its own: its result requires no grad, the next call outside does', () => tpu.withMode(mode, () => {
    const lin = linear();
    const f = tpu.compile((x: Tensor) => lin.forward(x).sum());
    const x = tpu.tensor(X);
    const quiet = tpu.noGrad(() => f(x));
    expect(quiet.requiresGrad).toBe(false);
    const loud = f(x);
    expect(loud.requiresGrad).toBe(true);
    loud.backward(); // a trace's result carries the body's graph
    expect(lin.weight.grad!.tolist()).toEqual([[4.5, 1.5]]); // Σ rows of x
    expect(tpu.noGrad(() => f(x)).requiresGrad).toBe(false);
    expect(quiet.item()).toBeCloseTo(0.5 * 4.5 - 0.25 * 1.5 + 0.3, 5);
  }));

  it("a replay's result requires grad as the eager one does, and backward through it is an error naming the fix", () => tpu.withMode(mode, () => {
    const lin = linear();
    const f = tpu.compile((x: Tensor) => lin.forward(x).sum());
    const x = tpu.tensor(X);
    f(x);
    const replayed = f(x);
    expect(replayed.requiresGrad).toBe(true);
    expect(replayed.item()).toBeCloseTo(0.5 * 4.5 - 0.25 * 1.5 + 0.3, 5);
    expect(() => replayed.mul(2).add(lin.weight.sum()).backward()).toThrow(/tpu\.compile\(fn\) returned this tensor from a replay.*Call backward\(\) inside the compiled function/s);
  }));
});
