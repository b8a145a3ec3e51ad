// A loop that never awaits gets no finalization callbacks until it returns, so the tensors it
// drops used to stay live in the memory account (and a large op's captured call site kept its
// receiver alive) until the loop went out of memory. Before an out-of-memory error the runtime
// now collects and frees what is unreachable. Values are checked against float64 loops.
import { afterAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const MiB = 2 ** 20;
/** 2 MiB of float32: over the size whose ops capture a call site. */
const N = MiB / 2;
const host = Float32Array.from({ length: N }, (_, i) => Math.cos(i) * 2);

afterAll(() => tpu.setDevice({ hbmBytes: null }));

async function expectValues(t: Tensor, f: (v: number) => number, what: string): Promise<void> {
  const got = (await t.data()) as Float32Array;
  expect(got.length, what).toBe(N);
  let bad = -1;
  for (let i = 0; i < N && bad < 0; i++) if (got[i] !== Math.fround(f(host[i]!))) bad = i;
  expect(bad < 0 ? 'all equal' : `${what}[${bad}] = ${got[bad]}, want ${Math.fround(f(host[bad]!))}`).toBe('all equal');
}

describe.each(['strict', 'debug'] as const)('a loop without await in %s mode', (mode) => {
  it('drops 50x the device memory over its steps and keeps what it holds', async () => {
    tpu.setDevice({ hbmBytes: 64 * MiB });
    const x = tpu.tensor(host);
    const kept: Tensor[] = [];
    let y = x;
    tpu.withMode(mode, () => {
      // 200 steps of two 2 MiB results: 800 MiB made on a 64 MiB chip
      for (let i = 0; i < 200; i++) {
        y = x.mul(2).add(i);
        if (i % 50 === 0) kept.push(y);
      }
    });
    await expectValues(y, (v) => Math.fround(v * 2) + 199, 'last result');
    for (const [k, t] of kept.entries()) await expectValues(t, (v) => Math.fround(v * 2) + 50 * k, `kept result ${k}`);
    await expectValues(x, (v) => v, 'x');
  });

  it('still throws out-of-memory when what it holds does not fit, naming the op, and loses nothing', async () => {
    tpu.setDevice({ hbmBytes: 64 * MiB });
    const x = tpu.tensor(host);
    const kept: Tensor[] = [];
    expect(() =>
      tpu.withMode(mode, () => {
        for (let i = 0; i < 40; i++) kept.push(x.add(i));
      }),
    ).toThrow(/out of device memory: add needs 2\.00 MiB/);
    expect(kept.length).toBeGreaterThan(10);
    for (const k of [0, kept.length - 1]) await expectValues(kept[k]!, (v) => Math.fround(v + k), `kept result ${k}`);
  });
});
