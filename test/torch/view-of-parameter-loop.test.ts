// A training loop written as notebooks write it: x @ w.T (a view of the parameter) and an
// optimizer step, 120 steps with no sync point, against PyTorch 2.13. Each step's w.T stays
// alive to the end of the JS job (WeakRef.deref keeps it, and every update of w derefs and
// recomputes all of w's views), so in fused mode the recipes chain until flushing a region
// recurses past the stack after ~80 steps: a known failure (known-failures.ts).
import { tpu } from 'tpu-kernel/runtime';
import { f32, torchTier, type TorchCase } from './torch-tier.js';

const STEPS = 120;
const W = f32(Array.from({ length: 3 }, (_, i) => Array.from({ length: 8 }, (_, j) => Math.sin(i * 8 + j) * 0.3)));
const X = f32(Array.from({ length: 10 }, (_, i) => Array.from({ length: 8 }, (_, j) => Math.cos(i * 1.3 + j * 0.7))));

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
