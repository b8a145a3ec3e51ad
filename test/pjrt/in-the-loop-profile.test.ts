// A cell's profile under XLA:TPU in the loop: the cell ends with the roofline estimates (it
// never waits for XLA:TPU), then its display is updated in place with XLA:TPU's figures,
// sent while later cells run. Its %device names the compiler and the executor.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MimeBundle, SessionFactory } from '../../kernel/language-session.js';
import type { ProfileData } from '../../runtime/profiler/index.js';
import { SessionDriver, type Recorded } from '../session/recording-publisher.js';
import { tpuCompilerInfo } from '../../dist/runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/in-the-loop-profile.test.ts: ${status.reason}`);

const cacheDir = mkdtempSync(path.join(tmpdir(), 'tpu-in-loop-profile-'));
process.env.TPU_KERNEL_CACHE_DIR = cacheDir; // empty: every program is compiled, none read
process.env.TPU_KERNEL_TPU_COMPILE = 'on';
const MIME = 'application/vnd.tpu-kernel.profile+json';
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-profile-')), built.createSession);
afterAll(async () => {
  await driver.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

const profiles = (outputs: Recorded[]) =>
  outputs.filter((o): o is Extract<Recorded, { kind: 'display' | 'update' }> => (o.kind === 'display' || o.kind === 'update') && MIME in o.data);
const figures = (bundle: MimeBundle) => bundle[MIME] as ProfileData;

describe.skipIf(!status.available)('a profiled cell with XLA:TPU in the loop', () => {
  it('shows the roofline at the end of the cell, then XLA:TPU\'s figures in the same display', async () => {
    await driver.run('%profile summary');
    const first = await driver.run([
      // strict: one program per op, each an XLA:TPU compile of tens of ms queued one after
      // another, so the cell ends long before the last of them
      '%mode strict',
      'const x = tpu.ones([96, 160]);',
      'const w = tpu.ones([160, 224]);',
      'await x.matmul(w).relu().mul(3).add(1).exp().log().neg().sum().data();',
    ].join('\n'));
    expect(first.outcome.status).toBe('ok');
    const [shown] = profiles(first.publisher.outputs);
    expect(figures(shown!.data).programs.every((p) => p.estimatedBy === 'roofline estimate')).toBe(true);
    // The next cells wait: the update of the first cell's display goes out meanwhile, on the
    // running cell's outputs (XLA:TPU compiles one program after another: seconds on a busy machine).
    const later: Recorded[][] = [];
    const findUpdate = () => later.flatMap(profiles).find((o) => o.kind === 'update' && o.displayId === shown!.displayId);
    for (let waited = 0; waited < 40 && !findUpdate(); waited++) later.push((await driver.run('await new Promise((r) => setTimeout(r, 1000));')).publisher.outputs);
    const update = findUpdate();
    expect(update).toBeDefined();
    const programs = figures(update!.data).programs;
    expect(programs.length).toBeGreaterThan(0);
    for (const p of programs) {
      expect(p.estimatedBy).toBe('XLA:TPU v5e');
      expect(p.estimateMs).toBe(p.xla!.optimalSeconds * 1000);
    }
    // 2·96·160·224 flops of the matmul in XLA:TPU's count
    expect(programs.reduce((s, p) => s + p.xla!.flops, 0)).toBeGreaterThanOrEqual(2 * 96 * 160 * 224);
    expect(update!.data['text/plain']).toContain('estimates for one v5e chip by XLA:TPU v5e');
    await driver.run('%profile off');
  }, 60_000);

  it('%device names the TPU compiler beside the executor', async () => {
    const run = await driver.run('%device');
    const text = run.publisher.outputs.filter((o) => o.kind === 'stream').map((o) => (o as { text: string }).text).join('');
    expect(text).toContain('backend:          onnxruntime-cpu\n');
    if (!status.available) return;
    const versions = [status.libtpuVersion && `libtpu ${status.libtpuVersion}`, `PJRT C API ${status.pjrtApiVersion}`].filter(Boolean).join(', ');
    expect(text).toContain(`TPU compiler:     XLA:TPU (libtpu) (${versions}): every program, for v5e:1x1, in the background\n`);
    expect(text).toContain(`libtpu:           ${status.libtpuPath}\n`);
  });
});
