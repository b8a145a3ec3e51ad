// TypeScript cells through a spawned kernel over ZeroMQ: what a frontend sees
// of the session (complete/inspect/is_complete replies, display ids and
// updates, input over stdin, mapped tracebacks, magics, unhandled rejections).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentOf, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
  await kernel.execute('interface Config { rate: number; name: string }\n/** The config. */\nconst config: Config = { rate: 0.5, name: "cfg" };');
});
afterAll(async () => {
  await kernel?.close();
});

describe('TypeScript cells through the kernel', () => {
  it('answers complete_request from earlier cells, in code points', async () => {
    const code = 'const s = "é😀";\nconfig.ra';
    const { reply } = await kernel.request('shell', 'complete_request', { code, cursor_pos: [...code].length });
    expect(reply.content).toMatchObject({ status: 'ok', matches: ['rate'], cursor_start: [...code].length - 2, cursor_end: [...code].length });
  });

  it('answers inspect_request with signature and doc comment', async () => {
    const { reply } = await kernel.request('shell', 'inspect_request', { code: 'config', cursor_pos: 3, detail_level: 0 });
    expect(reply.content.status).toBe('ok');
    expect(reply.content.found).toBe(true);
    expect(reply.content.data['text/plain']).toBe('const config: Config\n\nThe config.');
  });

  it('answers is_complete_request', async () => {
    const incomplete = await kernel.request('shell', 'is_complete_request', { code: 'for (const x of [1]) {' });
    expect(incomplete.reply.content).toEqual({ status: 'incomplete', indent: '  ' });
    const invalid = await kernel.request('shell', 'is_complete_request', { code: 'const = 1' });
    expect(invalid.reply.content).toEqual({ status: 'invalid' });
  });

  it('sends display_data with a display_id and update_display_data for it', async () => {
    const { outputs } = await kernel.execute('const h = display.text("v1");\nawait h.update("v2");');
    const [[, shown], [updateType, updated]] = contentOf(outputs).filter(([t]) => t !== 'execute_input');
    expect(shown.data).toEqual({ 'text/plain': 'v1' });
    expect(updateType).toBe('update_display_data');
    expect(updated.data).toEqual({ 'text/plain': 'v2' });
    expect(updated.transient.display_id).toBe(shown.transient.display_id);
  });

  it('reads input over stdin when allowed', async () => {
    kernel.inputHandler = (content: { prompt: string; password: boolean }) => (content.password ? 'hunter2' : `typed:${content.prompt}`);
    try {
      const { reply, outputs } = await kernel.execute('const a = await input("who? ");\nconst b = await input("pw", { password: true });\n[a, b.length]', { allow_stdin: true });
      expect(reply.content.status).toBe('ok');
      expect(contentOf(outputs).at(-1)![1].data).toEqual({ 'text/plain': "[ 'typed:who? ', 7 ]" });
    } finally {
      kernel.inputHandler = undefined;
    }
  });

  it('runs magics and keeps running after an unhandled rejection', async () => {
    const rejected = await kernel.execute('Promise.reject(new Error("nobody awaits me"));\nawait new Promise((r) => setTimeout(r, 20));');
    expect(rejected.reply.content.status).toBe('ok');
    const stderr = contentOf(rejected.outputs).filter(([t, c]) => t === 'stream' && c.name === 'stderr').map(([, c]) => c.text).join('');
    expect(stderr).toMatch(/^Error: nobody awaits me\n/);
    const { outputs } = await kernel.execute('%time 6 * 7');
    const kinds = contentOf(outputs).filter(([t]) => t !== 'execute_input');
    expect(kinds[0][1].text).toMatch(/^Wall time: /);
    expect(kinds[1]).toEqual(['execute_result', expect.objectContaining({ data: { 'text/plain': '42' } })]);
  });

  // Last: after an error, K1's stop_on_error may abort a request sent right after the reply.
  it('publishes errors with frames in cell coordinates', async () => {
    const { reply, outputs } = await kernel.execute('\nconst n: number = (config as any).missing.x;');
    const count = reply.content.execution_count;
    expect(reply.content).toMatchObject({ status: 'error', ename: 'TypeError' });
    const [error] = contentOf(outputs).filter(([t]) => t === 'error');
    expect(error[1].traceback).toContain(`    at cell-${count}.ts:2:43`);
  });
});
