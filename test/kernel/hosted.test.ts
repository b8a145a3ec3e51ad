import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// Hosted kernels: the heap follows JupyterHub's MEM_LIMIT (the launcher relaunches the
// kernel with --max-old-space-size at half of it), and kernel_info carries help links.
import { afterAll, describe, expect, it } from 'vitest';
import { heapLimitFlag } from '../../kernel/heap-limit.js';
import { lastText, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

const kernels: KernelClient[] = [];
afterAll(async () => {
  for (const k of kernels) await k.close();
});

const GiB = 2 ** 30;

describe('heap from MEM_LIMIT', () => {
  it('is half the limit in MiB, at least 256, and never overrides a heap size already chosen', () => {
    expect(heapLimitFlag({ MEM_LIMIT: String(4 * GiB) }, [])).toBe('--max-old-space-size=2048');
    expect(heapLimitFlag({ MEM_LIMIT: String(3 * 10 ** 9) }, [])).toBe(`--max-old-space-size=${Math.floor(1.5e9 / 2 ** 20)}`); // 1430
    expect(heapLimitFlag({ MEM_LIMIT: String(100 * 2 ** 20) }, [])).toBe('--max-old-space-size=256');
    expect(heapLimitFlag({}, [])).toBeUndefined();
    expect(heapLimitFlag({ MEM_LIMIT: '2G' }, [])).toBeUndefined();
    expect(heapLimitFlag({ MEM_LIMIT: String(GiB) }, ['--max-old-space-size=900'])).toBeUndefined();
    expect(heapLimitFlag({ MEM_LIMIT: String(GiB), NODE_OPTIONS: '--max-old-space-size=900' }, [])).toBeUndefined();
  });

  it('a kernel started with MEM_LIMIT runs with that heap, answers, interrupts and shuts down', async () => {
    const kernel = await spawnKernel({ env: { MEM_LIMIT: String(GiB) } });
    kernels.push(kernel);
    const limit = Number(lastText((await kernel.execute('(await import("node:v8")).getHeapStatistics().heap_size_limit')).outputs));
    // Old space 512 MiB plus V8's young generation (a few tens of MiB).
    expect(limit).toBeGreaterThanOrEqual(512 * 2 ** 20);
    expect(limit).toBeLessThan(600 * 2 ** 20);
    const loop = kernel.startExecute('while (true) {}');
    await new Promise((r) => setTimeout(r, 300));
    await kernel.request('control', 'interrupt_request', {});
    expect((await kernel.reply(loop)).content).toMatchObject({ status: 'error' });
    await kernel.request('control', 'shutdown_request', { restart: false });
    expect(await kernel.exited).toEqual({ code: 0, signal: null });
  });

  it('kernel_info lists help links: the kernel docs (files that exist) and the formats cells produce', async () => {
    const kernel = await spawnKernel();
    kernels.push(kernel);
    const { reply } = await kernel.request('shell', 'kernel_info_request', {});
    const links = reply.content.help_links as { text: string; url: string }[];
    expect(links.map((l) => l.text)).toEqual([
      'tpu-kernel: a tour and PyTorch -> tpu-kernel', 'tpu-kernel: cells, magics, profiling', 'tpu-kernel: runtime, training, TPU compiler',
      'TypeScript handbook', 'Vega-Lite (plot outputs)', 'Jupyter widgets (widgets)', 'Perfetto (open %profile trace files)',
    ]);
    for (const link of links.slice(0, 3)) {
      const url = new URL(link.url);
      expect(url.protocol).toBe('file:');
      expect(existsSync(fileURLToPath(url))).toBe(true);
    }
    expect(links[0]!.url).toMatch(/README\.md#a-tour-for-pytorch-users$/);
    for (const link of links.slice(3)) expect(link.url).toMatch(/^https:\/\//);
  });
});
