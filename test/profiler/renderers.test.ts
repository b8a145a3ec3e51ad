// The profile renderers on a hand-made profile: text/plain (80 columns, the figures),
// text/html (tables, escaping), image/svg+xml (lanes, spans at their times, titles) and
// the JSON figures; roofline estimates and padding rules against hand arithmetic.
import { describe, expect, it } from 'vitest';
import { Profile } from '../../runtime/profiler/profile.js';
import { PROFILE_MIME, type ProfileData } from '../../runtime/profiler/profile-data.js';
import { programCost, roofline } from '../../runtime/profiler/roofline.js';
import { Timeline } from '../../runtime/profiler/timeline.js';
import { paddedShape } from '../../runtime/profiler/warnings.js';
import type { Program } from '../../runtime/program/program.js';

const data: ProfileData = {
  version: 1, state: 'final', title: 'cell 7', mode: 'fused', modes: ['fused'], startedAt: 1000, wallMs: 20,
  hostDispatchMs: 1.5, deviceBusyMs: 12, ops: 42, programsRun: 3, compiles: { count: 2, ms: 8.25 },
  cache: { hits: 1, misses: 2, hitRate: 1 / 3 }, queueDepth: { now: 0, max: 2 }, waits: { count: 1, ms: 4 }, regions: 3,
  transfers: { toDevice: { count: 2, bytes: 3 * 1024 * 1024 }, toHost: { count: 1, bytes: 512 } },
  memory: { liveBytes: 2048, peakBytes: 4096, liveTensors: 3, capacityBytes: 16e9, capacity: '14.9 GiB (v5e)' },
  chip: { name: 'v5e', peakBf16Flops: 197e12, hbmBytesPerSecond: 819e9 },
  programs: [
    { id: 1, label: 'fused program of 40 ops (matmul, add, relu, …)', runs: 2, deviceMs: 10, flops: 2e9, bytes: 4e6, estimateMs: 2e9 / 197e12 * 1e3, bound: 'compute' },
    { id: 2, label: "op 'sum'", runs: 1, deviceMs: 2, flops: 1000, bytes: 4004, estimateMs: 4004 / 819e9 * 1e3, bound: 'memory' },
  ],
  warnings: [
    { kind: 'recompile', message: "op 'relu' recompiled because a shape changed: input 0 dim 0: 8 -> 16", site: { where: 'line 3', line: 3, text: '  y = x.relu() // <b>' }, count: 2 },
  ],
  timeline: {
    host: [
      { lane: 'host', kind: 'dispatch', start: 0, end: 10, label: 'dispatch ×40' },
      { lane: 'host', kind: 'compile', start: 10, end: 15, label: "compile op 'sum'" },
      { lane: 'host', kind: 'wait', start: 15, end: 19, label: 'wait (data)' },
    ],
    device: [{ lane: 'device', kind: 'program', start: 5, end: 15, label: "op 'sum' <x>" }],
  },
};

describe('profile renderers', () => {
  const bundle = new Profile(data, { timeline: true })[Symbol.for('Jupyter.display')]();

  it('text/plain: the figures, the programs with the estimate, the warnings, within 80 columns', () => {
    const text = bundle['text/plain'] as string;
    const lines = text.split('\n');
    expect(lines[0]).toBe('TPU profile · cell 7 · fused mode · final');
    expect(lines[1]).toMatch(/^  wall time      20\.0 ms +host dispatch  1\.50 ms$/);
    expect(text).toContain('device busy    12.0 ms');
    expect(text).toContain('ops dispatched 42');
    expect(text).toContain('programs run   3');
    expect(text).toContain('compiles       2 (8.25 ms)');
    expect(text).toContain('cache hit rate 33% (1 of 3)');
    expect(text).toContain('queue depth    0 (max 2)');
    expect(text).toContain('to device      3.00 MiB (2)');
    expect(text).toContain('from device    512 B (1)');
    expect(text).toContain('live memory    2.00 KiB (3 tensors)');
    expect(text).toContain('peak memory    4.00 KiB of 14.9 GiB (v5e)');
    expect(text).toContain('roofline column is an estimate');
    // 2e9 FLOPs / 197e12 FLOP/s = 10.2 µs, compute-bound; programs by device time
    expect(text).toMatch(/\n +2 +10\.0 ms +10\.2 µs compute +2\.00 G +3\.81 MiB +fused program of /);
    expect(text).toMatch(/\n +1 +2\.00 ms +4\.89 ns memory +1\.00 k +3\.91 KiB +op 'sum'/);
    expect(text).toContain("  ! line 3 (×2): y = x.relu() // <b>\n      op 'relu' recompiled because a shape changed: input 0 dim 0: 8 -> 16");
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('text/html: figure and program tables, escaped warnings, the timeline inline', () => {
    const html = bundle['text/html'] as string;
    expect(html).toMatch(/^<div class="tpu-profile" data-state="final">/);
    expect(html).toContain('<th style="padding:1px 8px;text-align:left">ops dispatched</th><td style="padding:1px 8px;text-align:left">42</td>');
    expect(html).toContain('est. v5e (roofline)');
    expect(html).toContain('<code>y = x.relu() // &#60;b&#62;</code>');
    expect(html).not.toContain("// <b>");
    expect(html.match(/<tr>/g)).toHaveLength(7 + 3); // 14 figures in pairs; header + 2 programs
    expect(html).toContain('<svg ');
  });

  it('image/svg+xml: host and device lanes, spans at their times, a title on each', () => {
    const svg = bundle['image/svg+xml'] as string;
    const rects = [...svg.matchAll(/<rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" height="(\d+)" fill="[^"]+" class="(\w+)"><title>([^<]*)<\/title><\/rect>/g)];
    expect(rects.map((r) => r[5])).toEqual(['dispatch', 'compile', 'wait', 'program']);
    // 20 ms over a 684 px plot (760 - 64 - 12) starting at x = 64
    const px = (ms: number) => 64 + (ms / 20) * 684;
    expect(Number(rects[0]![1])).toBeCloseTo(px(0), 2);
    expect(Number(rects[0]![3])).toBeCloseTo(px(10) - px(0), 2);
    expect(Number(rects[3]![1])).toBeCloseTo(px(5), 2);
    expect(Number(rects[3]![2])).toBeGreaterThan(Number(rects[0]![2])); // device lane below the host lane
    expect(rects[3]![6]).toBe("op &#39;sum&#39; &#60;x&#62;: 10.0 ms (at 5.00 ms)");
    expect(svg).toMatch(/<text x="[\d.]+" y="102" text-anchor="middle">20\.0 ms<\/text>/);
  });

  it('the JSON mime type holds the raw figures', () => {
    expect(bundle[PROFILE_MIME]).toEqual(JSON.parse(JSON.stringify(data)));
    const noTimeline = new Profile(data)[Symbol.for('Jupyter.display')]();
    expect(Object.keys(noTimeline).sort()).toEqual([PROFILE_MIME, 'text/html', 'text/plain']);
  });
});

describe('roofline and padding', () => {
  it('FLOPs, HBM bytes and the estimate of a program by hand', () => {
    // [64, 256] x [256, 128] bf16 matmul, then + scalar: 2*64*128*256 + 64*128 FLOPs
    const p: Program = {
      inputs: [{ shape: [64, 256], dtype: 'bfloat16' }, { shape: [256, 128], dtype: 'bfloat16' }],
      scalars: ['float32'],
      nodes: [
        { op: 'matmul', inputs: [0, 1], attrs: { precision: 'highest' }, shape: [64, 128], dtype: 'bfloat16' },
        { op: 'add', inputs: [3, 2], attrs: {}, shape: [64, 128], dtype: 'bfloat16' },
      ],
      outputs: [4],
    };
    const cost = programCost(p);
    expect(cost).toEqual({ flops: 2 * 64 * 128 * 256 + 64 * 128, bytes: (64 * 256 + 256 * 128 + 64 * 128) * 2 });
    const v5e = roofline(cost, 'v5e');
    expect(v5e.bound).toBe('memory'); // 4.2 MFLOP / 197 TFLOP/s = 21 ns < 114688 B / 819 GB/s = 140 ns
    expect(v5e.ms).toBeCloseTo((114688 / 819e9) * 1e3, 15);
    const big = roofline({ flops: 1e12, bytes: 1e6 }, 'v6e');
    expect(big).toEqual({ ms: (1e12 / 918e12) * 1e3, bound: 'compute' });
  });

  it('pads the last dim to 128 lanes and the one before to 8 sublanes', () => {
    expect(paddedShape([100, 128])).toEqual([104, 128]);
    expect(paddedShape([8, 130])).toEqual([8, 256]);
    expect(paddedShape([3, 7, 8, 128])).toBeUndefined();
    expect(paddedShape([64])).toEqual([128]);
    expect(paddedShape([])).toBeUndefined();
  });

  it('the timeline merges spans closer than 0.1 ms of one kind', () => {
    const t = new Timeline(100);
    t.add('host', 'dispatch', 100, 100.01, 'add');
    t.add('host', 'dispatch', 100.09, 100.1, 'mul');
    t.add('host', 'dispatch', 101, 101.5, 'sum');
    t.add('device', 'program', 100.5, 101, "op 'add'");
    expect(t.spans()).toEqual({
      host: [
        { lane: 'host', kind: 'dispatch', start: 0, end: expect.closeTo(0.1, 9), label: 'dispatch ×2' },
        { lane: 'host', kind: 'dispatch', start: 1, end: 1.5, label: 'sum' },
      ],
      device: [{ lane: 'device', kind: 'program', start: 0.5, end: 1, label: "op 'add'" }],
    });
  });
});
