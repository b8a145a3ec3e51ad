// A torch-tier case of optimizer steps: the same loss, the same steps, the weights after each.
import type { Tensor } from 'tpu-kernel/runtime';
import { f32, type TorchCase } from './torch-tier.js';

const P = f32([1.5, -2, 0.25, 3]);
const T = f32([0.5, 1, -1, 2]);
/** The inputs of steps' cases: the starting weights and the target. */
export const STEP_INPUTS = [P, T];

/** `count` (3) steps of an optimizer on Σ (p - t)² · (1 + p²) (a gradient that changes with p). */
export function steps(name: string, make: (p: Tensor) => { zeroGrad(): void; step(): void }, pyOpt: string, count = 3): TorchCase {
  return {
    name,
    inputs: STEP_INPUTS,
    js: (p0, t) => {
      const p = p0.detach().requiresGrad_();
      const opt = make(p);
      const snaps: Tensor[] = [];
      for (let i = 0; i < count; i++) {
        opt.zeroGrad();
        p.sub(t).square().mul(p.square().add(1)).sum().backward();
        opt.step();
        snaps.push(p.detach().clone());
      }
      return snaps;
    },
    py: [
      'p = x0.clone().requires_grad_()',
      `opt = ${pyOpt}`,
      'result = []',
      `for _ in range(${count}):`,
      '    opt.zero_grad()',
      '    ((p - x1) ** 2 * (p ** 2 + 1)).sum().backward()',
      '    opt.step()',
      '    result.append(p.detach().clone())',
    ].join('\n'),
  };
}

