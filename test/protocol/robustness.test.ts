// Hostile input and a blocked main thread: bad signatures, unsigned,
// replayed, garbage and malformed messages are dropped (never run); heartbeat
// and control answer while a cell spins; interrupts via control and SIGINT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigner } from '../../dist/kernel/wire/signature.js';
import { contentOf, EXECUTE_DEFAULTS, isStatus, lastText, sleep, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
  await kernel.execute('globalThis.hits = 0; globalThis.kept = 41');
});
afterAll(async () => {
  await kernel?.close();
});

const bump = { ...EXECUTE_DEFAULTS, code: 'hits++' };

async function hits(): Promise<string> {
  return lastText((await kernel.execute('hits')).outputs);
}

describe('dropped messages', () => {
  it('drops wrongly signed, unsigned, replayed, garbage and non-JSON messages and keeps answering', async () => {
    const wrongKey = kernel.build('execute_request', bump, { signer: createSigner('hmac-sha256', 'not-the-key') });
    const unsigned = kernel.build('execute_request', bump);
    unsigned.frames[1] = Buffer.from('');
    const original = kernel.build('execute_request', bump);
    const badJson = [Buffer.from('<IDS|MSG>'), ...[0, 1, 2, 3].map(() => Buffer.from('{not json'))];
    badJson.splice(1, 0, Buffer.from(kernel.signer.sign(badJson.slice(1))));
    await kernel.sendFrames('shell', wrongKey.frames);
    await kernel.sendFrames('shell', unsigned.frames);
    await kernel.sendFrames('shell', original.frames);
    await kernel.sendFrames('shell', original.frames); // replay
    await kernel.sendFrames('shell', [Buffer.from('garbage'), Buffer.from([0xff, 0x00])]);
    await kernel.sendFrames('shell', badJson);
    await kernel.sendFrames('control', [Buffer.from('<IDS|MSG>')]);
    expect((await kernel.reply(original.message.header.msg_id)).content.status).toBe('ok');
    expect(await hits()).toBe('1'); // only the original ran
    expect(kernel.replies.has(wrongKey.message.header.msg_id)).toBe(false);
    expect(kernel.replies.has(unsigned.message.header.msg_id)).toBe(false);
    expect(kernel.stderr).toMatch(/bad signature/);
    expect(kernel.stderr).toMatch(/unsigned message/);
    expect(kernel.stderr).toMatch(/replayed message/);
    expect(kernel.stderr).toMatch(/no <IDS\|MSG> delimiter/);
    expect(kernel.stderr).toMatch(/not JSON/);
    expect((await kernel.request('control', 'kernel_info_request', {})).reply.content.status).toBe('ok');
  });
});

describe('a blocked main thread', () => {
  it('answers heartbeat and control kernel_info (with busy/idle) while a cell spins, then interrupt_request stops it', async () => {
    const spin = kernel.startExecute('while (true) {}');
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === spin));
    await sleep(100);
    expect(await kernel.ping()).toBeLessThan(1000);
    const info = await kernel.request('control', 'kernel_info_request', {}, 2000);
    expect(info.reply.content.implementation).toBe('tpu-kernel');
    expect(contentOf(info.outputs)).toEqual([]);
    expect(info.outputs.map((m) => m.content.execution_state)).toEqual(['busy', 'idle']);
    expect(kernel.iopub.some((m) => isStatus(m, spin, 'idle'))).toBe(false); // still running
    const interrupt = await kernel.request('control', 'interrupt_request', {}, 2000);
    expect(interrupt.reply.content.status).toBe('ok');
    const reply = await kernel.reply(spin, 2000);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(contentOf(await kernel.execute('kept + 1').then((r) => r.outputs)).at(-1)![1].data).toEqual({ 'text/plain': '42' });
  });

  it('stops a synchronous loop on SIGINT with state kept', async () => {
    const spin = kernel.startExecute('globalThis.kept = 50; while (true) {}');
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === spin));
    await sleep(100);
    kernel.child.kill('SIGINT');
    const reply = await kernel.reply(spin, 2000);
    expect(reply.content.evalue).toMatch(/interrupt/i);
    expect(contentOf((await kernel.execute('kept')).outputs).at(-1)![1].data).toEqual({ 'text/plain': '50' });
  });

  it.each(['interrupt_request', 'SIGINT'])('stops a never-settling await via %s', async (how) => {
    const wait = kernel.startExecute('globalThis.kept = 60; await new Promise(() => {})');
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === wait));
    await sleep(100);
    if (how === 'SIGINT') kernel.child.kill('SIGINT');
    else await kernel.request('control', 'interrupt_request', {}, 2000);
    const reply = await kernel.reply(wait, 2000);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    const errors = (await kernel.outputs(wait)).filter((m) => m.header.msg_type === 'error');
    expect(errors).toHaveLength(1);
    expect(contentOf((await kernel.execute('kept')).outputs).at(-1)![1].data).toEqual({ 'text/plain': '60' });
    expect(kernel.child.exitCode).toBe(null);
  });

  it('interrupts a cell waiting for input() and accepts the next input reply normally', async () => {
    const asked = kernel.startExecute("await input('never answered: ')", { allow_stdin: true });
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'execute_input' && m.parent_header.msg_id === asked));
    await sleep(100);
    await kernel.request('control', 'interrupt_request', {}, 2000);
    const reply = await kernel.reply(asked, 2000);
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/interrupt/i);
    kernel.inputHandler = () => 'second';
    const { outputs } = await kernel.execute("console.log(await input('again: '))", { allow_stdin: true });
    kernel.inputHandler = undefined;
    expect(contentOf(outputs)).toContainEqual(['stream', { name: 'stdout', text: 'second\n' }]);
  });
});
