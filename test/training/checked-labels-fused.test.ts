// Labels whose values the host knows (an Int32Array, tpu.randint) are checked at the
// crossEntropy call, so its gather, and the scatterAdd of its gradient, cannot fail on the
// device: a fused training step runs as ONE program. Labels computed on the device can fail
// there: the values that read none of them run first, in a program of their own, and survive
// a bad label. Loss and gradient against float64 loops written here.
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceError, tpu } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));
const launches = () => tpu.stats().cacheHits + tpu.stats().cacheMisses;

const [N, K, C] = [5, 4, 3];
const xs = seededValues(N * K, 11).map(Math.fround);
const ws = seededValues(C * K, 12).map(Math.fround);
/** relu(x): a value of the step that reads no label (a hidden layer's activation). */
const hs = xs.map((v) => Math.max(v, 0));

/** Mean cross-entropy of relu(x) W^T and its gradient with respect to W, in float64. */
function reference(labels: readonly number[]) {
  let loss = 0;
  const gw = new Array(C * K).fill(0);
  for (let i = 0; i < N; i++) {
    const z = Array.from({ length: C }, (_, c) => hs.slice(i * K, i * K + K).reduce((s, v, k) => s + v * ws[c * K + k]!, 0));
    const m = Math.max(...z);
    const sum = z.reduce((s, v) => s + Math.exp(v - m), 0);
    loss += m + Math.log(sum) - z[labels[i]!]!;
    for (let c = 0; c < C; c++) {
      const dz = (Math.exp(z[c]! - m) / sum - (c === labels[i] ? 1 : 0)) / N;
      for (let k = 0; k < K; k++) gw[c * K + k] += dz * hs[i * K + k]!;
    }
  }
  return { loss: loss / N, gw };
}

describe('fused crossEntropy with labels known on the host', () => {
  it('an Int32Array of labels or tpu.randint: one program per step, float64 loss and gradient', async () => {
    tpu.mode('fused');
    tpu.manualSeed(5);
    const fromRandint = tpu.randint(0, C, [N]);
    const drawn = Array.from(await fromRandint.array() as number[], Number);
    for (const [y, labels] of [[tpu.tensor(Int32Array.from([2, 0, 1, 1, 0])), [2, 0, 1, 1, 0]], [fromRandint, drawn]] as const) {
      const x = tpu.tensor(xs).reshape([N, K]);
      const w = tpu.tensor(ws).reshape([C, K]).detach().requiresGrad_();
      await tpu.sync();
      const before = launches();
      const loss = tpu.nn.crossEntropy(x.relu().matmul(w.T), y);
      loss.backward();
      const [l, g] = [await loss.item(), Array.from(await w.grad!.data())];
      expect(launches() - before).toBe(1);
      const ref = reference(labels);
      expect(l).toBeCloseTo(ref.loss, 5);
      expectClose(g, ref.gw);
    }
  });

  it('labels computed on the device: the values reading none run apart and survive a bad label', async () => {
    tpu.mode('fused');
    const x = tpu.tensor(xs).reshape([N, K]);
    const w = tpu.tensor(ws).reshape([C, K]).detach().requiresGrad_();
    await tpu.sync();
    const good = tpu.tensor(Int32Array.from([2, 0, 1, 1, 0])).add(0); // a recipe: device data
    const before = launches();
    const loss = tpu.nn.crossEntropy(x.relu().matmul(w.T), good);
    loss.backward();
    const [l, g] = [await loss.item(), Array.from(await w.grad!.data())];
    expect(launches() - before).toBe(2);
    const ref = reference([2, 0, 1, 1, 0]);
    expect(l).toBeCloseTo(ref.loss, 5);
    expectClose(g, ref.gw);
    const h = x.relu();
    const bad = tpu.tensor(Int32Array.from([0, 1, 0, 1, 0])).mul(7); // label 7 of 3
    expect(() => tpu.nn.crossEntropy(h.matmul(w.T), bad).item()).toThrow(DeviceError);
    expectClose(Array.from(await h.data()), hs);
  });
});
