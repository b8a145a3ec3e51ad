// A training step in strict or fused mode, written as users write it (no dispose, no scope, the
// loss read each step), frees each step's old weights once the optimizer replaced them: the
// layer outputs, temporaries and optimizer intermediates it drops (strict mode: the linear
// layer's transposed weight, kept for backward) no longer keep them alive until a full
// collection. The weights after the loop equal float64 SGD on the same data.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [N, K, H] = [2, 256, 128]; // a weight of 128 KiB, activations of 1 KiB
const STEPS = 12;

/** float64: W -= lr * dW for loss = sum(relu(x Wᵀ)) / N, dW[h][k] = sum_n [x_n·W_h > 0] x[n][k] / N. */
function sgdRef(w0: number[], xs: number[], lr: number): number[] {
  let w = [...w0];
  for (let s = 0; s < STEPS; s++) {
    const active = [...Array(N).keys()].map((n) => [...Array(H).keys()].map((h) => xs.slice(n * K, n * K + K).reduce((a, v, k) => a + v * w[h * K + k]!, 0) > 0));
    w = w.map((v, i) => v - lr * [...Array(N).keys()].reduce((a, n) => a + (active[n]![Math.floor(i / K)] ? xs[n * K + (i % K)]! : 0), 0) / N);
  }
  return w;
}

describe('a training step frees its old weights', () => {
  it.each(['strict', 'fused'] as const)('%s: live device bytes do not grow by a weight per step; weights match float64 SGD', (mode) => {
    tpu.mode(mode);
    const w0 = seededValues(H * K, 61, -0.1, 0.1).map(Math.fround);
    const xs = seededValues(N * K, 62).map(Math.fround);
    const w = tpu.tensor(w0).reshape([H, K]).detach().requiresGrad_();
    const x = tpu.tensor(xs).reshape([N, K]);
    const opt = new tpu.optim.SGD([w], { lr: 0.05 });
    const step = () => {
      opt.zeroGrad();
      const loss = tpu.nn.functional.linear(x, w).relu().sum().div(N);
      loss.backward();
      opt.step();
      return loss.item();
    };
    step();
    const before = tpu.memory().liveBytes;
    for (let s = 1; s < STEPS; s++) step();
    // Kept until collected, each step's old weight would add 128 KiB.
    expect(tpu.memory().liveBytes - before).toBeLessThan(2 * H * K * 4);
    expectClose(w.dataSync(), sgdRef(w0, xs, 0.05), 1e-5, 1e-6);
  });
});
