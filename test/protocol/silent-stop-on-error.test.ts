// A silent execute_request that fails aborts nothing queued behind it, as in ipykernel
// (`if not silent and ... stop_on_error: _abort_queues()`): frontends and extensions send
// silent requests of their own (variable inspectors, status probes), and one that fails
// must not throw away the cells the user queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentOf, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
});
afterAll(async () => {
  await kernel?.close();
});

describe('silent requests and stop_on_error', () => {
  it('runs the requests queued behind a failed silent request', async () => {
    const probe = kernel.send('shell', 'execute_request', { code: "for (let i = 0; i < 3e7; i++); throw new Error('probe')", silent: true, stop_on_error: true });
    const userCell = kernel.send('shell', 'execute_request', { code: 'globalThis.ranUserCell = 6 * 7' });
    expect((await kernel.reply(probe)).content.status).toBe('error');
    const reply = (await kernel.reply(userCell)).content;
    expect(reply.status).toBe('ok');
    expect(contentOf(await kernel.outputs(userCell)).find(([type]) => type === 'execute_result')?.[1].data).toEqual({ 'text/plain': '42' });
  });
});
