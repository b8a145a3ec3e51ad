// crossEntropy over labels known on the host, none of them ignoreIndex (a training batch):
// every sample counts, so the composed op leaves out the selections by the kept mask and the
// sample count. Same bits as the general path (labels as device data), in every mode and
// reduction, fewer ops in the program; a label equal to ignoreIndex takes the general path, and
// tpu.compile traces again when a replay's labels hold one. Values against float64 loops here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [N, C] = [6, 4];
const zs = seededValues(N * C, 31).map(Math.fround);
const LABELS = [3, 0, 1, 1, 2, 0];

/** Per-sample cross-entropy of the logits zs and its gradient (of the mean over kept samples), in float64. */
function reference(labels: readonly number[], ignore = -100) {
  const kept = labels.filter((l) => l !== ignore).length;
  const losses: number[] = [];
  const grad: number[] = [];
  for (let i = 0; i < N; i++) {
    const z = zs.slice(i * C, i * C + C);
    const m = Math.max(...z);
    const sum = z.reduce((s, v) => s + Math.exp(v - m), 0);
    const keep = labels[i] !== ignore;
    losses.push(keep ? m + Math.log(sum) - z[labels[i]!]! : 0);
    for (let c = 0; c < C; c++) grad.push(keep ? (Math.exp(z[c]! - m) / sum - (c === labels[i] ? 1 : 0)) / kept : 0);
  }
  return { losses, mean: losses.reduce((a, b) => a + b, 0) / kept, sum: losses.reduce((a, b) => a + b, 0), grad };
}

/** Loss and logits' gradient of crossEntropy(x, y) as bits. */
async function lossAndGrad(y: Tensor, reduction: 'mean' | 'sum' | 'none', ignoreIndex?: number) {
  const x = tpu.tensor(zs).reshape([N, C]).requiresGrad_();
  const loss = tpu.nn.crossEntropy(x, y, { reduction, ignoreIndex });
  (reduction === 'none' ? loss.sum() : loss).backward();
  return { loss: Array.from(await loss.data()), grad: Array.from(await x.grad!.data()) };
}

describe.each(['strict', 'fused', 'debug'] as const)('crossEntropy, every label kept, in %s mode', (mode) => {
  it.each(['mean', 'sum', 'none'] as const)('reduction %s: the general path\'s bits and the float64 values', async (reduction) => {
    tpu.mode(mode);
    const known = await lossAndGrad(tpu.tensor(Int32Array.from(LABELS)), reduction);
    const onDevice = await lossAndGrad(tpu.tensor(Int32Array.from(LABELS)).add(0), reduction); // device data: the general path
    expect(known).toEqual(onDevice);
    const ref = reference(LABELS);
    expectClose(known.loss, reduction === 'none' ? ref.losses : [ref[reduction]]);
    const scale = reduction === 'mean' ? 1 : ref.losses.length; // sum and none: the gradient of the sum
    expectClose(known.grad, ref.grad.map((g) => g * scale));
  });
});

describe('crossEntropy, labels known on the host', () => {
  it('a fused step runs fewer ops when no label is ignored; one equal to ignoreIndex is left out', async () => {
    tpu.mode('fused');
    const nodes = async (y: Tensor) => {
      await lossAndGrad(y, 'mean');
      return tpu.stats().lastProgram!.program.nodes.length;
    };
    const allKept = await nodes(tpu.tensor(Int32Array.from(LABELS)));
    const general = await nodes(tpu.tensor(Int32Array.from(LABELS.map((l, i) => (i === 2 ? -100 : l)))));
    expect(general - allKept).toBeGreaterThanOrEqual(8);
    const got = await lossAndGrad(tpu.tensor(Int32Array.from(LABELS)), 'mean', 1); // ignoreIndex 1: samples 2 and 3 count for nothing
    const ref = reference(LABELS, 1);
    expectClose(got.loss, [ref.mean]);
    expectClose(got.grad, ref.grad);
  });

  it('tpu.compile traces again when a replay\'s labels hold ignoreIndex', async () => {
    const logits = tpu.tensor(zs).reshape([N, C]);
    const loss = tpu.compile((x: Tensor, y: Tensor) => tpu.nn.crossEntropy(x, y, { ignoreIndex: 0 }));
    for (const kept of [[3, 2, 1, 1, 2, 3], [1, 1, 2, 3, 3, 2]]) {
      expectClose([await loss(logits, tpu.tensor(Int32Array.from(kept))).item()], [reference(kept, 0).mean]);
    }
    expect(loss.stats().traces).toBe(1);
    expectClose([await loss(logits, tpu.tensor(Int32Array.from(LABELS))).item()], [reference(LABELS, 0).mean]);
    expect(loss.stats().traces).toBe(2);
    expect(loss.stats().lastRetrace).toMatch(/index tensor checked on the host/);
  });
});
