// The kernel turns off TurboFan's escape analysis for itself (kernel/jit-flags.ts), unless
// Node's command line chooses. Observed the way it matters: an optimized loop whose temporary
// object escape analysis would remove allocates it on every turn without it, so the young
// generation fills and is collected over and over.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentOf, KERNEL_CLI, spawnKernel } from '../support/kernel-client.mjs';

/** Garbage collections during 3e7 turns of a loop that makes a two-field object per turn. */
const COUNT_COLLECTIONS = `
import { PerformanceObserver } from 'node:perf_hooks';
let collections = 0;
const observer = new PerformanceObserver((list) => (collections += list.getEntries().length));
observer.observe({ entryTypes: ['gc'] });
const loop = () => {
  const pair = (x: number) => { const p = { a: x, b: x + 1 }; return p.a * p.b; };
  let sum = 0;
  for (let i = 0; i < 3e7; i++) sum += pair(i);
  return sum;
};
loop();
await new Promise((resolve) => setTimeout(resolve, 100));
observer.disconnect();
collections`;

async function collectionsIn(argv?: (file: string) => string[]): Promise<number> {
  const kernel = await spawnKernel(argv ? { argv } : {});
  try {
    const { reply, outputs } = await kernel.execute(COUNT_COLLECTIONS, {}, 60_000);
    expect(reply.content.status).toBe('ok');
    const result = contentOf(outputs).find(([type]) => type === 'execute_result');
    return Number((result![1] as { data: Record<string, string> }).data['text/plain']);
  } finally {
    await kernel.close();
  }
}

describe('JIT flags', () => {
  it('runs without escape analysis, and with it when Node is started with --turbo_escape (V8 takes either spelling)', async () => {
    const without = await collectionsIn();
    const withEscapeAnalysis = await collectionsIn((file) => [process.execPath, '--turbo_escape', KERNEL_CLI, '--connection-file', file]);
    // 3e7 objects of about 32 bytes, about 1 GB, through young-generation spaces of at most
    // 16 MiB: dozens of collections (76 here) when each is allocated; with escape analysis only
    // those before the loop's optimized code is in (3 here; more on a machine slow to compile it)
    expect(without).toBeGreaterThan(40);
    expect(withEscapeAnalysis).toBeLessThan(without / 3);
  }, 120_000);

  it('runs `tpu-kernel run` without escape analysis too', () => {
    const notebook = join(mkdtempSync(join(tmpdir(), 'jit-flags-')), 'nb.ipynb');
    writeFileSync(notebook, JSON.stringify({
      nbformat: 4, nbformat_minor: 5, metadata: {},
      cells: [{ cell_type: 'code', id: 'c0', source: COUNT_COLLECTIONS, metadata: {}, execution_count: null, outputs: [] }],
    }));
    const run = spawnSync(process.execPath, [KERNEL_CLI, 'run', notebook], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(/^Out\[1\]: (\d+)$/m.exec(run.stdout)?.[1])).toBeGreaterThan(40);
  }, 120_000);
});
