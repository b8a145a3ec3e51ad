// The README's tour for PyTorch users is code users paste first: its cells run, in order, as
// a notebook through `tpu-kernel run`, and their results are checked against hand-computed
// figures, so the README cannot drift from what the kernel does.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/kernelspec.js';
import { findLibtpu } from '../../runtime/device/pjrt/index.js';

function tourCells(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## A tour for PyTorch users');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
}

// The tour's last cells compile for a TPU topology: they need libtpu, as .ci/run installs.
const libtpu = await findLibtpu();
if ('reason' in libtpu) console.warn(`SKIPPED test/e2e/readme-tour.test.ts: ${libtpu.reason}`);

describe.skipIf('reason' in libtpu)('the README tour', () => {
  it('runs every cell and gives the figures it shows', () => {
    const cells = tourCells();
    expect(cells.length).toBeGreaterThanOrEqual(4);
    const path = join(mkdtempSync(join(tmpdir(), 'tpu-tour-')), 'tour.ipynb');
    writeFileSync(path, JSON.stringify({
      nbformat: 4, nbformat_minor: 5,
      metadata: { kernelspec: { name: 'tpu-ts', display_name: 'TypeScript (TPU)', language: 'typescript' } },
      cells: cells.map((source, i) => ({ cell_type: 'code', id: `t${i}`, source, metadata: {}, execution_count: null, outputs: [] })),
    }));
    const run = spawnSync(process.execPath, [CLI, 'run', path], { encoding: 'utf8', timeout: 300_000 });
    expect(run.status, run.stderr).toBe(0);
    type Output = { output_type: string; data?: Record<string, string | string[]> };
    const results = JSON.parse(readFileSync(path, 'utf8')).cells.map((c: { outputs: Output[] }) => {
      const result = c.outputs.find((o) => o.output_type === 'execute_result')?.data?.['text/plain'] ?? '';
      return Array.isArray(result) ? result.join('') : result;
    });
    // y = relu(x @ w).sum(1, keepdim): a [256, 1] float32 tensor.
    expect(results[0]).toMatch(/^tensor\(\[\[.*shape=\[256, 1\], dtype=float32/s);
    // Views: row 0 written through c.at(0); the reshape of c.T copied; d(2p + 1)/dp = 2.
    expect(results[5]).toMatch(/\[\s*\[\s*\[\s*1,\s*1,\s*1\s*\],\s*\[\s*0,\s*0,\s*0\s*\]\s*\],\s*\[\s*2,\s*2\s*\]\s*\]/);
    // A matmul of two [8192, 8192] bf16 matrices: 2 * 8192^3 multiply-adds, at least.
    const flops = Number(/flops: (\d+)/.exec(results[3])![1]);
    expect(flops).toBeGreaterThanOrEqual(2 * 8192 ** 3);
    expect(flops).toBeLessThan(2 * 8192 ** 3 * 1.01);
  }, 300_000);
});
