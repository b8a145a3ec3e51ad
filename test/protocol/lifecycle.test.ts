// Kernel lifetime over real ZeroMQ: transports, shutdown with and without
// restart (also while a cell blocks the main thread), history across restarts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as zmq from 'zeromq';
import { contentOf, KERNEL_CLI, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'tpu-kernel-history-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function shutdown(kernel: KernelClient, restart: boolean) {
  const { reply, outputs } = await kernel.request('control', 'shutdown_request', { restart }, 5000);
  const exit = await kernel.exited;
  return { reply, outputs, exit };
}

describe('transports', () => {
  it.each([
    { transport: 'ipc' },
    { transport: 'tcp', ip: '127.0.0.2' },
    { transport: 'tcp', key: '' }, // signing off
  ])('runs a cell over %o', async (options) => {
    const kernel = await spawnKernel(options);
    try {
      const { reply, outputs } = await kernel.execute("console.log('over ' + 'the wire')");
      expect(reply.content.status).toBe('ok');
      expect(contentOf(outputs)).toContainEqual(['stream', { name: 'stdout', text: 'over the wire\n' }]);
      expect(await kernel.ping()).toBeLessThan(1000);
    } finally {
      await kernel.close();
    }
  });
});

describe('shutdown and history across restarts', () => {
  it('keeps history across a restart and exits on shutdown with and without restart', async () => {
    const first = await spawnKernel({ env: { JUPYTER_DATA_DIR: dataDir } });
    try {
      await first.execute('const a = 1');
      await first.execute('a + 1');
      const { reply, outputs, exit } = await shutdown(first, true);
      expect(reply.content).toEqual({ status: 'ok', restart: true });
      expect(outputs.map((m) => m.content.execution_state)).toEqual(['busy', 'idle']);
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      await first.close();
    }
    const second = await spawnKernel({ env: { JUPYTER_DATA_DIR: dataDir } });
    try {
      await second.execute('"second session"');
      const tail = (await second.request('shell', 'history_request', { hist_access_type: 'tail', n: 3, output: false, raw: true })).reply.content;
      expect(tail.history).toEqual([
        [1, 1, 'const a = 1'],
        [1, 2, 'a + 1'],
        [2, 1, '"second session"'],
      ]);
      const previous = (await second.request('shell', 'history_request', { hist_access_type: 'range', session: -1, start: 1, output: false, raw: true })).reply.content;
      expect(previous.history).toEqual([
        [1, 1, 'const a = 1'],
        [1, 2, 'a + 1'],
      ]);
      const unique = (await second.request('shell', 'history_request', { hist_access_type: 'search', pattern: 'a*', unique: true, output: false, raw: true })).reply.content;
      expect(unique.history).toEqual([[1, 2, 'a + 1']]);
      const { reply, exit } = await shutdown(second, false);
      expect(reply.content).toEqual({ status: 'ok', restart: false });
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      await second.close();
    }
  });

  it('shuts down cleanly while a cell blocks the main thread (the shutdown stops the cell first)', async () => {
    const kernel = await spawnKernel();
    try {
      kernel.startExecute('while (true) {}');
      await new Promise((r) => setTimeout(r, 200));
      const { reply, exit } = await shutdown(kernel, false);
      expect(reply.content).toEqual({ status: 'ok', restart: false });
      expect(exit).toMatchObject({ code: 0 });
    } finally {
      await kernel.close();
    }
  });
});

describe('exit with a client that stopped reading', () => {
  // ZeroMQ terminates its context when the process ends, after every closed socket has
  // delivered what it holds or its linger ran out (kernel/wire/linger.ts): with the default
  // linger (forever) the kernel hung at exit ("Waiting for queued ZeroMQ messages"), and no
  // exit fallback helps there, as process.exit() ends in the same wait.
  it('exits 0 after shutdown while an iopub subscriber that reads nothing still has outputs queued', async () => {
    const kernel = await spawnKernel();
    const { connection } = kernel;
    const stalled = new zmq.Subscriber({ linger: 0, receiveHighWaterMark: 1 });
    try {
      stalled.subscribe();
      stalled.connect(`tcp://${connection.ip}:${connection.iopub_port}`);
      // Outputs far beyond what the socket buffers hold: most stay queued for the stalled subscriber.
      const cell = "const line = 'x'.repeat(100000); for (let i = 0; i < 150; i++) console.log(line)";
      const { reply } = await kernel.execute(cell, {}, 50_000);
      expect(reply.content.status).toBe('ok');
      const { exit } = await shutdown(kernel, false);
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      stalled.close();
      await kernel.close();
    }
  });
});

describe('shutdown of a cell that no SIGINT reaches', () => {
  it.each([
    ['a loop in an async function after its own await', 'await (async () => { await null; while (true) {} })()'],
    ['a loop in a timer callback while the cell awaits', 'setTimeout(() => { while (true) {} }, 0); await new Promise(() => {})'],
  ])('stops %s by the interrupt path and exits 0', async (_, code) => {
    const kernel = await spawnKernel();
    try {
      await kernel.execute('1'); // TypeScript is loaded: the loop cell starts at once
      const cell = kernel.startExecute(code);
      await new Promise((r) => setTimeout(r, 500));
      const started = performance.now();
      const { reply, exit } = await shutdown(kernel, false);
      expect(reply.content).toEqual({ status: 'ok', restart: false });
      expect(exit).toEqual({ code: 0, signal: null });
      expect(performance.now() - started).toBeLessThan(3500);
      // The cell was answered (interrupted) before the kernel closed its sockets.
      expect((await kernel.reply(cell, 100)).content).toMatchObject({ status: 'error', ename: 'InterruptedError', execution_count: 2 });
      expect(kernel.stderr).not.toMatch(/send failed/);
    } finally {
      await kernel.close();
    }
  });
});

describe('node flags', () => {
  it('runs device ops in a kernel started with a V8 flag (node --expose-gc)', async () => {
    const kernel = await spawnKernel({ argv: (file: string) => [process.execPath, '--expose-gc', KERNEL_CLI, '--connection-file', file] });
    try {
      const { reply, outputs } = await kernel.execute('const t = tpu.tensor([1, 2, 3]); gc(); `${await t.add(t).array()} ${typeof gc}`');
      expect(reply.content.status).toBe('ok');
      expect(contentOf(outputs)).toContainEqual(['execute_result', { execution_count: 1, data: { 'text/plain': "'2,4,6 function'" }, metadata: {} }]);
    } finally {
      await kernel.close();
    }
  });
});

describe('an orphaned kernel', () => {
  it('exits when the process that launched it dies', async () => {
    const kernel = await spawnKernel({ argv: (file: string) => ['/bin/sh', '-c', `echo $$; exec "${process.execPath}" -e "require('child_process').spawn(process.execPath, ['${KERNEL_CLI}', '--connection-file', '${file}'], { stdio: 'inherit' }); setInterval(() => {}, 1000)"`] });
    try {
      const launcherPid = Number(kernel.stdout.split('\n')[0]);
      expect(await kernel.ping()).toBeLessThan(1000);
      process.kill(launcherPid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 2500));
      await expect(kernel.ping()).rejects.toThrow();
    } finally {
      await kernel.close();
    }
  });
});
