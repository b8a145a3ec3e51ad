// Dropped large tensors found by a scavenge (device/young-tensors.ts): weak N-API references
// that a minor collection clears for unreachable young objects. First the sweep alone, on
// stand-in owners and buffers: exactly the dropped ones are freed, the reachable ones never,
// and survivors go to the finalization registry. Then natural code: a strict chain's
// temporaries come back within a step or two, with no full collection, and tensors the code
// still holds keep their values (float64 references); a fused step's dropped output, swept
// after its launch went out, comes back too.
import { describe, expect, it, onTestFinished } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { SWEEP_BYTES, SWEEP_COUNT, YoungTensors, youngWeakAddon } from '../../dist/runtime/device/young-tensors.js';
import type { DeviceBuffer } from '../../dist/runtime/device/memory.js';

const MB = 2 ** 20;

/** A stand-in for a device buffer: what the sweep reads. */
function buffer(id: number, bytes = 16 * MB): DeviceBuffer {
  return { id, bytes, freed: false, pins: 0 } as unknown as DeviceBuffer;
}

async function addon() {
  const a = await youngWeakAddon();
  // gcc is on every machine the project supports; without one the finalizer path alone runs (gc-pressure.test.ts)
  expect(a, 'the weak-reference addon (needs gcc and --expose-gc through v8.setFlagsFromString)').toBeDefined();
  return a!;
}

describe('YoungTensors sweep', () => {
  it('frees the buffers of dropped owners only; reachable owners go to the registry after two sweeps', async () => {
    const collected: number[] = [];
    const old: [object, number][] = [];
    const young = new YoungTensors(await addon(), (b) => collected.push(b.id), (o, b) => old.push([o, b.id]), () => {});
    // Made in a function that returns: no stale interpreter register keeps the dropped ones.
    const watchSome = () => {
      const kept: object[] = [];
      for (let id = 1; id <= 6; id++) {
        const owner = { id };
        young.watch(owner, buffer(id));
        if (id % 3 === 0) kept.push(owner);
      }
      return kept;
    };
    const kept = watchSome();
    young.sweepIfDue(); // 96 MiB watched: due
    expect(collected.sort()).toEqual([1, 2, 4, 5]);
    expect(old).toEqual([]);
    young.sweepIfDue(); // nothing newly watched: not due
    expect(old).toEqual([]);
    const watchOne = () => young.watch({ id: 7 }, buffer(7, SWEEP_BYTES));
    watchOne();
    young.sweepIfDue();
    expect(collected.sort()).toEqual([1, 2, 4, 5, 7]);
    // alive at two sweeps: handed over with their owners
    expect(old.map(([o, id]) => [o === kept[id === 3 ? 0 : 1], id])).toEqual([[true, 3], [true, 6]]);
  });

  it('lets go of disposed tensors without freeing them again', async () => {
    const collected: DeviceBuffer[] = [];
    const old: number[] = [];
    const young = new YoungTensors(await addon(), (b) => collected.push(b), (_, b) => old.push(b.id), () => {});
    const disposed = buffer(1);
    const held = { id: 2 };
    const watch = () => {
      young.watch({ id: 1 }, disposed);
      young.watch(held, buffer(2));
      young.watch({ id: 3 }, buffer(3));
    };
    watch();
    disposed.freed = true;
    young.sweepIfDue();
    expect(collected.map((b) => b.id)).toEqual([3]);
    young.sweep();
    expect(old).toEqual([2]);
    expect(held.id).toBe(2);
  });

  it('sweeps after SWEEP_COUNT tiny tensors too, whatever their bytes', async () => {
    const collected: number[] = [];
    const young = new YoungTensors(await addon(), (b) => collected.push(b.id), () => {}, () => {});
    const watchTiny = (from: number, n: number) => {
      for (let id = from; id < from + n; id++) young.watch({ id }, buffer(id, 32));
    };
    watchTiny(0, SWEEP_COUNT - 1);
    young.sweepIfDue(); // 8,191 tensors of 32 bytes: not due
    expect(collected.length).toBe(0);
    watchTiny(SWEEP_COUNT - 1, 1);
    young.sweepIfDue();
    expect(collected.length).toBe(SWEEP_COUNT);
  });

  it('runs what keeps dropped tensors reachable (call sites) before the collection', async () => {
    const order: string[] = [];
    const young = new YoungTensors(await addon(), () => order.push('collected'), () => {}, () => order.push('settle'));
    const watch = () => young.watch({}, buffer(1, SWEEP_BYTES));
    watch();
    young.sweepIfDue();
    expect(order).toEqual(['settle', 'collected']);
  });
});

describe('natural code', () => {
  it("frees a loop of tiny ops' dropped tensors with no full collection (W1's adds of 8 floats)", async () => {
    const sites = tpu.setCallSites(false); // as in the case below
    onTestFinished(() => void tpu.setCallSites(sites));
    await tpu.withMode('strict', async () => {
      const x = tpu.ones([8]);
      await tpu.sync();
      await addon();
      const tensorsBefore = tpu.memory().liveTensors;
      let majors = 0;
      const gcs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if ((e.detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
      });
      gcs.observe({ entryTypes: ['gc'] });
      let y = x;
      let most = 0;
      for (let round = 0; round < 6; round++) {
        const chain = () => {
          for (let i = 0; i < 5000; i++) y = y.add(x);
        };
        chain();
        await tpu.sync();
        most = Math.max(most, tpu.memory().liveTensors - tensorsBefore);
      }
      await new Promise((r) => setImmediate(r)); // the observer's last entries
      gcs.disconnect();
      // 30,000 tensors made; a sweep per 8,192 watched, and the ones alive at a sweep age out after two
      expect(majors, 'full collections during the loop (the bound below would then not show the sweep)').toBe(0);
      expect(most).toBeLessThan(3 * SWEEP_COUNT);
      expect(Array.from((await y.data()) as Float32Array)).toEqual(new Array(8).fill(30_001));
    });
  });


  const N = 1 << 20; // 4 MiB of float32
  const f32 = Math.fround;
  const host = Float32Array.from({ length: N }, (_, i) => Math.sin(i * 0.11) * 3);
  /** W2's chain in float32 steps, one element, as the device computes it up to tanh's approximation. */
  const chain = (v: number) => Math.sqrt(Math.abs(f32(f32(Math.tanh(f32(f32(v * 1.5) + 0.5)) * v) - 0.25)));

  it("recycles a chain's temporaries within two steps with no full collection; held tensors keep their values", async () => {
    // Under vitest the receivers a call site captured stay reachable after the site is settled
    // (not so under plain node; cause not found): call sites off, as TPU_KERNEL_CALL_SITES=0.
    const sites = tpu.setCallSites(false);
    onTestFinished(() => void tpu.setCallSites(sites));
    await tpu.withMode('strict', async () => {
      const x = tpu.tensor(host);
      await tpu.sync();
      await addon(); // the session's sweep is set up once the addon is loaded
      const liveBefore = tpu.memory().liveBytes;
      const held: { step: number; t: ReturnType<typeof x.mul> }[] = [];
      let highest = 0;
      let last = x;
      for (let step = 0; step < 40; step++) {
        const t = x.mul(1.5).add(0.5);
        if (step % 10 === 0) held.push({ step, t }); // an intermediate the code keeps
        last = t.tanh().mul(x).sub(0.25).abs().sqrt();
        await tpu.sync();
        highest = Math.max(highest, tpu.memory().liveBytes - liveBefore);
      }
      // 40 steps made 1120 MiB; full collections come every 256 MiB of growth. Live here: the 4
      // held intermediates, the first step's (the sites of first compiles keep their receivers),
      // and up to two steps' outputs before a sweep (7 x 4 MiB a step, a sweep per 32 MiB).
      expect(highest).toBeLessThan(4 * 4 * MB + 6 * 4 * MB + 2 * 28 * MB + 8 * MB);
      const got = (await last.data()) as Float32Array;
      for (let i = 0; i < N; i += 997) expect(Math.abs(got[i]! - chain(host[i]!))).toBeLessThan(1e-5);
      for (const { step, t } of held) {
        const v = (await t.data()) as Float32Array;
        for (let i = 0; i < N; i += 1009) expect(v[i], `held step ${step} [${i}]`).toBe(f32(f32(host[i]! * 1.5) + 0.5));
      }
    });
  });

  it("recycles a fused step's dropped output, swept after the step's lone launch went out", async () => {
    const sites = tpu.setCallSites(false); // as in the case above
    onTestFinished(() => void tpu.setCallSites(sites));
    await tpu.withMode('fused', async () => {
      const x = tpu.tensor(host);
      await tpu.sync();
      await addon();
      let last = x;
      const step = async () => {
        last = x.mul(1.5).add(0.5).tanh().mul(x).sub(0.25).abs().sqrt();
        await tpu.sync();
      };
      for (let i = 0; i < 20; i++) await step();
      const liveBefore = tpu.memory().liveBytes;
      const freshBefore = (await tpu.deviceStats()).pool.fresh;
      let highest = 0;
      // 40 steps of one 4 MiB output each: a sweep per 32 MiB (8 steps) finds the dropped ones,
      // and their frees, made after the launch went out, reach the device in a batch of their own.
      for (let i = 0; i < 40; i++) {
        await step();
        highest = Math.max(highest, tpu.memory().liveBytes - liveBefore);
      }
      expect(highest).toBeLessThanOrEqual(SWEEP_BYTES + 4 * MB);
      expect((await tpu.deviceStats()).pool.fresh - freshBefore, 'outputs made afresh instead of recycled').toBe(0);
      const got = (await last.data()) as Float32Array;
      for (let i = 0; i < N; i += 997) expect(Math.abs(got[i]! - chain(host[i]!))).toBeLessThan(1e-5);
    });
  });
});
