// crossEntropy's reshapes of its target are the runtime's own (as PyTorch's are not views to the
// user): a training loop reusing one target lists no view on it per step, and a value saved
// from the target still refuses backward once the target was written in place (PyTorch's error).
// Losses and gradients against float64 loops written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

const N = 4;
const C = 3;
const logits = [[0.5, -1, 2], [1, 1, 1], [-0.25, 3, 0], [2, 0.5, -2]];
const classes = [2, 0, 1, 1];

/** Mean softmax cross-entropy and its gradient in float64. */
function reference(x: number[][], y: number[]) {
  let loss = 0;
  const grad = x.map((row, i) => {
    const m = Math.max(...row);
    const z = row.reduce((s, v) => s + Math.exp(v - m), 0);
    loss -= row[y[i]!]! - m - Math.log(z);
    return row.map((v, c) => (Math.exp(v - m) / z - (c === y[i] ? 1 : 0)) / x.length);
  });
  return { loss: loss / x.length, grad };
}

describe.each(['strict', 'fused', 'debug'] as const)('crossEntropy target in %s mode', (mode) => {
  it('a loop reusing one target: each step gives the float64 loss and gradient', async () => {
    tpu.mode(mode);
    const y = tpu.tensor(new Int32Array(classes));
    const ref = reference(logits, classes);
    for (let step = 0; step < 3; step++) {
      const x = tpu.tensor(logits, { requiresGrad: true });
      const loss = tpu.nn.crossEntropy(x, y);
      loss.backward();
      expect(await loss.item()).toBeCloseTo(ref.loss, 5);
      const g = (await x.grad!.array()) as number[][];
      g.forEach((row, i) => row.forEach((v, c) => expect(v).toBeCloseTo(ref.grad[i]![c]!, 6)));
    }
  });

  it('probability targets written in place before backward: PyTorch\'s error', () => {
    tpu.mode(mode);
    const x = tpu.tensor(logits, { requiresGrad: true });
    const t = tpu.tensor(logits).softmax(1);
    const loss = tpu.nn.crossEntropy(x, t);
    t.add_(1);
    expect(() => loss.backward()).toThrow(/modified by an inplace operation/);
  });

  it('probability targets: the float64 loss -Σ t·log softmax(x) / N', async () => {
    tpu.mode(mode);
    const probs = [[0.2, 0.3, 0.5], [1, 0, 0], [0.1, 0.1, 0.8], [0.25, 0.25, 0.5]];
    const loss = tpu.nn.crossEntropy(tpu.tensor(logits), tpu.tensor(probs));
    let want = 0;
    for (let i = 0; i < N; i++) {
      const m = Math.max(...logits[i]!);
      const lz = Math.log(logits[i]!.reduce((s, v) => s + Math.exp(v - m), 0));
      for (let c = 0; c < C; c++) want -= probs[i]![c]! * (logits[i]![c]! - m - lz);
    }
    expect(await loss.item()).toBeCloseTo(want / N, 5);
  });
});
