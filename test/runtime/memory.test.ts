// Device memory accounting, chip capacities, out-of-memory, dispose / scope / finalizer.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, OutOfMemoryError } from 'tpu-kernel/runtime';
import { settledLiveTensors } from '../support/settle-gc.js';

afterEach(() => {
  tpu.mode('strict');
  tpu.setDevice({ chip: 'v5e', hbmBytes: null });
});

describe('memory', () => {
  it('counts live and peak bytes per dtype, and frees on dispose', async () => {
    await tpu.sync();
    const base = tpu.memory();
    const a = tpu.zeros([1000]); // 4000 B
    const b = tpu.zeros([1000], { dtype: 'bfloat16' }); // 2000 B: 16-bit storage
    const c = tpu.zeros([10], { dtype: 'bool' }); // 10 B
    let m = tpu.memory();
    expect(m.liveBytes - base.liveBytes).toBe(6010);
    expect(m.liveTensors - base.liveTensors).toBe(3);
    const d = a.add(b); // float32 result, 4000 B
    m = tpu.memory();
    expect(m.liveBytes - base.liveBytes).toBe(10010);
    for (const t of [a, b, c, d]) t.dispose();
    d.dispose(); // idempotent
    m = tpu.memory();
    expect(m.liveBytes).toBe(base.liveBytes);
    expect(m.peakBytes).toBeGreaterThanOrEqual(base.liveBytes + 10010);
  });

  it('has the HBM capacity of the chip generation, settable', () => {
    expect(tpu.memory().capacityBytes).toBe(16e9);
    expect(tpu.setDevice({ chip: 'v4' }).capacityBytes).toBe(32 * 2 ** 30);
    expect(tpu.memory().capacityBytes).toBe(32 * 2 ** 30);
    tpu.setDevice({ chip: 'v5p' });
    expect(tpu.memory().capacityBytes).toBe(95e9);
    tpu.setDevice({ chip: 'v6e' });
    expect(tpu.memory().capacityBytes).toBe(32e9);
    tpu.setDevice({ hbmBytes: 1234567 });
    expect(tpu.memory().capacityBytes).toBe(1234567);
    expect(() => tpu.setDevice({ chip: 'v9' as never })).toThrow('tpu.setDevice: chip must be one of v4, v5e, v5p, v6e; got "v9"');
    expect(() => tpu.setDevice({ hbmBytes: -1 })).toThrow('tpu.setDevice: hbmBytes must be a positive integer; got -1');
  });

  it.each(['debug', 'strict', 'fused'] as const)('%s: out of memory lists the largest live tensors; the session goes on', async (mode) => {
    tpu.mode(mode);
    await tpu.sync();
    const live = tpu.memory().liveBytes;
    tpu.setDevice({ hbmBytes: live + 100_000 });
    const big = tpu.zeros([20_000]); // 80,000 B
    const small = tpu.ones([10]);
    let err: unknown;
    try {
      big.mul(small.sum()).dataSync(); // needs another 80,000 B
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OutOfMemoryError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^out of device memory: mul needs 78\.1 KiB for \[20000\] float32, but .* of 97\.\d KiB \(v5e, set\) are live/);
    expect(msg).toMatch(/Largest live tensors:\n +78\.1 KiB +\[20000\] float32 \(zeros\)/);
    expect(tpu.largestTensors(1)).toEqual([{ bytes: 80_000, shape: [20_000], dtype: 'float32', origin: 'zeros' }]);
    // nothing was lost: the inputs still read back
    expect(small.sum().item()).toBe(10);
    expect(big.dataSync().length).toBe(20_000);
    big.dispose();
    small.dispose();
  });

  it('fused: a program\'s intermediates count against HBM at launch; no phantom tensor after the error', async () => {
    tpu.mode('fused');
    await tpu.sync();
    const live = tpu.memory().liveBytes;
    tpu.setDevice({ hbmBytes: live + 100_000 });
    const big = tpu.full([20_000], 0.5); // 80,000 B
    await big.data();
    const tensors = tpu.memory().liveTensors;
    const bytes = tpu.memory().liveBytes;
    // mul and add are intermediates (80,000 B each, both alive while add runs): 160,000 B
    const total = big.mul(2).add(1).sum();
    let err: unknown;
    try {
      total.dataSync();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OutOfMemoryError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^out of device memory: fused program of 3 ops \(mul, add, sum\) needs 156\.\d KiB for the intermediate values of its program, but/);
    expect(msg).toMatch(/Largest live tensors:\n +78\.1 KiB +\[20000\] float32/);
    expect(tpu.memory().liveTensors).toBe(tensors);
    expect(tpu.memory().liveBytes).toBe(bytes);
    // with room, the same recipe computes the value: sum of (0.5 * 2 + 1) over 20,000 elements
    tpu.setDevice({ hbmBytes: live + 300_000 });
    expect(total.item()).toBe(40_000);
    big.dispose();
  });

  it('tpu.scope frees what it made except what it returns', async () => {
    const before = await settledLiveTensors();
    const kept = tpu.scope(() => {
      const a = tpu.ones([4]);
      const b = a.mul(3);
      return { out: b.add(1), n: 1 };
    });
    await tpu.sync();
    expect(tpu.memory().liveTensors).toBe(before + 1);
    expect(kept.out.array()).toEqual([4, 4, 4, 4]);
    kept.out.dispose();
    expect(tpu.memory().liveTensors).toBe(before);
    expect(() => tpu.scope(() => { tpu.ones([1]); throw new Error('boom'); })).toThrow('boom');
    expect(tpu.memory().liveTensors).toBe(before);
  });

  it('fused mode: a scope around pending work still computes the result', () => {
    tpu.mode('fused');
    const x = tpu.ones([3]);
    const y = tpu.scope(() => x.mul(2).add(1));
    expect(y.array()).toEqual([3, 3, 3]);
  });
});

describe('tpu.reset', () => {
  it('frees everything, starts a new session, and names old tensors as reset', async () => {
    const old = tpu.ones([100]);
    const freed = await tpu.reset();
    expect(freed.liveBytes).toBeGreaterThanOrEqual(400);
    expect(tpu.memory().liveBytes).toBe(0);
    expect(() => old.add(1)).toThrow('add: input [100] float32 was freed by tpu.reset()');
    expect(() => old.dataSync()).toThrow('dataSync: the tensor [100] float32 was freed by tpu.reset()');
    expect(tpu.ones([3]).add(1).array()).toEqual([2, 2, 2]);
  });

  it('names the reset where a fused recipe would read a buffer it freed', async () => {
    tpu.mode('fused');
    const w = tpu.tensor([1, 2, 3]);
    const doubled = w.mul(2); // read once in its region: a recipe over w's buffer
    expect(doubled.add(1).array()).toEqual([3, 5, 7]);
    await tpu.reset();
    expect(() => doubled.dataSync()).toThrow('cannot compute this value: its input [3] float32 was freed by tpu.reset()');
  });
});

describe('tpu.reset with work queued', () => {
  it('drops the queued work and starts a fresh session', async () => {
    tpu.mode('strict');
    const x = tpu.ones([8]);
    let y = x;
    for (let i = 0; i < 5000; i++) y = y.add(x);
    await tpu.reset();
    expect(() => y.dataSync()).toThrow('dataSync: the tensor [8] float32 was freed by tpu.reset()');
    expect(tpu.ones([2]).mul(3).array()).toEqual([3, 3]);
  });
});
