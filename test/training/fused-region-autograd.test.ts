// Gradients reach the tensors the user passed even when a fused region has already run the
// forward pass: the region rewires its kept recipes to the buffers they read, and the tape
// must not follow that rewiring (a gradient sent to such a hidden alias is silently lost).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

describe('autograd after a fused region ran the forward pass', () => {
  afterEach(() => void tpu.mode('strict'));

  it('reading the loss before backward() still gives w its gradient (d sum(x * w) / dw = x)', async () => {
    tpu.mode('fused');
    const xs = [0.5, -1.25, 2, 3.5];
    const x = tpu.tensor(xs);
    const w = tpu.tensor([1, 2, 3, 4], { requiresGrad: true });
    const loss = x.mul(w).sum(); // x * w is consumed once: a recipe, never materialized
    expect(await loss.item()).toBeCloseTo(0.5 - 2.5 + 6 + 14, 5);
    loss.backward();
    expect(w.grad).not.toBeNull();
    expect([...(await w.grad!.data())]).toEqual(xs);
  });

  it('a fused SGD loop cut at the region size cap learns as in strict mode', async () => {
    const run = async (mode: 'strict' | 'fused') => {
      tpu.mode(mode);
      tpu.manualSeed(0);
      const X = tpu.randn([64, 3]);
      const Y = X.matmul(tpu.tensor([[2], [-3], [0.5]])).add(1);
      const model = new tpu.nn.Linear(3, 1);
      const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
      for (let step = 0; step < 60; step++) {
        opt.zeroGrad();
        const error = model.forward(X).sub(Y);
        const loss = error.mul(error).mean();
        loss.backward();
        opt.step();
        if (step % 25 === 0) await loss.item();
      }
      return [...(await model.weight.data()), ...(await model.bias.data())];
    };
    const strict = await run('strict');
    const fused = await run('fused');
    for (let i = 0; i < 4; i++) expect(fused[i]).toBeCloseTo(strict[i]!, 4);
    // 60 steps of lr 0.1 on this least-squares problem land near the true weights.
    expect(strict.map((v) => Math.round(v * 10) / 10)).toEqual([2, -3, 0.5, 1]);
  });
});
