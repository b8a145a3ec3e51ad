// Soak: 2,000 execute requests of mixed cells (tensor work in every mode,
// displays, errors, interrupts) through the real Jupyter Server. The kernel
// stays up, no reply is lost, every busy has its idle, and its memory stays
// bounded (RSS printed at start and end).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KernelManager, type Kernel } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKernelspec, KERNEL_NAME } from '../support/kernelspec.js';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';
import { execute, type ExecuteRecord } from '../support/services-execute.js';

const REQUESTS = 2000;
const ROUND = 25; // 24 cells sent together, then one interrupted cell alone
const REPLY_TIMEOUT_MS = 30_000;
/**
 * Allowed RSS growth over the second half of the run. The first few hundred cells grow the
 * heap while the language service warms up (measured: ~190 MiB after the first round,
 * ~550 MiB after 600 trivial cells, then flat); a leak keeps growing after that.
 */
const RSS_GROWTH_LIMIT = 128 * 2 ** 20;

interface SoakCell {
  code: string;
  check(run: ExecuteRecord): string | undefined;
}

const sumTo = (n: number) => (n * (n - 1)) / 2;

/** The i-th cell of the mix, with what its run must show. */
function soakCell(i: number): SoakCell {
  const n = 1 + (i % 50);
  const stdoutIs = (expected: string) => (run: ExecuteRecord) =>
    run.reply.status === 'ok' && run.stdout === expected ? undefined : `expected ok with stdout ${JSON.stringify(expected)}, got ${run.reply.status} ${JSON.stringify(run.stdout)}`;
  switch (i % 6) {
    case 0:
      return { code: `tpu.mode('debug'); console.log(await tpu.arange(${n}).sum().item());`, check: stdoutIs(`${sumTo(n)}\n`) };
    case 1:
      return { code: `tpu.mode('strict'); console.log(await tpu.ones([4, ${n}]).mul(2).sum().item());`, check: stdoutIs(`${8 * n}\n`) };
    case 2: // sum of k*(k+1) for k < n is (n-1)n(n+1)/3
      return { code: `tpu.mode('fused'); const k${i} = tpu.arange(${n}); console.log(await k${i}.add(1).mul(k${i}).sum().item());`, check: stdoutIs(`${((n - 1) * n * (n + 1)) / 3}\n`) };
    case 3:
      return {
        code: `display.html('<i>${i}</i>')`,
        check: (run) => (run.reply.status === 'ok' && run.outputs.some((o) => o.type === 'display_data' && o.content.data['text/html'] === `<i>${i}</i>`) ? undefined : `display missing: ${JSON.stringify(run.outputs)}`),
      };
    case 4:
      return {
        code: `throw new Error('soak ${i}')`,
        check: (run) => (run.reply.status === 'error' && run.outputs.some((o) => o.type === 'error' && o.content.evalue === `soak ${i}`) ? undefined : `expected error 'soak ${i}', got ${run.reply.status}`),
      };
    default:
      return { code: `console.log('line ${i}')`, check: stdoutIs(`line ${i}\n`) };
  }
}

function kernelRssBytes(kernelId: string): number {
  const processes = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const line = processes.find((p) => p.includes(`kernel-${kernelId}.json`) && !p.includes('ps -eo'));
  if (!line) throw new Error(`no process for kernel ${kernelId}`);
  const status = readFileSync(`/proc/${parseInt(line, 10)}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * A full garbage collection in the kernel (and the finalizers it schedules) before RSS is
 * read: how much garbage V8 happens to hold at that instant depends on timing and load,
 * and would otherwise decide whether the growth bound is met.
 */
const COLLECT_GARBAGE = [
  "(await import('node:v8')).setFlagsFromString('--expose-gc');",
  "const collect = (await import('node:vm')).runInNewContext('gc');",
  'collect(); await new Promise((r) => setTimeout(r, 50)); collect();',
].join('\n');

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`lost: ${what}`)), REPLY_TIMEOUT_MS)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('soak through Jupyter Server', () => {
  let server: JupyterServer | undefined;
  let manager: KernelManager;
  let kernel: Kernel.IKernelConnection;
  const statuses: string[] = [];
  printLogOnFailure('jupyter server', () => server?.logPath);

  beforeAll(async () => {
    const spec = installKernelspec();
    server = await startJupyterServer({ jupyterPath: [spec.jupyterPath], rootDir: mkdtempSync(join(tmpdir(), 'soak-root-')), logPath: resolve('test/output/e2e/soak-server.log') });
    manager = new KernelManager({ serverSettings: server.settings });
    kernel = await manager.startNew({ name: KERNEL_NAME });
    kernel.statusChanged.connect((_, status) => statuses.push(status));
  }, 60_000);

  afterAll(async () => {
    await kernel?.shutdown().catch(() => undefined);
    manager?.dispose();
    await server?.stop();
  });

  async function settledKernelRss(): Promise<number> {
    const run = await withTimeout(execute(kernel, COLLECT_GARBAGE), 'garbage collection');
    if (run.reply.status !== 'ok') throw new Error(`the garbage collection cell failed: ${JSON.stringify(run.outputs)}`);
    return kernelRssBytes(kernel.id);
  }

  it(`answers ${REQUESTS} mixed requests without losing one`, async () => {
    const problems: string[] = [];
    let rssStart = 0;
    let rssMiddle = 0;
    const started = Date.now();
    for (let round = 0; round < REQUESTS / ROUND; round++) {
      const base = round * ROUND;
      const cells = Array.from({ length: ROUND - 1 }, (_, j) => ({ index: base + j, cell: soakCell(base + j) }));
      const runs = await Promise.allSettled(cells.map(({ index, cell }) => withTimeout(execute(kernel, cell.code), `request ${index}`)));
      runs.forEach((run, j) => {
        const { index, cell } = cells[j];
        if (run.status === 'rejected') return problems.push(`request ${index}: ${run.reason}`);
        if (JSON.stringify(run.value.states) !== '["busy","idle"]') problems.push(`request ${index}: states ${run.value.states}`);
        const problem = cell.check(run.value);
        if (problem) problems.push(`request ${index}: ${problem}`);
      });
      // Interrupted once it surely runs (an interrupt that arrives before the loop starts is
      // jupyter-server.test.ts's case).
      const interrupted = await withTimeout(execute(kernel, "console.log('spinning'); while (true) {}", { onStdout: () => void kernel.interrupt() }), `interrupt ${base + ROUND - 1}`)
        .catch((e: Error) => e);
      if (interrupted instanceof Error) problems.push(interrupted.message);
      else if (interrupted.reply.status !== 'error' || JSON.stringify(interrupted.states) !== '["busy","idle"]') {
        problems.push(`interrupt ${base + ROUND - 1}: ${interrupted.reply.status} ${interrupted.states}`);
      }
      if (round === 0) rssStart = await settledKernelRss();
      if (round === REQUESTS / ROUND / 2 - 1) rssMiddle = await settledKernelRss();
      if (problems.length > 20) break;
    }
    const rssEnd = await settledKernelRss();
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(`soak: ${REQUESTS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; kernel RSS ${mib(rssStart)} MiB after the first round, ${mib(rssMiddle)} MiB half way, ${mib(rssEnd)} MiB at the end`);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(statuses.filter((s) => ['restarting', 'autorestarting', 'dead'].includes(s))).toEqual([]);
    expect(rssEnd - rssMiddle).toBeLessThan(RSS_GROWTH_LIMIT);
    const last = await execute(kernel, 'console.log(tpu.mode())');
    expect(last.stdout).toBe('debug\n'); // the last cell of the mix (1998 % 6 = 0) set debug
  }, 180_000);
});
