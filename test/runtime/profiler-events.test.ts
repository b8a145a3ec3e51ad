// The profiler hooks: exact counts of dispatches, cache hits/misses, transfers and runs.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, profiler } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

function record() {
  const events: profiler.ProfileEvent[] = [];
  // The dispatch event is one reused object (no allocation per op): keep a copy.
  const stop = profiler.subscribe((e) => events.push(e.kind === 'dispatch' ? { ...e, operands: e.operands.map((o) => ({ shape: [...o.shape] })) } : e));
  const of = <K extends profiler.ProfileEvent['kind']>(kind: K) =>
    events.filter((e): e is Extract<profiler.ProfileEvent, { kind: K }> => e.kind === kind);
  return { events, stop, of };
}

describe('profiler events', () => {
  it('strict: one dispatch, one cache lookup and one execution per op; transfers counted', async () => {
    tpu.mode('strict');
    const r = record();
    profiler.profiling.waitSites = 2; // a budget of wait sites, as a recording sets
    const x = tpu.ones([3, 5]); // upload 60 B
    const y = x.mul(2).add(x).add(x); // 3 ops; add twice with the same signature
    const data = await y.data(); // download 60 B
    await tpu.sync();
    r.stop();
    expect(Array.from(data)).toEqual(new Array(15).fill(4));
    expect(r.of('dispatch').map((e) => e.op)).toEqual(['mul', 'add', 'add']);
    expect(r.of('dispatch')[0]).toEqual({ kind: 'dispatch', op: 'mul', operands: [{ shape: [3, 5] }, { shape: [] }], mode: 'strict' });
    const cache = r.of('cache');
    expect(cache).toHaveLength(3);
    expect(cache[2]!.hit).toBe(true);
    expect(r.of('execute')).toHaveLength(3);
    for (const e of r.of('execute')) expect(e.end).toBeGreaterThanOrEqual(e.start);
    expect(r.of('transfer')).toEqual([
      expect.objectContaining({ direction: 'toDevice', bytes: 60 }),
      expect.objectContaining({ direction: 'toHost', bytes: 60 }),
    ]);
    expect(r.of('wait').map((e) => e.reason)).toEqual(['data', 'tpu.sync']);
    for (const w of r.of('wait')) expect(w.site).toMatch(/profiler-events\.test\.ts:\d+/);
  });

  it('a recompile says which dimension changed', async () => {
    tpu.mode('strict');
    const a = tpu.ones([4, 8]);
    const b = tpu.ones([4, 9]);
    a.tanh();
    const r = record();
    b.tanh();
    r.stop();
    const miss = r.of('cache')[0]!;
    expect(miss.hit).toBe(false);
    expect(miss.changed).toBe('input 0 dim 1: 8 -> 9');
    const compiles = record();
    await tpu.sync();
    compiles.stop();
  });

  it('fused: a region event with its reason, and compile timings from the device', async () => {
    tpu.mode('fused');
    const r = record();
    const x = tpu.ones([7, 3]);
    const y = x.mul(3).sub(0.5).relu().sum(1);
    y.dataSync();
    await tpu.sync();
    r.stop();
    expect(r.of('region')).toEqual([expect.objectContaining({ reason: 'dataSync', nodes: 4, outputs: 1 })]);
    const miss = r.of('cache').filter((e) => !e.hit);
    for (const m of miss) expect(r.of('compile').some((c) => c.program === m.program && c.ms >= 0)).toBe(true);
  });
});
