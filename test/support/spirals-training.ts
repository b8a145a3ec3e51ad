// The spirals MLP of notebooks/03-training.ipynb trained for a few steps, on one chip or wrapped
// for many (DDP, FSDP, HSDP): the distributed tests compare the wrapped runs' losses with one
// chip's training of the global batch, step by step.
import { expect } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const { nn, optim } = tpu;
type Module = InstanceType<typeof nn.Module>;

/** Two interleaved spirals (notebooks/03-training.ipynb's data set), n points. */
export function spirals(n: number, seed: number): { X: Tensor; Y: Tensor } {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const xy = new Float32Array(n * 2);
  const labels = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const c = k % 2;
    const i = Math.floor(k / 2);
    const r = 0.1 + (0.9 * i) / (n / 2);
    const t = (1.75 * 2 * Math.PI * i) / (n / 2) + c * Math.PI;
    xy[2 * k] = r * Math.cos(t) + 0.02 * (rand() - 0.5);
    xy[2 * k + 1] = r * Math.sin(t) + 0.02 * (rand() - 0.5);
    labels[k] = c;
  }
  return { X: tpu.tensor(xy).reshape([n, 2]), Y: tpu.tensor(labels) };
}

// Hidden sizes 10 and 16: the shards of dim 0 can be uneven (10 rows on 4 chips: 3, 3, 3, 1)
// and some empty (the last layer's 2 rows: 1, 1, 0, 0). 240 parameters.
export const mlp = () => new nn.Sequential(new nn.Linear(2, 10), new nn.Tanh(), new nn.Linear(10, 16), new nn.Tanh(), new nn.Linear(16, 2));
export const STEPS = 6;

export type Opt = 'SGD' | 'Adam';
export type Mode = 'debug' | 'strict' | 'fused';

/** STEPS steps of training the MLP (seed 0) wrapped by `wrap` on X, Y; the losses. */
export function trainSpirals(X: Tensor, Y: Tensor, wrap: (m: Module) => Module, optName: Opt, mode: Mode, compiled = false) {
  return tpu.withMode(mode, () => {
    tpu.manualSeed(0);
    const m = wrap(mlp());
    const opt = optName === 'SGD' ? new optim.SGD(m.parameters(), { lr: 0.5, momentum: 0.9 }) : new optim.Adam(m.parameters(), { lr: 0.05 });
    let bodyRuns = 0;
    const step = (x: Tensor, y: Tensor) => {
      bodyRuns++;
      const loss = nn.crossEntropy(m.forward(x), y);
      loss.backward();
      opt.step();
      opt.zeroGrad();
      return loss;
    };
    const run = compiled ? tpu.compile(step) : step;
    const losses: number[] = [];
    for (let i = 0; i < STEPS; i++) losses.push(tpu.scope(() => run(X, Y).item()));
    return { m, losses, bodyRuns };
  });
}

export function expectClose(got: readonly number[], want: readonly number[], tol = 2e-5): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `step ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want[i]!))));
}

export const host = (t: Tensor) => Array.from(t.dataSync() as Float32Array);
