// XLA:TPU in the loop: every program the session compiles is compiled by libtpu for the
// session's chip in the background; the recording's per-program `xla` figures are libtpu's
// own for the same StableHLO, a second process finds them on disk, and
// TPU_KERNEL_TPU_COMPILE=off keeps libtpu out.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tpu } from 'tpu-kernel/runtime';
import { tpuInLoop, type XlaResult } from '../../dist/runtime/device/tpu-loop/tpu-in-loop.js';
import { compileForTpu, tpuCompilerInfo } from '../../dist/runtime/device/pjrt/index.js';
import { lowerToStableHlo } from '../../dist/runtime/device/stablehlo/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/in-the-loop.test.ts: ${status.reason}`);

const cacheDir = mkdtempSync(join(tmpdir(), 'tpu-in-loop-'));
process.env.TPU_KERNEL_CACHE_DIR = cacheDir;
process.env.TPU_KERNEL_TPU_COMPILE = 'on';
const cellScript = fileURLToPath(new URL('./in-the-loop-cell.mjs', import.meta.url));

afterEach(() => {
  process.env.TPU_KERNEL_TPU_COMPILE = 'on';
  tpu.mode('strict');
});
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/** A cell: matmul, gelu, sum of [m, k] x [k, n], read back. */
async function cell(m: number, k: number, n: number) {
  const recording = tpu.profiler.record({ title: 'cell' });
  const x = tpu.arange(0, m * k, { dtype: 'float32' }).reshape([m, k]).mul(1 / (m * k));
  const w = tpu.ones([k, n]).mul(0.01);
  const total = await x.matmul(w).gelu().sum().data();
  return { recording, total };
}

/** libtpu's own figures for the program `id`, compiled here from its StableHLO. */
async function reference(id: number) {
  const entry = tpu.program(id)!;
  const compiled = await compileForTpu(lowerToStableHlo(entry.program).text, { topology: 'v5e:1x1' });
  const cost = compiled.costAnalysis();
  const memory = compiled.memoryAnalysis();
  // Fusion instructions counted line by line (the runtime counts with one expression).
  const fusions = compiled.asText().split('\n').filter((l) => / fusion\(/.test(l) && l.includes('=')).length;
  return {
    flops: cost.flops, bytesAccessed: cost.bytesAccessed, optimalSeconds: cost.optimalSeconds,
    argumentBytes: memory.argumentBytes, outputBytes: memory.outputBytes, tempBytes: memory.tempBytes, peakBytes: memory.peakBytes,
    fusions,
  };
}

describe.skipIf(!status.available)('XLA:TPU in the loop', () => {
  it.each(['strict', 'fused'] as const)('gives each program of a %s cell libtpu\'s figures for v5e', async (mode) => {
    tpu.mode(mode);
    const { recording, total } = await cell(64, 384, 128);
    const immediate = recording.stop();
    const profile = await immediate;
    expect(immediate.data.state).toBe('final');
    const programs = profile.data.programs;
    expect(programs.length).toBeGreaterThan(0);
    if (mode === 'fused') expect(programs.length).toBeLessThan(4);
    for (const p of programs) {
      expect(p.estimatedBy).toBe('XLA:TPU v5e');
      expect(p.xla).toEqual(await reference(p.id));
      expect(p.estimateMs).toBe(p.xla!.optimalSeconds * 1000);
    }
    // The matmul's 2·m·k·n flops are in the programs XLA:TPU counted.
    const flops = programs.reduce((s, p) => s + p.xla!.flops, 0);
    expect(flops).toBeGreaterThanOrEqual(2 * 64 * 384 * 128);
    expect(flops).toBeLessThan(2 * 64 * 384 * 128 * 1.05);
    // The JSON output carries them under `xla`.
    const json = profile.toJSON().programs;
    expect(json.map((p) => Object.keys(p.xla!).sort())).toEqual(programs.map(() =>
      ['argumentBytes', 'bytesAccessed', 'flops', 'fusions', 'optimalSeconds', 'outputBytes', 'peakBytes', 'tempBytes']));
    expect(Number.isFinite(total[0])).toBe(true);
  }, 120_000);

  it('shows the optimized TPU HLO beside the program (%program)', async () => {
    tpu.mode('fused');
    const { recording } = await cell(32, 128, 128);
    const profile = await recording.stop();
    const listing = tpu.profiler.lastProgram()!;
    expect(profile.data.programs.map((p) => p.id)).toContain(listing.entry.id);
    expect(listing.tpuHeading).toMatch(/^optimized HLO by XLA:TPU for v5e:1x1 \(\d+ fusions?\)$/);
    expect(listing.tpuHlo).toMatch(/^HloModule /);
    expect(String(listing)).toContain(`${listing.tpuHeading}:\nHloModule `);
  }, 120_000);

  it('warns of a program over the HBM the session has, with XLA:TPU\'s bytes', async () => {
    tpu.reset(); // a new session: only this test's tensors are live
    tpu.mode('fused');
    const x = tpu.ones([512, 8]);
    const w = tpu.ones([8, 512]);
    await x.data();
    await w.data();
    // The [512, 512] product lives only inside the fused program: XLA:TPU's peak is over
    // 1 MB. The session runs it (the launch checks the capacity of its day), then a smaller
    // chip is set: the profile, made at stop(), weighs XLA:TPU's bytes against that one.
    try {
      const recording = tpu.profiler.record({ title: 'over' });
      await x.matmul(w).matmul(x).sum().data();
      tpu.setDevice({ hbmBytes: 500_000 });
      const profile = await recording.stop();
      const program = profile.data.programs.find((p) => p.label.includes('matmul'))!;
      const f = program.xla!;
      const needs = f.peakBytes || f.argumentBytes + f.outputBytes + f.tempBytes;
      expect(needs).toBeGreaterThan(500_000);
      const warning = profile.data.warnings[0]!;
      expect(warning.kind).toBe('hbm');
      expect(warning.site.where).toMatch(/in-the-loop\.test\.ts:\d+:\d+/); // the line that ran the fused region
      expect(warning.message).toBe(`${program.label} needs ${binary(needs)} (XLA:TPU: arguments ${binary(f.argumentBytes)}, ` +
        `outputs ${binary(f.outputBytes)}, temporaries ${binary(f.tempBytes)}); the session's v5e has 488.3 KiB (set)`);
    } finally {
      tpu.setDevice({ hbmBytes: null });
    }
  }, 120_000);

  it('says which compiler and executor the session uses (tpu.device())', () => {
    const c = tpu.device().tpuCompiler;
    const pipVersion = execFileSync('python3', ['-c', "import importlib.metadata as m; print(m.version('libtpu'))"], { encoding: 'utf8' }).trim();
    expect(tpu.device().backend).toBe('onnxruntime-cpu');
    expect(c).toMatchObject({
      compiler: 'XLA:TPU (libtpu)',
      status: 'every program, for v5e:1x1, in the background',
      topology: 'v5e:1x1',
      libtpuVersion: process.env.TPU_LIBRARY_PATH ? undefined : pipVersion,
      pjrtApiVersion: status.available ? status.pjrtApiVersion : '',
    });
  });

  it('compiles nothing with TPU_KERNEL_TPU_COMPILE=off: the roofline estimate stays', async () => {
    process.env.TPU_KERNEL_TPU_COMPILE = 'off';
    const compiledBefore = tpuInLoop.compiled;
    const { recording } = await cell(48, 80, 24); // shapes no other test compiles
    const profile = await recording.stop();
    // The programs of these shapes (the matmul's at least) were compiled only now.
    const matmul = profile.data.programs.find((p) => p.label.includes('matmul'))!;
    expect(matmul).toMatchObject({ estimatedBy: 'roofline estimate', bound: expect.any(String) });
    expect(matmul.xla).toBeUndefined();
    expect(tpuInLoop.compiled).toBe(compiledBefore);
    expect(tpu.device().tpuCompiler).toMatchObject({ compiler: 'none', status: 'off (TPU_KERNEL_TPU_COMPILE=off)' });
  }, 60_000);

  it('finds the figures on disk in a second process (no compile)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tpu-in-loop-disk-'));
    try {
      const run = (mode: string) => {
        const r = spawnSync(process.execPath, [cellScript, mode], {
          encoding: 'utf8', timeout: 120_000, env: { ...process.env, TPU_KERNEL_CACHE_DIR: dir, TPU_KERNEL_TPU_COMPILE: 'on' },
        });
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as { compiled: number; fromDisk: number; programs: { label: string; xla: XlaResult['figures'] }[] };
      };
      const first = run('fused');
      const second = run('fused');
      expect(first.compiled).toBeGreaterThan(0);
      expect(first.fromDisk).toBe(0);
      expect(second).toEqual({ ...first, compiled: 0, fromDisk: first.compiled });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

/** Byte counts as the profile writes them: binary units, 3 significant digits. */
function binary(n: number): string {
  if (n < 1024) return `${n} B`;
  const [v, unit] = n < 2 ** 20 ? [n / 2 ** 10, 'KiB'] : n < 2 ** 30 ? [n / 2 ** 20, 'MiB'] : [n / 2 ** 30, 'GiB'];
  return `${v.toFixed(v < 10 ? 2 : 1)} ${unit}`;
}
