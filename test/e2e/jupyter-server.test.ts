// The kernel as JupyterLab uses it: Debian's Jupyter Server launches it from
// its kernelspec, and @jupyterlab/services drives it over the server's
// WebSocket (start, execute, complete, inspect, interrupt, restart, shutdown).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KernelManager, SessionManager, type Kernel } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, only } from '../support/services-execute.js';
import { installKernelspec, KERNEL_NAME } from '../support/kernelspec.js';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';

describe('tpu-ts through Jupyter Server and @jupyterlab/services', () => {
  let server: JupyterServer | undefined;
  let manager: KernelManager;
  let kernel: Kernel.IKernelConnection;
  printLogOnFailure('jupyter server', () => server?.logPath);

  beforeAll(async () => {
    const spec = installKernelspec();
    server = await startJupyterServer({
      jupyterPath: [spec.jupyterPath],
      rootDir: mkdtempSync(join(tmpdir(), 'jupyter-root-')),
      logPath: resolve('test/output/e2e/jupyter-server.log'),
    });
    manager = new KernelManager({ serverSettings: server.settings });
    kernel = await manager.startNew({ name: KERNEL_NAME });
  }, 60_000);

  afterAll(async () => {
    manager?.dispose();
    await server?.stop();
  });

  it('answers kernel_info as the tpu-ts kernel', async () => {
    const info = await kernel.info;
    expect(kernel.name).toBe(KERNEL_NAME);
    expect(info.implementation).toBe('tpu-kernel');
    expect(info.language_info.name).toBe('typescript');
    expect(Number(info.protocol_version.split('.')[1])).toBeGreaterThanOrEqual(3);
  });

  it('streams stdout and stderr in order, shows displays and the execute_result', async () => {
    const run = await execute(kernel, [
      "console.log('hello', 1 + 1);",
      "console.error('careful');",
      "display.html('<b>bold</b>');",
      '6 * 7',
    ].join('\n'));
    expect(run.reply.status).toBe('ok');
    expect(run.stdout).toBe('hello 2\n');
    expect(run.stderr).toBe('careful\n');
    expect(only(run, 'display_data').data['text/html']).toBe('<b>bold</b>');
    const result = only(run, 'execute_result');
    expect(result.data['text/plain']).toBe('42');
    expect(result.execution_count).toBe(run.reply.execution_count);
    expect(run.states).toEqual(['busy', 'idle']);
  });

  it('keeps tensors across cells and renders them as HTML', async () => {
    expect((await execute(kernel, 'const m = tpu.tensor([[1, 2], [3, 4]]);')).reply.status).toBe('ok');
    const run = await execute(kernel, 'm.matmul(m)');
    const data = only(run, 'execute_result').data;
    // [[1,2],[3,4]] @ itself = [[7,10],[15,22]]
    expect(data['text/html']).toMatch(/<table/);
    for (const value of ['7', '10', '15', '22']) expect(data['text/html']).toContain(`>${value}`);
    expect(data['text/plain']).toMatch(/7.*10[\s\S]*15.*22/);
  });

  it('updates a display in place through its display id', async () => {
    const run = await execute(kernel, [
      "const handle = display.text('step 0');",
      "handle.update('step 1');",
    ].join('\n'));
    expect(run.reply.status).toBe('ok');
    const shown = only(run, 'display_data');
    const updated = only(run, 'update_display_data');
    expect(shown.data['text/plain']).toBe('step 0');
    expect(typeof shown.transient.display_id).toBe('string');
    expect(updated.transient.display_id).toBe(shown.transient.display_id);
    expect(updated.data['text/plain']).toBe('step 1');
  });

  it('shows a live profile: one display updated in place while the cell runs, then final', async () => {
    expect((await execute(kernel, '%profile live')).stdout).toBe('profile: live\n');
    const run = await execute(kernel, [
      "tpu.mode('strict');",
      'let acc = tpu.zeros([64, 64]);',
      'for (let i = 0; i < 8; i++) {',
      '  acc = acc.add(1);',
      '  await acc.data();',
      '  await new Promise((r) => setTimeout(r, 150));',
      '}',
      'console.log(await acc.sum().item());',
    ].join('\n'));
    expect((await execute(kernel, '%profile off')).stdout).toBe('profile: off\n');
    expect(run.reply.status).toBe('ok');
    expect(run.stdout).toBe(`${8 * 64 * 64}\n`);
    const shown = only(run, 'display_data');
    const updates = run.outputs.filter((o) => o.type === 'update_display_data').map((o) => o.content);
    // ~1.2 s of cell at one update per 250 ms, then the final one
    expect(updates.length).toBeGreaterThanOrEqual(3);
    for (const update of updates) expect(update.transient.display_id).toBe(shown.transient.display_id);
    const figures = [shown, ...updates].map((o) => o.data['application/vnd.tpu-kernel.profile+json']);
    expect(figures.map((f) => f.state)).toEqual([...Array(figures.length - 1).fill('running'), 'final']);
    const walls = figures.map((f) => f.wallMs);
    expect(walls).toEqual([...walls].sort((a, b) => a - b));
    const final = figures.at(-1);
    expect(final.mode).toBe('strict');
    expect(final.ops).toBeGreaterThanOrEqual(9); // 8 adds and a sum, at least
    expect(updates.at(-1).data['text/plain']).toContain('final');
    expect(updates.at(-1).data['text/html']).toContain('strict');
  });

  it('reports an error with its name, message and traceback, and goes on', async () => {
    const run = await execute(kernel, "throw new RangeError('bad size 3')");
    expect(run.reply.status).toBe('error');
    const error = only(run, 'error');
    expect(error.ename).toBe('RangeError');
    expect(error.evalue).toBe('bad size 3');
    expect(error.traceback.join('\n')).toContain('bad size 3');
    expect((await execute(kernel, 'm.shape')).reply.status).toBe('ok');
  });

  it('completes and inspects from the tensor API', async () => {
    const completion = await kernel.requestComplete({ code: 'tpu.ran', cursor_pos: 7 });
    expect(completion.content.status).toBe('ok');
    const matches = (completion.content as { matches: string[] }).matches;
    expect(matches).toEqual(expect.arrayContaining(['rand', 'randn']));
    const inspection = await kernel.requestInspect({ code: 'tpu.randn', cursor_pos: 9, detail_level: 0 });
    const content = inspection.content as { status: string; found: boolean; data: Record<string, string> };
    expect(content.status).toBe('ok');
    expect(content.found).toBe(true);
    expect(content.data['text/plain']).toContain('randn');
  });

  it('interrupts a busy loop and an awaited timer, keeping every definition', async () => {
    await execute(kernel, 'let survivor = 41;');
    for (const code of ['while (true) {}', 'await new Promise((r) => setTimeout(r, 60_000));']) {
      const started = Date.now();
      const run = await execute(kernel, code, { onBusy: () => setTimeout(() => void kernel.interrupt(), 300) });
      expect(run.reply.status).toBe('error');
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    expect(only(await execute(kernel, 'survivor + 1'), 'execute_result').data['text/plain']).toBe('42');
  });

  it('stops a cell interrupted right after it started, before its code runs', async () => {
    // JupyterLab users press the stop button right after running a cell: the interrupt can
    // arrive while the kernel is still compiling it. It must stop the cell all the same.
    const lost: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const run = execute(kernel, 'while (true) {}', { onBusy: () => setTimeout(() => void kernel.interrupt(), attempt % 10) });
      const outcome = await Promise.race([run, new Promise<'lost'>((r) => setTimeout(() => r('lost'), 3_000))]);
      if (outcome !== 'lost') {
        expect(outcome.reply.status).toBe('error');
        continue;
      }
      lost.push(attempt);
      // Interrupt again until the loop stops, to free the kernel for the next attempt.
      const again = setInterval(() => void kernel.interrupt(), 500);
      await run.finally(() => clearInterval(again));
    }
    expect(lost, 'attempts whose interrupt was lost').toEqual([]);
  }, 120_000);

  it('serves a notebook session as JupyterLab opens one (SessionManager)', async () => {
    const sessions = new SessionManager({ kernelManager: manager, serverSettings: server!.settings });
    const session = await sessions.startNew({ path: 'analysis.ipynb', name: 'analysis.ipynb', type: 'notebook', kernel: { name: KERNEL_NAME } });
    try {
      expect(session.kernel!.name).toBe(KERNEL_NAME);
      const run = await execute(session.kernel!, 'await tpu.ones([3, 4]).sum().item()');
      expect(only(run, 'execute_result').data['text/plain']).toBe('12');
      const listed = await (await fetch(`${server!.baseUrl}api/sessions`, { headers: { Authorization: `token ${server!.token}` } })).json();
      expect(listed.map((s: { path: string }) => s.path)).toContain('analysis.ipynb');
    } finally {
      await session.shutdown();
      sessions.dispose();
    }
  });

  it('restarts: the state is gone and the kernel answers', async () => {
    await execute(kernel, 'const beforeRestart = 1;');
    await kernel.restart();
    const run = await execute(kernel, 'typeof beforeRestart');
    expect(run.reply.status).toBe('ok');
    expect(run.reply.execution_count).toBe(1);
    expect(only(run, 'execute_result').data['text/plain']).toBe("'undefined'");
    expect(only(await execute(kernel, 'tpu.tensor([1, 2, 3]).shape'), 'execute_result').data['text/plain']).toBe('[ 3 ]');
  });

  it('shuts down, and the server lists no kernel', async () => {
    await kernel.shutdown();
    expect(kernel.status).toBe('dead');
    const res = await fetch(`${server!.baseUrl}api/kernels`, { headers: { Authorization: `token ${server!.token}` } });
    expect(await res.json()).toEqual([]);
  });
});
