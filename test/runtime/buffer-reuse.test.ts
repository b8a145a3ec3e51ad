// The device thread hands freed buffers out again (device/onnx/buffer-pool.ts). A buffer may
// go back only once nothing can read it: these tests free buffers while something still
// could (a queued op, a view, a fused region, a tensor held across awaits, another chip),
// then make many same-sized values that would take those buffers, and check every value
// still reachable against float64 loops. Each test also checks that reuse did happen, so
// none passes without exercising the pool.
import { beforeAll, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

tpu.setDevice({ chips: 2 });

/** 128 KiB of float32: a pooled size. */
const N = 1 << 15;
const f32 = Math.fround;
const host = Float32Array.from({ length: N }, (_, i) => Math.sin(i) * 3);
const expected = (f: (v: number, i: number) => number) => Float64Array.from(host, (v, i) => f(v, i));

async function expectValues(t: Tensor, want: Float64Array, what: string): Promise<void> {
  const got = (await t.data()) as Float32Array;
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${want[i]}`);
}

/** Makes `count` device-computed values of N elements (each takes a pooled buffer); they hold k + 100. */
function churn(source: Tensor, count: number): Tensor[] {
  return Array.from({ length: count }, (_, k) => source.mul(0).add(k + 100));
}

async function reusedSoFar(): Promise<number> {
  return (await tpu.deviceStats()).pool?.reused ?? 0;
}

let seed: Tensor;
beforeAll(async () => {
  seed = tpu.tensor(host);
  await tpu.sync();
});

describe('freed device buffers are reused only when nothing can read them', () => {
  it('strict: ops still queued read their inputs although the inputs were disposed', async () => {
    const before = await reusedSoFar();
    await tpu.withMode('strict', async () => {
      const a = seed.mul(3);
      const b = a.add(1);
      const c = b.mul(a); // queued: reads a and b
      a.dispose();
      b.dispose();
      const others = churn(seed, 6); // queued after the frees: may take a's and b's buffers
      await expectValues(c, expected((v) => f32(f32(f32(v * 3) + 1) * f32(v * 3))), 'c');
      for (const [k, t] of others.entries()) await expectValues(t, new Float64Array(N).fill(k + 100), `churn ${k}`);
    });
    expect(await reusedSoFar()).toBeGreaterThan(before);
  });

  it('views keep their values when the base is disposed, written in place, and its buffer reused', async () => {
    const before = await reusedSoFar();
    await tpu.withMode('strict', async () => {
      const base = seed.add(0);
      const rows = base.reshape([2, N / 2]);
      const tail = base.narrow(0, N / 2, N / 2);
      const unread = base.narrow(0, 0, 4);
      base.add_(1); // a write through the base: each view is recomputed when it is next read
      const old = rows; // the view from before stays a view of the written base
      const [oldNow, tailNow] = [old.reshape([N]), tail.add(0)]; // read before the base goes
      base.dispose();
      churn(seed, 6);
      await tpu.sync();
      await expectValues(oldNow, expected((v) => f32(v + 1)), 'rows');
      await expectValues(tailNow, expected((v, i) => f32(host[(i % (N / 2)) + N / 2]! + 1)).subarray(0, N / 2), 'tail');
      // not read before its written base was disposed: its new value is gone, and reading it says so
      expect(() => unread.add(0)).toThrow(/was written in place and then disposed: the view's new value is gone/);
    });
    expect(await reusedSoFar()).toBeGreaterThan(before);
  });

  it('a tensor held across awaits and collections keeps its value while dropped ones are reused', async () => {
    const held = tpu.withMode('strict', () => seed.mul(-2));
    const before = await reusedSoFar();
    for (let cell = 0; cell < 4; cell++) {
      // a "cell": garbage of the held tensor's size, dropped without dispose, then collected
      tpu.withMode('strict', () => {
        for (let k = 0; k < 8; k++) seed.mul(k).add(cell);
      });
      await tpu.sync();
      gc(); // the dropped tensors' buffers are freed by the finalizer, then reused
      await new Promise((r) => setTimeout(r, 20));
    }
    await expectValues(held, expected((v) => f32(v * -2)), 'held');
    expect(await reusedSoFar()).toBeGreaterThan(before);
  });

  it('fused: a pending region reads an input disposed before the region runs', async () => {
    const before = await reusedSoFar();
    const x = tpu.withMode('strict', () => seed.add(2));
    await tpu.sync();
    const y = tpu.withMode('fused', () => x.mul(x).sub(1)); // pending: reads x
    x.dispose();
    const others = tpu.withMode('strict', () => churn(seed, 6));
    await expectValues(y, expected((v) => f32(f32(f32(v + 2) * f32(v + 2)) - 1)), 'y');
    for (const [k, t] of others.entries()) await expectValues(t, new Float64Array(N).fill(k + 100), `churn ${k}`);
    expect(await reusedSoFar()).toBeGreaterThan(before);
  });

  it('two chips: a buffer freed on one chip is never handed out on the other', async () => {
    await tpu.withMode('strict', async () => {
      const on1 = tpu.tensor(host, { chip: 1 });
      const kept1 = on1.mul(5);
      on1.dispose();
      const a0 = seed.mul(5);
      const garbage0 = churn(seed, 4);
      garbage0.forEach((t) => t.dispose());
      const more0 = churn(seed, 4); // chip 0 reuses chip 0's buffers
      const more1 = churn(kept1, 4); // chip 1 reuses on1's buffer
      await expectValues(kept1, expected((v) => f32(v * 5)), 'kept on chip 1');
      await expectValues(a0, expected((v) => f32(v * 5)), 'chip 0');
      await expectValues(kept1.toChip(0), expected((v) => f32(v * 5)), 'chip 1 -> 0');
      for (const [k, t] of [...more0, ...more1].entries()) await expectValues(t, new Float64Array(N).fill((k % 4) + 100), `churn ${k}`);
    });
  });
});
