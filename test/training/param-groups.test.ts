// Param groups and schedulers: bad input is an error naming the argument; a group's lr set
// from a compiled function's number argument is bound per call; opt.lr is group 0's.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { optim } = tpu;
const S = optim.lrScheduler;
afterEach(() => tpu.mode('strict'));

const param = (values = [1, 2]) => tpu.tensor(values, { dtype: 'float32', requiresGrad: true });

describe('param group errors', () => {
  it('name the group, the key and what was expected', () => {
    const [a, b] = [param(), param()];
    expect(() => new optim.SGD([{ params: [a] }, { params: [b, a] }])).toThrow(/SGD: paramGroups\[1\]\.params\[1\] is already in paramGroups\[0\]: a parameter may be in one group only/);
    expect(() => new optim.SGD([{ params: [a], weight_decay: 0.1 } as never])).toThrow(/SGD paramGroups\[0\]: unknown option 'weight_decay' \(did you mean 'weightDecay'\?\)/);
    expect(() => new optim.Adam([{ params: [a], momentum: 0.9 } as never])).toThrow(/Adam paramGroups\[0\]: unknown option 'momentum'; Adam paramGroups\[0\] accepts 'params', 'lr', 'betas', 'eps', 'weightDecay'/);
    expect(() => new optim.SGD([{ lr: 0.1 } as never])).toThrow(/SGD: paramGroups\[0\]\.params is missing/);
    expect(() => new optim.SGD([a, { params: [b] }] as never)).toThrow(/SGD: params must be all tensors or all param groups/);
    expect(() => new optim.SGD([{ params: [a] }, { params: [b], momentum: -1 }])).toThrow(/SGD: paramGroups\[1\]\.momentum must be a number in \[0, Infinity\]; got -1/);
    expect(() => new optim.SGD([{ params: [a], nesterov: true }], { momentum: 0 })).toThrow(/SGD: paramGroups\[0\]\.nesterov needs momentum > 0/);
    expect(() => new optim.Adam([{ params: [a], betas: [0.9] as never }])).toThrow(/Adam: paramGroups\[0\]\.betas must be \[beta1, beta2\]/);
    expect(() => new optim.SGD([{ params: [tpu.zeros([2])] }])).toThrow(/SGD: paramGroups\[0\]\.params\[0\].*does not require grad/);
    const opt = new optim.SGD([a], { lr: 0.1 });
    expect(() => opt.addParamGroup({ params: [a] })).toThrow(/SGD: paramGroups\[1\]\.params\[0\] is already in paramGroups\[0\]/);
    expect(() => opt.addParamGroup({ params: b, lrr: 1 } as never)).toThrow(/SGD paramGroups\[1\]: unknown option 'lrr'/);
    expect(opt.paramGroups).toHaveLength(1);
  });

  it('a group\'s options default to the optimizer\'s; a single tensor is a group of one; groups have their own betas', () => {
    const [a, b] = [param(), param()];
    const opt = new optim.Adam([{ params: a, lr: 0.5 }, { params: [b] }], { lr: 0.01, betas: [0.8, 0.9] });
    expect(opt.paramGroups.map((g) => [g.params.length, g.params[0] === [a, b][opt.paramGroups.indexOf(g)], g.lr, g.betas, g.eps, g.weightDecay]))
      .toEqual([[1, true, 0.5, [0.8, 0.9], 1e-8, 0], [1, true, 0.01, [0.8, 0.9], 1e-8, 0]]);
    expect(opt.defaults).toEqual({ lr: 0.01, betas: [0.8, 0.9], eps: 1e-8, weightDecay: 0, amsgrad: false, maximize: false });
    opt.paramGroups[0]!.betas = [0.5, 0.9];
    expect(opt.paramGroups[1]!.betas).toEqual([0.8, 0.9]);
    expect(new optim.AdamW([a]).paramGroups[0]!.weightDecay).toBe(0.01);
    // PyTorch's keys throw naming tpu's, rather than setting a key no update reads; they are not enumerable
    const group = opt.paramGroups[1] as unknown as Record<string, unknown>;
    expect(() => { group.weight_decay = 0.3; }).toThrow("opt.paramGroups[1].weight_decay: PyTorch's weight_decay is opt.paramGroups[1].weightDecay here");
    expect(() => group.initial_lr).toThrow("opt.paramGroups[1].initial_lr: PyTorch's initial_lr is opt.paramGroups[1].initialLr here");
    expect(Object.keys(group)).toEqual(['params', 'lr', 'betas', 'eps', 'weightDecay', 'amsgrad', 'maximize']);
  });

  it('opt.lr is the only group\'s lr; with several groups it is an error pointing at paramGroups', () => {
    const [a, b] = [param(), param()];
    const opt = new optim.SGD([a], { lr: 0.1, momentum: 0.9 });
    opt.lr = 0.3;
    expect(opt.paramGroups[0]!.lr).toBe(0.3);
    opt.paramGroups[0]!.momentum = 0.5;
    expect(opt.momentum).toBe(0.5);
    opt.addParamGroup({ params: [b] });
    expect(() => opt.lr).toThrow(/SGD: opt\.lr is ambiguous with 2 param groups: use opt\.paramGroups\[i\]\.lr/);
    expect(() => { opt.momentum = 0; }).toThrow(/SGD: opt\.momentum is ambiguous/);
  });

  it('a bad value written to a group is an error at the next step naming it', () => {
    const [a, b] = [param(), param()];
    const opt = new optim.SGD([{ params: [a] }, { params: [b] }], { lr: 0.1 });
    opt.paramGroups[1]!.lr = -1;
    a.add(b).sum().backward();
    expect(() => opt.step()).toThrow(/SGD: paramGroups\[1\]\.lr must be a number in \[0, Infinity\]; got -1/);
  });
});

describe('scheduler errors', () => {
  it('name the scheduler and the argument', () => {
    const opt = new optim.SGD([{ params: [param()] }, { params: [param()] }], { lr: 0.1 });
    expect(() => new S.StepLR(opt, {})).toThrow(/StepLR: stepSize is required/);
    expect(() => new S.StepLR(opt, 0)).toThrow(/StepLR: stepSize must be an integer >= 1; got 0/);
    expect(() => new S.StepLR(opt, 2, { step_size: 3 } as never)).toThrow(/StepLR: unknown option 'step_size' \(did you mean 'stepSize'\?\)/);
    expect(() => new S.StepLR(opt, 2, { stepSize: 3 })).toThrow(/StepLR: stepSize is given twice/);
    const stepLR = new S.StepLR(opt, 2);
    expect(() => (stepLR.step as (epoch: number) => void).call(stepLR, 5)).toThrow(/StepLR\.step: takes no argument/);
    expect(() => new S.StepLR({} as never, 2)).toThrow(/StepLR: optimizer must be a tpu\.optim optimizer/);
    expect(() => new S.OneCycleLR(null as never, 0.1, { totalSteps: 3 })).toThrow(/OneCycleLR: optimizer must be a tpu\.optim optimizer \(SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam\); got null/);
    expect(() => new S.LambdaLR(opt, [(e: number) => e])).toThrow(/LambdaLR: lrLambda must be one function or one per param group \(2\); got 1/);
    expect(() => new S.OneCycleLR(opt, 0.1)).toThrow(/OneCycleLR: give totalSteps, or epochs and stepsPerEpoch/);
    expect(() => new S.OneCycleLR(opt, [0.1], { totalSteps: 3 })).toThrow(/OneCycleLR: maxLr must have one value per param group \(2\); got 1/);
    expect(() => new S.LinearLR(opt, { startFactor: 0 })).toThrow(/LinearLR: startFactor must be a number in \(0, 1\]; got 0/);
    expect(() => new S.ReduceLROnPlateau(opt, { mode: 'low' as never })).toThrow(/ReduceLROnPlateau: mode must be 'min' or 'max'/);
    const cycle = new S.OneCycleLR(opt, 0.1, { totalSteps: 2 });
    cycle.step();
    cycle.step();
    expect(() => cycle.step()).toThrow(/OneCycleLR: stepped 3 times, past totalSteps \(2\)/);
    const lambda = new S.LambdaLR(opt, (e: number) => 0.5 ** e);
    opt.addParamGroup({ params: [param()] });
    expect(() => lambda.step()).toThrow(/LambdaLR\.step: param group 2 was added after the scheduler was made and has no base lr: make the scheduler after addParamGroup/);
  });
});

describe('ReduceLROnPlateau and a group added later', () => {
  it('a minLr given as one number applies to it (PyTorch\'s default_min_lr); one per group is an error', () => {
    const opt = new optim.SGD([param()], { lr: 0.1 });
    const sched = new S.ReduceLROnPlateau(opt, { patience: 0, minLr: 0.02 });
    opt.addParamGroup({ params: [param()], lr: 0.5 });
    sched.step(1);
    sched.step(2); // worse: reduced, each lr * 0.1, at least minLr
    expect(sched.getLastLr()).toEqual([0.02, 0.05]);
    const perGroup = new S.ReduceLROnPlateau(opt, { patience: 0, minLr: [0, 0] });
    opt.addParamGroup({ params: [param()] });
    perGroup.step(1);
    expect(() => perGroup.step(2)).toThrow(/ReduceLROnPlateau: the optimizer has 3 param groups, 2 when the scheduler was made: set sched\.minLrs to one value per group/);
  });
});

describe('a group\'s lr under tpu.compile', () => {
  it('set inside from a number argument (paramGroups[1].lr = lr) is bound per call, as eager steps', () => {
    const run = (compiled: boolean) => {
      const [a, b] = [param([1, -2]), param([0.5, 3])];
      const opt = new optim.SGD([{ params: [a] }, { params: [b], momentum: 0.9 }], { lr: 0.1 });
      const x = tpu.tensor([0.5, -1], { dtype: 'float32' });
      let bodyRuns = 0;
      const body = (xs: Tensor, lr: number) => {
        bodyRuns++;
        opt.paramGroups[1]!.lr = lr;
        opt.zeroGrad();
        a.mul(xs).add(b.square()).sum().backward();
        opt.step();
        return a.add(b);
      };
      const step = compiled ? tpu.compile(body) : body;
      const out = [0.2, 0.05, 0.4, 0.1].map((lr) => Array.from(step(x, lr).dataSync() as Float32Array));
      return { out, bodyRuns };
    };
    const eager = run(false);
    const comp = run(true);
    expect(comp.bodyRuns).toBe(1);
    // float64 loop: a <- a - 0.1 x; b's buffer <- 0.9 buf + 2b (the first: 2b); b <- b - lr buf
    let [a, b, buf] = [[1, -2], [0.5, 3], [0, 0]];
    const want = [0.2, 0.05, 0.4, 0.1].map((lr, k) => {
      a = a.map((v, i) => v - 0.1 * [0.5, -1][i]!);
      buf = buf.map((m, i) => (k === 0 ? 2 * b[i]! : 0.9 * m + 2 * b[i]!));
      b = b.map((v, i) => v - lr * buf[i]!);
      return a.map((v, i) => v + b[i]!);
    });
    for (const got of [eager.out, comp.out]) got.forEach((o, k) => o.forEach((v, i) => expect(v).toBeCloseTo(want[k]![i]!, 5)));
  });
});
