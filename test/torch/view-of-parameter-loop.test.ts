// A training loop written as notebooks write it: x @ w.T (a view of the parameter) and an
// optimizer step, 120 steps with no sync point, against PyTorch 2.13. Views were recomputed
// whenever their base was written, and a synchronous loop keeps each step's w.T until it ends,
// so a step's work grew with the step count (fused: flushing overflowed the stack after ~80
// steps). Views are now recomputed when read (views/stale-views.ts): the second test checks
// that each step dispatches the same ops.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { opsDispatched } from '../../dist/runtime/modes/stats.js';
import { viewRefreshes } from '../../dist/runtime/views/stale-views.js';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const STEPS = 120;
const w0 = Array.from({ length: 3 }, (_, i) => Array.from({ length: 8 }, (_, j) => Math.sin(i * 8 + j) * 0.3));
const x0 = Array.from({ length: 10 }, (_, i) => Array.from({ length: 8 }, (_, j) => Math.cos(i * 1.3 + j * 0.7)));
const W = f32(w0);
const X = f32(x0);

const cases: TorchCase[] = [
  {
    name: 'SGD over x.matmul(w.T) for 120 steps without a sync',
    inputs: [W, X],
    js: (w0, x) => {
      // a tensor of its own, as tpu.randn(...).mul(0.3) is (the tier's inputs are reshape views of an upload, whose views live on that base)
      const w = w0.clone().requiresGrad_();
      const opt = new tpu.optim.SGD([w], { lr: 0.05 });
      for (let i = 0; i < STEPS; i++) {
        x.matmul(w.T).pow(2).mean().backward();
        opt.step();
        opt.zeroGrad();
      }
      return w.detach();
    },
    py: `w = x0.requires_grad_()\nopt = torch.optim.SGD([w], lr=0.05)\nfor _ in range(${STEPS}):\n    (x1 @ w.T).pow(2).mean().backward()\n    opt.step()\n    opt.zero_grad()\nresult = w.detach()`,
    rtol: 1e-4,
  },
];

torchTier('a view of a parameter in a long loop vs PyTorch', cases);

describe.each(['debug', 'strict', 'fused'] as const)('the same loop in %s mode', (mode) => {
  it('dispatches the same ops in every step and recomputes no dropped view', async () => {
    tpu.mode(mode);
    const w = tpu.tensor(w0, { requiresGrad: true });
    const x = tpu.tensor(x0);
    const opt = new tpu.optim.SGD([w], { lr: 0.05 });
    const refreshes = viewRefreshes.count;
    const perStep: number[] = [];
    for (let i = 0; i < 100; i++) {
      const before = opsDispatched[mode];
      x.matmul(w.T).pow(2).mean().backward();
      opt.step();
      opt.zeroGrad();
      perStep.push(opsDispatched[mode] - before);
    }
    await tpu.sync();
    // Internal counters: recomputing each live w.T at every step made step k dispatch ~k more ops.
    expect(new Set(perStep.slice(1)).size).toBe(1);
    expect(viewRefreshes.count - refreshes).toBe(0);
    expect(w.grad).toBeNull();
  });
});
