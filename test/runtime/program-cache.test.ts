// The program cache is bounded: beyond tpu.setDevice({ programCacheSize }) the least recently
// used program is evicted and its executable freed on the device thread; using it again
// recompiles it, with the same values, and the profiler counts that compile and miss.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const DEFAULT_SIZE = tpu.device().programCacheSize;
afterEach(() => {
  tpu.setDevice({ programCacheSize: DEFAULT_SIZE });
  tpu.mode('strict');
});

/** 1, 2, ..., n as float32 (an upload, no program). */
const counting = (n: number) => tpu.tensor(Array.from({ length: n }, (_, i) => i + 1));
/** The reference for x.mul(3).add(n): 3 * (i + 1) + n, computed here. */
const expected = (n: number) => Array.from({ length: n }, (_, i) => 3 * (i + 1) + n);

describe('program cache bound', () => {
  it('defaults to 1024 programs', () => {
    expect(DEFAULT_SIZE).toBe(1024);
  });

  it('evicts the least recently used programs, frees them on the device, recompiles one used again', async () => {
    tpu.mode('strict');
    tpu.setDevice({ programCacheSize: 3 });
    await tpu.sync();
    expect(tpu.stats().programsCached).toBeLessThanOrEqual(3);
    // Five shapes: five `mul` programs, each a new signature.
    const inputs = [11, 12, 13, 14, 15].map(counting);
    const evictedBefore = tpu.stats().programsEvicted;
    const compiledBefore = tpu.stats().programsCompiled;
    for (const x of inputs) x.mul(3).dispose();
    await tpu.sync();
    expect(tpu.stats().programsCompiled - compiledBefore).toBe(5);
    expect(tpu.stats().programsCached).toBe(3);
    expect(tpu.stats().programsEvicted - evictedBefore).toBeGreaterThanOrEqual(2);
    // The device thread holds exactly the cached programs: evicted executables were released.
    const device = await tpu.deviceStats();
    expect(device.programs).toBe(3);
    expect(device.executables).toBe(3);

    // The program of shape [11] was evicted: used again, it recompiles and computes the same.
    const recording = tpu.profiler.record();
    const again = inputs[0]!.mul(3);
    const value = again.add(11);
    expect(value.array()).toEqual(expected(11));
    const profile = recording.stop();
    expect(tpu.stats().programsCompiled - compiledBefore).toBe(5 + 2); // mul [11] again, and add [11]
    expect(profile.data.compiles.count).toBe(2);
    expect(profile.data.cache).toMatchObject({ hits: 0, misses: 2 });
    expect(tpu.stats().programsCached).toBe(3);
    expect((await tpu.deviceStats()).programs).toBe(3);

    // A program still cached is a hit, and the profiler says so.
    const hitRecording = tpu.profiler.record();
    const twice = inputs[0]!.mul(3);
    expect(twice.array()).toEqual(expected(11).map((v) => v - 11));
    expect(hitRecording.stop().data.cache).toMatchObject({ hits: 1, misses: 0 });
    for (const t of [...inputs, again, value, twice]) t.dispose();
  });

  it('a profile keeps the labels of programs evicted while it records', () => {
    tpu.mode('strict');
    tpu.setDevice({ programCacheSize: 1 });
    const x = counting(41);
    const recording = tpu.profiler.record();
    const product = x.mul(3);
    const sum = product.add(41); // compiling add evicts mul's program
    expect(sum.array()).toEqual(expected(41));
    const profile = recording.stop();
    expect(tpu.stats().programsCached).toBe(1);
    expect(profile.data.programs.map((p) => p.label).sort()).toEqual(["op 'add'", "op 'mul'"]);
    for (const t of [x, product, sum]) t.dispose();
  });

  it('lowering the size evicts at once; the size is checked', async () => {
    tpu.mode('strict');
    const xs = [21, 22].map(counting);
    for (const x of xs) x.neg().dispose();
    tpu.setDevice({ programCacheSize: 1 });
    expect(tpu.stats().programsCached).toBe(1);
    expect((await tpu.deviceStats()).programs).toBe(1);
    expect(() => tpu.setDevice({ programCacheSize: 0 })).toThrow('tpu.setDevice: programCacheSize must be a positive integer; got 0');
    expect(tpu.device().programCacheSize).toBe(1);
    xs.forEach((x) => x.dispose());
  });

  it('fused regions evicted and run again give the same values', async () => {
    tpu.mode('fused');
    tpu.setDevice({ programCacheSize: 1 });
    const x = counting(31);
    const run = () => x.mul(3).add(31).array();
    expect(run()).toEqual(expected(31));
    const other = counting(2);
    expect(other.neg().array()).toEqual([-1, -2]); // another program evicts the region's
    const compiled = tpu.stats().programsCompiled;
    expect(run()).toEqual(expected(31));
    expect(tpu.stats().programsCompiled).toBe(compiled + 1);
    x.dispose();
    other.dispose();
  });
});
