// Reshapes to the shape a value already has record no op: the gradient rules of matmul,
// reductions, broadcasting and reshape pass such a gradient on as it is, and crossEntropy
// takes [N, C] logits and a 1-D target as they are. A fused training step's program then holds
// no reshape or permute that leaves its input as it was; its loss and gradients against float64
// loops written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [N, K, C] = [5, 4, 3];
const xs = seededValues(N * K, 41).map(Math.fround);
const ws = seededValues(C * K, 42).map(Math.fround);
const bs = seededValues(C, 43).map(Math.fround);
const LABELS = [2, 0, 1, 1, 0];

/** Mean cross-entropy of x W^T + b and its gradients with respect to W and b, in float64. */
function reference() {
  let loss = 0;
  const gw = new Array(C * K).fill(0);
  const gb = new Array(C).fill(0);
  for (let i = 0; i < N; i++) {
    const z = Array.from({ length: C }, (_, c) => bs[c]! + xs.slice(i * K, i * K + K).reduce((s, v, k) => s + v * ws[c * K + k]!, 0));
    const m = Math.max(...z);
    const sum = z.reduce((s, v) => s + Math.exp(v - m), 0);
    loss += m + Math.log(sum) - z[LABELS[i]!]!;
    for (let c = 0; c < C; c++) {
      const dz = (Math.exp(z[c]! - m) / sum - (c === LABELS[i] ? 1 : 0)) / N;
      gb[c] += dz;
      for (let k = 0; k < K; k++) gw[c * K + k] += dz * xs[i * K + k]!;
    }
  }
  return { loss: loss / N, gw, gb };
}

describe('reshapes to the same shape', () => {
  it('a fused linear + crossEntropy step: no reshape or permute that keeps the shape, float64 values', async () => {
    tpu.mode('fused');
    const x = tpu.tensor(xs).reshape([N, K]);
    const w = tpu.tensor(ws).reshape([C, K]).detach().requiresGrad_();
    const b = tpu.tensor(bs).requiresGrad_();
    const y = tpu.tensor(Int32Array.from(LABELS));
    await tpu.sync();
    const loss = tpu.nn.crossEntropy(tpu.nn.functional.linear(x, w, b), y);
    loss.backward();
    const [l, gw, gb] = [await loss.item(), Array.from(await w.grad!.data()), Array.from(await b.grad!.data())];
    const p = tpu.stats().lastProgram!.program;
    const shapeOf = (id: number) => (id < p.inputs.length ? p.inputs[id]!.shape : p.nodes[id - p.inputs.length - p.scalars.length]!.shape);
    const kept = p.nodes.filter((n) => (n.op === 'reshape' || n.op === 'permute') && n.shape.join() === shapeOf(n.inputs[0]!).join() &&
      (n.op === 'reshape' || (n.attrs as { perm: number[] }).perm.every((d, i) => d === i)));
    expect(kept.map((n) => n.op)).toEqual([]);
    const ref = reference();
    expect(l).toBeCloseTo(ref.loss, 5);
    expectClose(gw, ref.gw);
    expectClose(gb, ref.gb);
  });

  it('a user\'s reshape to the same shape is still a tensor of its own, with its gradient', async () => {
    const x = tpu.tensor([[1, 2], [3, 4]], { requiresGrad: true });
    const y = x.reshape([2, 2]);
    expect(y).not.toBe(x);
    y.mul(tpu.tensor([[1, 2], [3, 4]])).sum().backward();
    expect(await x.grad!.array()).toEqual([[1, 2], [3, 4]]);
  });
});
