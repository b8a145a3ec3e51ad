// %profile live through the real kernel over ZeroMQ: while a cell runs (awaiting device
// work and timers), update_display_data messages for the one profile display arrive
// before the cell's reply; the last update is the final profile. Also the default from
// TPU_KERNEL_PROFILE in the kernel's environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

const MIME = 'application/vnd.tpu-kernel.profile+json';
type Message = { header: { msg_type: string; date: string }; parent_header: { msg_id: string }; content: Record<string, any> };

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel({ env: { TPU_KERNEL_PROFILE: 'live' } });
});
afterAll(async () => {
  await kernel?.close();
});

describe('live profile over the wire', () => {
  it('updates one display in place while the cell runs, then finalizes it', async () => {
    const code = [
      'const x = tpu.ones([256, 256]);',
      'for (let i = 0; i < 6; i++) {',
      '  await x.matmul(x).add(i).data();',
      '  await new Promise((r) => setTimeout(r, 150));',
      '}',
    ].join('\n');
    const msgId = kernel.send('shell', 'execute_request', { code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false, stop_on_error: true });
    const reply = await kernel.reply(msgId, 20_000);
    expect(reply.content.status).toBe('ok');
    const outputs = await kernel.outputs(msgId, 20_000);
    const profile = outputs.filter((m: Message) => ['display_data', 'update_display_data'].includes(m.header.msg_type) && MIME in m.content.data);
    // Two live updates were sent while the cell still ran: the kernel stamped them before its
    // reply (the kernel's own clock, so a slow test machine polling late cannot blur it).
    const replySent = Date.parse(reply.header.date);
    const liveUpdates = profile.filter((m: Message) => m.header.msg_type === 'update_display_data' && m.content.data[MIME].state === 'running');
    expect(liveUpdates.filter((m: Message) => Date.parse(m.header.date) < replySent).length).toBeGreaterThanOrEqual(2);
    expect(profile[0].header.msg_type).toBe('display_data');
    const id = profile[0].content.transient.display_id;
    expect(typeof id).toBe('string');
    expect(profile.slice(1).every((m: Message) => m.header.msg_type === 'update_display_data' && m.content.transient.display_id === id)).toBe(true);
    const states = profile.map((m: Message) => m.content.data[MIME].state);
    expect(states.at(-1)).toBe('final');
    expect(states.filter((s: string) => s === 'running').length).toBeGreaterThanOrEqual(2);
    const final = profile.at(-1).content.data[MIME];
    expect(final).toMatchObject({ ops: 12, programsRun: 12 }); // matmul + add, 6 times
    expect(final.transfers.toHost).toEqual({ count: 6, bytes: 6 * 256 * 256 * 4 });
    expect(profile.at(-1).content.data['text/plain']).toMatch(/^TPU profile · cell \d+ · strict mode · final\n/);
  });
});
