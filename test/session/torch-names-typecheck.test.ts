// The PyTorch names added for natural code type-check in a cell (the declarations a cell's
// language service reads, dist/runtime): grad mode, tpu.autograd.grad, detach_, isTensor,
// tensorSplit, varMean/stdMean, fliplr/flipud, randintLike, bernoulli, multinomial,
// Module.to, inplace layers, binary cross entropy's weight and posWeight. Values hand-computed (exact in float32) or shapes/dtypes.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-torch-names-')();

describe('PyTorch names under %typecheck error', () => {
  it('grad mode, autograd.grad, detach_ and isTensor', async () => {
    await driver.value('%typecheck error');
    const cell = [
      'const w = tpu.tensor([1, 2], { requiresGrad: true });',
      'const [g] = tpu.autograd.grad(w.square().sum(), [w], { retainGraph: false, allowUnused: true });',
      'const enabled: boolean = tpu.isGradEnabled();',
      'tpu.setGradEnabled(false);',
      'const off = tpu.isGradEnabled();',
      'tpu.setGradEnabled(true);',
      'const y = tpu.noGrad(() => tpu.enableGrad(() => w.mul(2)));',
      'const h = tpu.setGradEnabled(false, () => w.mul(3));',
      'const cut = w.mul(2).detach_().requiresGrad;',
      'JSON.stringify([g!.tolist(), enabled, off, y.requiresGrad, h.requiresGrad, cut, tpu.isTensor(w), tpu.isTensor(3)])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([[2, 4], true, false, true, false, false, true, false])}'`);
  });

  it('tensorSplit, varMean, stdMean, fliplr, flipud, randintLike, bernoulli, multinomial', async () => {
    const cell = [
      'const x = tpu.arange(7);',
      'const sizes = [...tpu.tensorSplit(x, 3), ...x.tensorSplit([1, 5], { dim: 0 })].map((t) => t.shape[0]);',
      'const [v, m] = tpu.varMean(tpu.tensor([1, 2, 6]));',
      'const [s, m2] = tpu.stdMean(tpu.tensor([[1, 3], [2, 6]]), 1, { correction: 0 });',
      'const flips = [tpu.fliplr(tpu.tensor([[1, 2]])).tolist(), tpu.tensor([[1], [2]]).flipud().tolist()];',
      'const r = tpu.randintLike(tpu.zeros([3]), 2, 5, { device: \'tpu:0\' });',
      'const likes = [tpu.zerosLike(r, { device: r.device }), tpu.emptyLike(r, { device: \'xla:0\', dtype: \'int32\' }), tpu.randnLike(r, { device: \'tpu\' })].map((t) => t.device);',
      'const b = tpu.bernoulli(tpu.tensor([0, 1])).tolist();',
      'const b2 = tpu.zeros([2]).bernoulli_(1).tolist();',
      'const c = tpu.multinomial(tpu.tensor([0, 0, 1]), 2, { replacement: true }).tolist();',
      'JSON.stringify([sizes, v.item(), m.item(), s.tolist(), m2.tolist(), flips, r.dtype, likes, b, b2, c])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([[3, 2, 2, 1, 4, 2], 7, 3, [1, 2], [2, 4], [[[2, 1]], [[2], [1]]], 'float32', ['tpu:0', 'tpu:0', 'tpu:0'], [0, 1], [1, 1], [2, 2]])}'`);
  });

  it('Module.to, inplace layers and stateDict', async () => {
    const cell = [
      'const model = new tpu.nn.Sequential(new tpu.nn.Linear(2, 2), new tpu.nn.ReLU({ inplace: true }), new tpu.nn.LeakyReLU(0.1, true), new tpu.nn.Dropout(0.5, true));',
      'const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });',
      'const x = tpu.ones([2]);',
      'const device = x.device;',
      'const same = model.to(\'bfloat16\') === model && model.to(device) === model && model.to(\'tpu:0\', \'bfloat16\') === model && x.to(device) === x && x.to(\'tpu\', \'int32\').dtype === \'int32\';',
      'const dtypes = model.parameters().map((p) => p.dtype);',
      'const sd = model.stateDict();',
      'const kept = opt.paramGroups[0]!.params.every((p, i) => p === model.parameters()[i]);',
      'JSON.stringify([same, dtypes, Object.keys(sd).length, sd[\'0.weight\']!.requiresGrad, String(new tpu.nn.ReLU(true)), kept])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([true, ['bfloat16', 'bfloat16'], 2, false, 'ReLU(inplace=true)', true])}'`);
  });

  it("binary cross entropy's weight and posWeight, in the functions and the layers", async () => {
    // x = 0, t = 1: the loss is posWeight·log 2 (weight 1), 3·log 2 = 2.0794
    const cell = [
      'const x = tpu.zeros([2]);',
      'const t = tpu.ones([2]);',
      'const f = tpu.nn.functional.binaryCrossEntropyWithLogits(x, t, { posWeight: tpu.tensor([3]), weight: tpu.tensor([1, 0]) }).item();',
      'const layer = new tpu.nn.BCEWithLogitsLoss(tpu.tensor([1, 1]), { posWeight: tpu.tensor([3]) });',
      'const probs = new tpu.nn.BCELoss(tpu.tensor([2])).forward(tpu.full([2], 0.5), t).item();',
      'JSON.stringify([f, layer.forward(x, t).item(), probs, layer.posWeight!.tolist()].map((v) => typeof v === "number" ? v.toFixed(4) : v))',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify(['1.0397', '2.0794', '1.3863', [3]])}'`);
  });
  it('rot90, diagEmbed, triangle indices, cov, hooks, the new schedulers and LBFGS', async () => {
    // hand-computed: rot90 of [[1, 2], [3, 4]] is [[2, 4], [1, 3]]; cov of [1, 2, 3] is 1; the hook doubles w's gradient 2w;
    // CyclicLR made after other schedulers takes its first step from the groups' initialLr (0.1), as PyTorch's
    const cell = [
      'const r = tpu.rot90(tpu.tensor([[1, 2], [3, 4]]), 1, [0, 1]).tolist();',
      'const e = tpu.tensor([1, 2]).diagEmbed(0, -2, -1).tolist();',
      'const ij = tpu.trilIndices(2, 2, 0, { dtype: \'int32\' }).tolist();',
      'const c = tpu.cov(tpu.tensor([1, 2, 3]), { correction: 1 }).item();',
      'const w = tpu.tensor([1, 2], { requiresGrad: true });',
      'const h: { remove(): void } = w.registerHook((g) => g.mul(2));',
      'w.square().sum().backward();',
      'h.remove();',
      'const hooked = w.grad!.tolist();',
      'const lin = new tpu.nn.Linear(2, 1);',
      'const fh = lin.registerForwardHook((_m, _inputs, out) => (out as Tensor).mul(0), { prepend: true });',
      'const zero = lin.forward(tpu.ones([1, 2])).item();',
      'fh.remove();',
      'const opt = new tpu.optim.SGD(lin.parameters(), { lr: 0.1, momentum: 0.9 });',
      'const S = tpu.optim.lrScheduler;',
      'const seq = new S.SequentialLR(opt, [new S.ConstantLR(opt, { factor: 0.5, totalIters: 1 }), new S.ExponentialLR(opt, 0.5)], [1]);',
      'seq.step();',
      'const chained = new S.ChainedScheduler([new S.StepLR(opt, 5)], opt);',
      'const cyclic = new S.CyclicLR(opt, 0.01, 0.1, { stepSizeUp: 2, mode: \'triangular2\' });',
      'const lbfgs = new tpu.optim.LBFGS([w], { historySize: 5, lineSearchFn: \'strong_wolfe\' });',
      'const loss = lbfgs.step(() => { lbfgs.zeroGrad(); const l = w.square().sum(); l.backward(); return l; });',
      'JSON.stringify([r, e, ij, c, zero, seq.getLastLr(), chained.getLastLr().length, cyclic.getLastLr(), hooked, typeof loss === "number" ? loss : loss.item()])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([[[2, 4], [1, 3]], [[1, 0], [0, 2]], [[0, 1, 1], [0, 0, 1]], 1, 0, [0.1], 1, [0.1], [4, 8], 5])}'`);
  });
});
