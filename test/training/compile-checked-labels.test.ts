// tpu.compile of a loss over labels known on the host (an Int32Array, tpu.randint): the trace
// checks them and each replay checks its own labels first, as eager execution does at the
// call: out of range is a RangeError there, labels held as device data trace again (their
// program checks on the device). Losses against float64 loops written here.
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceError, tpu, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [N, C] = [4, 3];
const zs = seededValues(N * C, 21).map(Math.fround);

/** Mean cross-entropy of the logits zs against `labels`, in float64. */
function reference(labels: readonly number[]): number {
  let loss = 0;
  for (let i = 0; i < N; i++) {
    const z = zs.slice(i * C, i * C + C);
    const m = Math.max(...z);
    loss += m + Math.log(z.reduce((s, v) => s + Math.exp(v - m), 0)) - z[labels[i]!]!;
  }
  return loss / N;
}

describe('tpu.compile with labels known on the host', () => {
  it('replays on new host labels with their loss, and refuses one out of range at the call', async () => {
    const logits = tpu.tensor(zs).reshape([N, C]);
    const loss = tpu.compile((x: Tensor, y: Tensor) => tpu.nn.crossEntropy(x, y));
    for (const labels of [[2, 0, 1, 1], [0, 0, 2, 1], [1, 2, 0, 0]]) {
      expect(await loss(logits, tpu.tensor(Int32Array.from(labels))).item()).toBeCloseTo(reference(labels), 5);
    }
    expect(loss.stats().traces).toBe(1);
    expect(() => loss(logits, tpu.tensor(Int32Array.from([0, 3, 1, 1])))).toThrow(/crossEntropy: target 3 at position 1 is out of range \[0, 2\]/);
    const drawn = tpu.randint(0, C, [N]);
    const labels = Array.from((await drawn.array()) as number[], Number);
    expect(await loss(logits, tpu.tensor(Int32Array.from(labels)).to('int64')).item()).toBeCloseTo(reference(labels), 5);
    expect(loss.stats().traces).toBe(2); // int64 labels: another signature
    expect(await loss(logits, drawn).item()).toBeCloseTo(reference(labels), 5);
    expect(loss.stats().traces).toBe(2);
  });

  it('labels computed on the device trace again, and a bad one fails on the device', async () => {
    const logits = tpu.tensor(zs).reshape([N, C]);
    const loss = tpu.compile((x: Tensor, y: Tensor) => tpu.nn.crossEntropy(x, y));
    expect(await loss(logits, tpu.tensor(Int32Array.from([2, 0, 1, 1]))).item()).toBeCloseTo(reference([2, 0, 1, 1]), 5);
    const onDevice = tpu.tensor(Int32Array.from([0, 0, 2, 1])).add(0);
    expect(await loss(logits, onDevice).item()).toBeCloseTo(reference([0, 0, 2, 1]), 5);
    expect(loss.stats().traces).toBe(2);
    expect(loss.stats().lastRetrace).toMatch(/index tensor checked on the host/);
    const bad = tpu.tensor(Int32Array.from([0, 1, 0, 1])).mul(7); // label 7 of 3
    const line = Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split('\n')[1]!)![1]) + 1;
    const badLoss = loss(logits, bad); // a program that may fail: the replay names this call
    const err = await badLoss.data().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as Error).message).toMatch(new RegExp(`called at \\S*compile-checked-labels\\.test\\.ts:${line}:\\d+`));
    expect(await loss(logits, tpu.tensor(Int32Array.from([1, 2, 0, 0]))).item()).toBeCloseTo(reference([1, 2, 0, 0]), 5);
  });
});
