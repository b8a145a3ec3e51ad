// Natural code drops large tensors without dispose(): full collections are paced by the growth
// of live device bytes (device/gc-pressure.ts), so dead ones are freed while the loop runs
// instead of piling up until V8 collects on its own (its JS heap barely grows). Code that
// disposes its tensors is never made to collect; code that drops them is, after its batch went
// out. The last tests check that such collections free nothing a reachable tensor, a view or
// autograd still reads, against float64 loops.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { FLOOR_BYTES, GcPressure } from '../../dist/runtime/device/gc-pressure.js';
import { gc } from '../support/settle-gc.js';

const MB = 2 ** 20;

function counted(heapBytes = 0): { pressure: GcPressure; collections: () => number } {
  let n = 0;
  const pressure = new GcPressure(() => void n++, () => heapBytes);
  return { pressure, collections: () => n };
}

describe('GcPressure', () => {
  it('never collects for a loop whose live bytes go up and down (disposed tensors)', () => {
    const { pressure, collections } = counted();
    for (let step = 0; step < 100; step++) {
      for (let k = 1; k <= 7; k++) pressure.changed(k * 16 * MB);
      pressure.collectIfDue();
      for (let k = 6; k >= 0; k--) pressure.changed(k * 16 * MB);
      pressure.collectIfDue();
    }
    expect(collections()).toBe(0);
  });

  it('collects once garbage grew by the floor, only when asked after the batch went out', () => {
    const { pressure, collections } = counted();
    let live = 0;
    const grow = (bytes: number) => pressure.changed((live += bytes));
    while (live + 16 * MB < FLOOR_BYTES) grow(16 * MB);
    pressure.collectIfDue();
    expect(collections()).toBe(0);
    grow(16 * MB); // the floor reached: due, but not inside the allocation
    expect(collections()).toBe(0);
    pressure.collectIfDue();
    pressure.collectIfDue();
    expect(collections()).toBe(1);
    // the finalizers free what the collection found; growth counts again from the lowest point
    pressure.changed((live = 32 * MB));
    while (live + 16 * MB < 32 * MB + FLOOR_BYTES) grow(16 * MB);
    pressure.collectIfDue();
    expect(collections()).toBe(1);
    grow(16 * MB);
    pressure.collectIfDue();
    expect(collections()).toBe(2);
  });

  it('a loop that disposes most and drops some collects once it allocated the floor and grew by half of it', () => {
    const { pressure, collections } = counted();
    let live = 0;
    let allocated = 0;
    let liveAtCollection = -1;
    // each step: 200 MiB made 8 MiB at a time, then all but 64 MiB of it disposed (dropped)
    for (let step = 0; liveAtCollection < 0 && step < 10; step++) {
      for (let k = 0; k < 25 && liveAtCollection < 0; k++) {
        pressure.changed((live += 8 * MB), 8 * MB);
        allocated += 8 * MB;
        pressure.collectIfDue();
        if (collections() === 1) liveAtCollection = live;
      }
      pressure.changed((live -= 136 * MB));
    }
    // 256 MiB allocated and 128 MiB of growth: in the second step, well before growth alone (256 MiB)
    expect(allocated).toBe(264 * MB);
    expect(liveAtCollection).toBe(128 * MB);
  });

  it('spaces collections by four times the JS heap when that exceeds the floor', () => {
    const { pressure, collections } = counted(100 * MB);
    pressure.changed(FLOOR_BYTES);
    pressure.collectIfDue(); // the first collection reads the heap: 400 MB from now on
    pressure.changed(FLOOR_BYTES + 399 * MB);
    pressure.collectIfDue();
    expect(collections()).toBe(1);
    pressure.changed(FLOOR_BYTES + 400 * MB);
    pressure.collectIfDue();
    expect(collections()).toBe(2);
  });

  it('does nothing when the runtime cannot collect', () => {
    const pressure = new GcPressure(undefined, () => 0);
    pressure.changed(10 * FLOOR_BYTES);
    expect(() => pressure.collectIfDue()).not.toThrow();
  });
});

describe('collections paced by dropped tensors (strict, natural code)', () => {
  it('frees dropped large tensors during a loop that never disposes', async () => {
    const x = tpu.full([MB], 1.5); // 4 MiB
    await tpu.sync();
    const before = tpu.memory().liveBytes;
    let highest = 0;
    let y = x;
    for (let i = 0; i < 160; i++) {
      // 640 MiB made in all, one 4 MiB result kept at a time
      y = x.mul(2).add(i);
      await tpu.sync();
      highest = Math.max(highest, tpu.memory().liveBytes - before);
    }
    expect(Array.from((await y.data()).subarray(0, 2))).toEqual([3 + 159, 3 + 159]);
    // Paced every 256 MiB of growth: dead bytes stay under that plus what a GC finds alive.
    expect(highest).toBeLessThan(320 * MB);
  });

  /** 8 MiB of float32: 2 GiB of garbage is 256 of them. */
  const N = 1 << 21;
  const f32 = Math.fround;
  const host = Float32Array.from({ length: N }, (_, i) => Math.sin(i * 0.37) * 2);

  async function expectAll(t: { data(): Promise<unknown> }, want: (i: number) => number, what: string, tol = 0): Promise<void> {
    const got = (await t.data()) as Float32Array;
    for (let i = 0; i < got.length; i++) {
      const w = want(i);
      if (Math.abs(got[i]! - w) > tol * Math.max(1, Math.abs(w))) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${w}`);
    }
  }

  it('a held tensor, a view of a dropped base and autograd saved tensors survive 2 GiB of garbage', async () => {
    await tpu.withMode('strict', async () => {
      const x = tpu.tensor(host);
      const w = tpu.tensor(host.map((v) => v * 0.5 + 1), { requiresGrad: true });
      const held = x.mul(3).add(1);
      const tail = x.mul(-1).narrow(0, N / 2, N / 2); // its base is dropped at once
      const loss = x.mul(w).tanh().sum(); // tanh's output is saved for backward
      await tpu.sync();
      const liveBefore = tpu.memory().liveBytes;
      const reusedBefore = (await tpu.deviceStats()).pool?.reused ?? 0;
      for (let step = 0; step < 32; step++) {
        let t = x;
        for (let k = 0; k < 8; k++) t = t.mul(0.5).add(k); // dropped, never disposed
        await tpu.sync();
      }
      gc();
      await new Promise((r) => setTimeout(r, 20));
      // 2 GiB were dropped: collections freed them as they came (the heap spaces them by at most 4x its size)
      expect(tpu.memory().liveBytes - liveBefore).toBeLessThan(1024 * MB);
      expect((await tpu.deviceStats()).pool?.reused ?? 0).toBeGreaterThan(reusedBefore);
      loss.backward();
      await expectAll(held, (i) => f32(f32(host[i]! * 3) + 1), 'held');
      await expectAll(tail, (i) => -host[i + N / 2]!, 'tail');
      const wv = host.map((v) => v * 0.5 + 1);
      // d/dw sum(tanh(x w)) = x (1 - tanh(x w)^2), in float64
      await expectAll(w.grad!, (i) => host[i]! * (1 - Math.tanh(host[i]! * wv[i]!) ** 2), 'w.grad', 1e-5);
    });
  });
});
