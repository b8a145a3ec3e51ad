// XLA:TPU in the loop with 4 chips: a program with collectives is one chip's part of an SPMD
// program, compiled for a 4-chip slice (v5e:2x2, 4 partitions), and the profile gives XLA:TPU's
// figures for it: its estimate, and the collectives of its optimized HLO with their operands'
// bytes, against sizes counted by hand. Skipped only where libtpu is missing.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { sliceTopology, tpuInLoop } from '../../dist/runtime/device/tpu-loop/tpu-in-loop.js';
import { tpuCompilerSummary } from '../../dist/runtime/device/tpu-loop/compiler-summary.js';
import { hloCollectives } from '../../dist/runtime/device/tpu-loop/hlo-collectives.js';
import { compileForTpu, tpuCompilerInfo } from '../../dist/runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED (compile) test/pjrt/in-the-loop-collectives.test.ts: ${status.reason}`);

const cacheDir = mkdtempSync(join(tmpdir(), 'tpu-in-loop-collectives-'));
process.env.TPU_KERNEL_CACHE_DIR = cacheDir; // empty: every program is compiled
process.env.TPU_KERNEL_TPU_COMPILE = 'on';
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });

describe('the slice a collective program compiles for', () => {
  it('is as square as the chip count allows, named as Cloud TPU names slices', () => {
    expect([1, 2, 4, 8, 16].map((n) => sliceTopology('v5e', n))).toEqual(['v5e:1x1', 'v5e:2x1', 'v5e:2x2', 'v5e:2x4', 'v5e:4x4']);
    expect([1, 2, 4, 8].map((n) => sliceTopology('v4', n))).toEqual(['v4:1x1x1', 'v4:2x1x1', 'v4:2x2x1', 'v4:2x2x2']);
    expect(sliceTopology('v6e', 3)).toBe('v6e:3x1');
  });

  it('reading the collectives of printed HLO: operand bytes from result types and group sizes', () => {
    const hlo = [
      '  %all-reduce.0 = f32[256,256]{1,0:T(8,128)S(1)} all-reduce(%fusion), channel_id=1, replica_groups={{0,2},{1,3}}, use_global_device_ids=true, to_apply=%region_0.1',
      '  %copy-start.1 = (f32[256,256]{1,0:T(8,128)}, f32[256,256]{1,0:T(8,128)S(1)}, u32[]{:S(2)}) copy-start(%all-reduce.0)',
      '  %all-gather.6 = bf16[512,256]{1,0} all-gather(%all-reduce.0), channel_id=2, replica_groups=[2,2]<=[4], dimensions={0}, frontend_attributes={async_collective_name="all-gather-start"}',
      '  %reduce-scatter.0 = f32[128,256]{1,0} reduce-scatter(%tanh.0), channel_id=3, replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=%region_1.2',
      '  %collective-permute-start = (f32[128,256]{1,0}, f32[128,256]{1,0}, u32[]{:S(2)}, u32[]{:S(2)}) collective-permute-start(%reduce-scatter.0), channel_id=4, source_target_pairs={{0,1},{1,0}}',
      '  %collective-permute-done = f32[128,256]{1,0} collective-permute-done(%collective-permute-start)',
    ].join('\n');
    expect(hloCollectives(hlo)).toEqual({
      count: 4,
      bytes: 256 * 256 * 4 + 256 * 256 * 2 + 512 * 256 * 4 + 128 * 256 * 4,
      byOp: {
        'all-reduce': { count: 1, bytes: 256 * 256 * 4 },
        'all-gather': { count: 1, bytes: 256 * 256 * 2 }, // its result over the group of 2
        'reduce-scatter': { count: 1, bytes: 512 * 256 * 4 }, // its result times the group of 4
        'collective-permute': { count: 1, bytes: 128 * 256 * 4 },
      },
    });
  });
});

describe.skipIf(!status.available)('XLA:TPU in the loop with collectives (libtpu)', () => {
  it('%device names the slice of collective programs', () => {
    expect(tpuCompilerSummary().status).toBe('every program, for v5e:1x1 (with collectives: for v5e:2x2, 4 partitions), in the background');
  });

  it.each(['strict', 'fused'] as const)("a %s cell's collective programs: compiled for v5e:2x2 with XLA:TPU's collective count and bytes", async (mode) => {
    tpu.mode(mode);
    const N = 96 * 128;
    const xs = mesh.chips.map((chip) => tpu.ones([96, 128], { chip }));
    const recording = tpu.profiler.record({ title: 'collectives' });
    // One all-reduce of N floats over all chips, then an all-gather of them within 'tp' pairs.
    const sums = tpu.distributed.allReduce(xs.map((x) => x.mul(2)), { mesh });
    const rows = tpu.distributed.allGather(sums, { mesh, axis: 'tp', dim: 0 });
    const totals = await Promise.all(rows.map((r: Tensor) => r.sum().item()));
    const profile = await recording.stop();
    expect(totals).toEqual([1, 2, 3, 4].map(() => 2 * 4 * 2 * N)); // 2·1 summed over 4 chips, 2N values
    const withCollectives = profile.data.programs.filter((p) => p.xla?.collectives);
    const bytes = { 'all-reduce': 0, 'all-gather': 0 };
    for (const p of withCollectives) {
      expect(tpuInLoop.result(p.id)!.topology).toBe('v5e:2x2');
      expect(p.estimatedBy).toBe('XLA:TPU v5e');
      expect(p.estimateMs).toBe(p.xla!.optimalSeconds * 1000);
      for (const [op, f] of Object.entries(p.xla!.collectives!.byOp)) bytes[op as keyof typeof bytes] += f.bytes * p.runs;
    }
    // Each of the 4 chips' programs: the all-reduce's operand is N float32 (4N bytes); the
    // all-gather's is the same N floats (its result, 2N floats, over its group of 2).
    expect(bytes).toEqual({ 'all-reduce': 4 * 4 * N, 'all-gather': 4 * 4 * N });
    const counts = withCollectives.reduce((n, p) => n + p.xla!.collectives!.count * p.runs, 0);
    expect(counts).toBe(2 * 4);
    // The profile's totals count every chip's programs: 2 collectives of 4N bytes on each chip.
    expect(profile.data.chips!.xlaCollectives).toEqual({
      count: 8, bytes: 8 * 4 * N,
      byOp: { 'all-reduce': { count: 4, bytes: 4 * 4 * N }, 'all-gather': { count: 4, bytes: 4 * 4 * N } },
      perChip: [0, 1, 2, 3].map((chip) => ({ chip, count: 2, bytes: 2 * 4 * N })),
    });
    expect(String(profile)).toContain('XLA:TPU collectives 8 (384.0 KiB of operands; all-reduce 4 (192.0 KiB), all-gather 4 (192.0 KiB)); per chip 96.0 KiB / 96.0 KiB / 96.0 KiB / 96.0 KiB');
    // The table's column: strict runs each collective as its own program (4N bytes = 48 KiB);
    // fused runs each chip's two in one program.
    expect(String(profile)).toMatch(mode === 'strict' ? / 1 \(48\.0 KiB\) +op 'all_reduce'/ : / 2 \(96\.0 KiB\) +fused program/);
  }, 240_000);

  it("chips whose programs differ (tp groups of other sizes): each chip's share counted, per chip and in all", async () => {
    tpu.mode('strict');
    // Chips 0, 1 all-reduce 64×128 floats, chips 2, 3 16×128 (each tp group agrees within itself).
    const rowsOf = [64, 64, 16, 16];
    const xs = mesh.chips.map((chip) => tpu.ones([rowsOf[chip]!, 128], { chip }));
    const recording = tpu.profiler.record({ title: 'uneven groups' });
    const sums = tpu.distributed.allReduce(xs, { mesh, axis: 'tp' });
    const totals = await Promise.all(sums.map((t: Tensor) => t.sum().item()));
    const profile = await recording.stop();
    expect(totals).toEqual(rowsOf.map((r) => 2 * r * 128));
    const bytes = rowsOf.map((r) => r * 128 * 4); // each chip's operand
    expect(profile.data.chips!.xlaCollectives).toEqual({
      count: 4, bytes: bytes.reduce((a, b) => a + b, 0),
      byOp: { 'all-reduce': { count: 4, bytes: bytes.reduce((a, b) => a + b, 0) } },
      perChip: bytes.map((b, chip) => ({ chip, count: 1, bytes: b })),
    });
  }, 240_000);

  it('a 2-chip program (a toChip from chip 0 to 1) compiles for v5e:2x1, 2 partitions', async () => {
    const f = tpu.compile((x: Tensor) => x.toChip(1).mul(2));
    const text = f.lower(tpu.spec([64, 128], 'float32', { chip: 0 })).stablehlo;
    const compiled = await compileForTpu(text, { topology: sliceTopology('v5e', 2), numPartitions: 2 });
    expect(hloCollectives(compiled.asText()).byOp).toEqual({ 'collective-permute': { count: 1, bytes: 64 * 128 * 4 } });
  }, 120_000);
});
