// The profile of a 4-chip cell: each chip's memory, the collectives and the bytes the chips
// sent each other, one device lane per chip, and a warning when one chip holds far more.
import { describe, expect, it } from 'vitest';
import { tpu, profiler } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });

describe('profile with 4 chips', () => {
  it('memory per chip, collectives with bytes moved, per-chip lanes, the imbalance warning', async () => {
    const xs = [0, 1, 2, 3].map((c) => tpu.ones([128, 64], { chip: c })); // 32 KiB each
    const rec = tpu.profiler.record();
    const heavy = tpu.zeros([1024, 1024], { chip: 2 }); // 4 MiB on chip 2 only
    const sums = tpu.distributed.allReduce(xs.map((x) => x.mul(2)), { mesh });
    await tpu.sync();
    const p = rec.stop();
    const d = p.toJSON();
    expect(d.chips!.memory.map((m) => m.chip)).toEqual([0, 1, 2, 3]);
    // Per chip: its x, x·2 and the sum (3 × 32 KiB); chip 2 also the 4 MiB tensor.
    expect(d.chips!.memory.map((m) => m.liveBytes)).toEqual([3, 3, 3, 3].map((n, c) => n * 32768 + (c === 2 ? 4 * 2 ** 20 : 0)));
    // An all-reduce over 4 chips: each sends its 32 KiB to the 3 others.
    expect(d.chips!.collectives.count).toBe(4);
    expect(d.chips!.collectives.bytes).toBe(4 * 3 * 32768);
    expect(d.chips!.collectives.byOp).toEqual({ all_reduce: { count: 4, bytes: 4 * 3 * 32768 } });
    expect(new Set(d.timeline.device.map((s) => s.chip ?? 0))).toEqual(new Set([0, 1, 2, 3]));
    const warning = d.warnings.find((w) => w.kind === 'chip-imbalance');
    expect(warning?.message).toMatch(/^chip 2 holds 4\.09 MiB, 3\.\d× the mean of the 4 chips/);
    expect(warning?.site.where).toBe('chip 2');
    expect(d.warnings.some((w) => w.kind === 'sync-in-loop')).toBe(false); // one sync, whatever the chip count
    expect(String(p)).toMatch(/chip memory +96\.0 KiB \/ 96\.0 KiB \/ 4\.09 MiB \/ 96\.0 KiB/);
    expect(String(p)).toContain('collectives    4 (384.0 KiB sent');
    expect(String(p)).toMatch(/; all_reduce 4 \(384\.0 KiB\)\)/); // the bytes of each kind of collective
    const svg = p.timelineSvg();
    for (const c of [0, 1, 2, 3]) expect(svg).toContain(`>chip ${c}</text>`);
    const trace = profiler.chromeTrace(d);
    expect(trace.traceEvents.filter((e) => e.ph === 'M').map((e) => (e.args as { name: string }).name)).toEqual(
      expect.arrayContaining(['chip 0 (v5e)', 'chip 1 (v5e)', 'chip 2 (v5e)', 'chip 3 (v5e)']),
    );
    heavy.dispose();
    sums.forEach((s) => s.dispose());
  });
});
