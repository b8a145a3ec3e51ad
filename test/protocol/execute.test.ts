// A spawned kernel over real ZeroMQ: kernel_info, execute outputs and errors,
// busy/idle, stop_on_error, user_expressions, history, comms, stdin, unknown requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zmq from 'zeromq';
import { decodeMessage } from '../../kernel/wire/message.js';
import { createSigner, ReplayGuard } from '../../kernel/wire/signature.js';
import { contentOf, isStatus, spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
});
afterAll(async () => {
  await kernel?.close();
});

/** busy first, idle last, each exactly once. */
function expectBusyIdle(outputs: { header: { msg_type: string }; content: Record<string, unknown> }[], msgId: string) {
  const statuses = outputs.filter((m) => m.header.msg_type === 'status').map((m) => m.content.execution_state);
  expect(statuses).toEqual(['busy', 'idle']);
  expect(outputs[0]).toSatisfy((m: never) => isStatus(m, msgId, 'busy'));
  expect(outputs.at(-1)).toSatisfy((m: never) => isStatus(m, msgId, 'idle'));
}

describe('kernel over ZeroMQ', () => {
  it('answers kernel_info with protocol 5.3+ and the session language', async () => {
    const { msgId, reply, outputs } = await kernel.request('shell', 'kernel_info_request', {});
    expect(reply.header.msg_type).toBe('kernel_info_reply');
    const c = reply.content;
    expect(c.status).toBe('ok');
    const [major, minor] = String(c.protocol_version).split('.').map(Number);
    expect(major * 100 + minor).toBeGreaterThanOrEqual(503);
    expect(c.implementation).toBe('tpu-kernel');
    expect(c.language_info.name).toBe('typescript');
    expect(c.language_info.file_extension).toBe('.ts');
    expect(typeof c.banner).toBe('string');
    expect(Array.isArray(c.help_links)).toBe(true);
    expectBusyIdle(outputs, msgId);
  });

  it('welcomes each iopub subscription (JEP 65): iopub_welcome on its topic, naming it, with no parent', async () => {
    expect(kernel.kernelInfo.content.supported_features).toContain('iopub_welcome');
    const welcome = kernel.iopub.find((m) => m.header.msg_type === 'iopub_welcome');
    expect(welcome).toMatchObject({ parent_header: {}, content: { subscription: '' } });
    // A second subscriber, to one topic: its own welcome, on that topic, before anything else it gets.
    const { connection } = kernel;
    const subscriber = new zmq.Subscriber({ linger: 0, receiveTimeout: 5000 });
    try {
      subscriber.subscribe('kernel.');
      subscriber.connect(`tcp://${connection.ip}:${connection.iopub_port}`);
      const frames = await subscriber.receive();
      expect(frames[0]!.toString()).toBe('kernel.');
      const message = decodeMessage(frames, createSigner(connection.signature_scheme, connection.key), new ReplayGuard());
      expect(message.header.msg_type).toBe('iopub_welcome');
      expect(message.content).toEqual({ subscription: 'kernel.' });
      expect(message.parent_header).toEqual({});
    } finally {
      subscriber.close();
    }
    // The first client (subscribed to everything) sees that welcome too, and goes on unharmed.
    await kernel.waitFor(() => kernel.iopub.some((m) => m.header.msg_type === 'iopub_welcome' && m.content.subscription === 'kernel.'));
    expect((await kernel.execute('1 + 1')).reply.content.status).toBe('ok');
  });

  it('publishes execute_input, stdout in order and execute_result', async () => {
    const { msgId, reply, outputs } = await kernel.execute("console.log('hello, world'); console.error('oops'); console.log('second'); 40 + 2");
    expect(reply.content.status).toBe('ok');
    const n = reply.content.execution_count;
    expect(contentOf(outputs)).toEqual([
      ['execute_input', { code: "console.log('hello, world'); console.error('oops'); console.log('second'); 40 + 2", execution_count: n }],
      ['stream', { name: 'stdout', text: 'hello, world\n' }],
      ['stream', { name: 'stderr', text: 'oops\n' }],
      ['stream', { name: 'stdout', text: 'second\n' }],
      ['execute_result', { execution_count: n, data: { 'text/plain': '42' }, metadata: {} }],
    ]);
    expectBusyIdle(outputs, msgId);
    const next = await kernel.execute('1+1');
    expect(next.reply.content.execution_count).toBe(n + 1);
  });

  it('reports an error with exactly one error output', async () => {
    const { reply, outputs } = await kernel.execute("throw new Error('x')");
    expect(reply.content).toMatchObject({ status: 'error', ename: 'Error', evalue: 'x' });
    expect(reply.content.traceback.join('\n')).toContain('x');
    const errors = outputs.filter((m) => m.header.msg_type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.content).toMatchObject({ ename: 'Error', evalue: 'x' });
  });

  it('silent: no execute_input, no result, count unchanged', async () => {
    const before = (await kernel.execute('0')).reply.content.execution_count;
    // Typed so that no type warning (a stream output, which silent keeps) comes once the language service is up.
    const silent = await kernel.execute('(globalThis as { quiet?: number }).quiet = 7; 5', { silent: true });
    expect(silent.reply.content.status).toBe('ok');
    expect(contentOf(silent.outputs)).toEqual([]);
    const after = await kernel.execute('quiet');
    expect(after.reply.content.execution_count).toBe(before + 1);
    expect(contentOf(after.outputs).at(-1)).toEqual(['execute_result', { execution_count: before + 1, data: { 'text/plain': '7' }, metadata: {} }]);
  });

  it('evaluates user_expressions after a successful cell', async () => {
    const { reply } = await kernel.execute('globalThis.k = 6', { user_expressions: { double: 'k * 2', name: "'tpu'" } });
    expect(reply.content.user_expressions).toEqual({
      double: { status: 'ok', data: { 'text/plain': '12' }, metadata: {} },
      name: { status: 'ok', data: { 'text/plain': "'tpu'" }, metadata: {} },
    });
  });

  it('stop_on_error aborts the requests queued behind a failed cell, and only those', async () => {
    const failing = kernel.send('shell', 'execute_request', { code: "for (let i = 0; i < 3e7; i++); throw new Error('first')", stop_on_error: true });
    const second = kernel.send('shell', 'execute_request', { code: 'globalThis.ranSecond = true' });
    const third = kernel.send('shell', 'execute_request', { code: '3' });
    expect((await kernel.reply(failing)).content.status).toBe('error');
    expect((await kernel.reply(second)).content.status).toBe('aborted');
    expect((await kernel.reply(third)).content.status).toBe('aborted');
    for (const id of [second, third]) expectBusyIdle(await kernel.outputs(id), id);
    const later = await kernel.execute('typeof ranSecond');
    expect(later.reply.content.status).toBe('ok');
    expect(contentOf(later.outputs).at(-1)![1].data).toEqual({ 'text/plain': "'undefined'" });
  });

  it('stop_on_error=false lets queued requests run', async () => {
    const failing = kernel.send('shell', 'execute_request', { code: "throw new Error('tolerated')", stop_on_error: false });
    const next = kernel.send('shell', 'execute_request', { code: '"ran"' });
    expect((await kernel.reply(failing)).content.status).toBe('error');
    expect((await kernel.reply(next)).content.status).toBe('ok');
  });

  it('answers history tail, range and glob search', async () => {
    await kernel.execute('const historyProbeA = 1');
    await kernel.execute('const historyProbeB = 2');
    const tail = (await kernel.request('shell', 'history_request', { hist_access_type: 'tail', n: 2, output: false, raw: true })).reply.content;
    expect(tail.status).toBe('ok');
    expect(tail.history.map((h: unknown[]) => h[2])).toEqual(['const historyProbeA = 1', 'const historyProbeB = 2']);
    const [session, lineB] = tail.history[1];
    const search = (await kernel.request('shell', 'history_request', { hist_access_type: 'search', pattern: 'const history?robe[AB]*', output: false, raw: true })).reply.content;
    expect(search.history).toEqual([tail.history[0], tail.history[1]]);
    const range = (await kernel.request('shell', 'history_request', { hist_access_type: 'range', session: 0, start: lineB, stop: lineB + 1, output: false, raw: true })).reply.content;
    expect(range.history).toEqual([[session, lineB, 'const historyProbeB = 2']]);
  });

  it('answers an unknown request with an error reply, busy and idle', async () => {
    const { msgId, reply, outputs } = await kernel.request('shell', 'frobnicate_request', {});
    expect(reply.header.msg_type).toBe('frobnicate_reply');
    expect(reply.content).toMatchObject({ status: 'error', ename: 'UnknownMessageType' });
    expectBusyIdle(outputs, msgId);
  });
});

describe('comms', () => {
  it('frontend -> kernel: open to a registered target, messages both ways, info, close', async () => {
    await kernel.execute(
      "comms.registerTarget('echo', (comm, data) => { comm.send({ opened: data }); comm.onMsg((d) => comm.send({ echo: d })); comm.onClose((d) => { globalThis.closedWith = JSON.stringify(d); }); })",
    );
    const open = kernel.send('shell', 'comm_open', { comm_id: 'c1', target_name: 'echo', data: { x: 1 } });
    const openOutputs = await kernel.outputs(open);
    expectBusyIdle(openOutputs, open);
    expect(contentOf(openOutputs)).toEqual([['comm_msg', { comm_id: 'c1', data: { opened: { x: 1 } } }]]);
    const msg = kernel.send('shell', 'comm_msg', { comm_id: 'c1', data: { n: 2 } });
    expect(contentOf(await kernel.outputs(msg))).toEqual([['comm_msg', { comm_id: 'c1', data: { echo: { n: 2 } } }]]);
    const info = await kernel.request('shell', 'comm_info_request', { target_name: 'echo' });
    expect(info.reply.content).toEqual({ status: 'ok', comms: { c1: { target_name: 'echo' } } });
    expectBusyIdle(info.outputs, info.msgId);
    const close = kernel.send('shell', 'comm_close', { comm_id: 'c1', data: { bye: true } });
    expectBusyIdle(await kernel.outputs(close), close);
    expect(contentOf((await kernel.execute('closedWith')).outputs).at(-1)![1].data).toEqual({ 'text/plain': `'{"bye":true}'` });
    expect((await kernel.request('shell', 'comm_info_request', {})).reply.content.comms).toEqual({});
  });

  it('carries binary buffers both ways on comm messages', async () => {
    await kernel.execute(
      "comms.registerTarget('bytes', (comm) => comm.onMsg((d, bufs) => comm.send({ sizes: bufs.map((b) => b.byteLength), sum: [...new Uint8Array(bufs[0])].reduce((a, b) => a + b, 0) }, undefined, [new Uint8Array([9, 8, 7]).buffer])))",
    );
    await kernel.outputs(kernel.send('shell', 'comm_open', { comm_id: 'b1', target_name: 'bytes', data: {} }));
    const msg = kernel.send('shell', 'comm_msg', { comm_id: 'b1', data: {} }, { buffers: [Buffer.from([1, 2, 3, 4]), Buffer.from([5])] });
    const [echo] = (await kernel.outputs(msg)).filter((m) => m.header.msg_type === 'comm_msg');
    expect(echo!.content).toEqual({ comm_id: 'b1', data: { sizes: [4, 1], sum: 10 } });
    expect(echo!.buffers).toEqual([Buffer.from([9, 8, 7])]);
  });

  it('answers comm_open to an unknown target with comm_close', async () => {
    const open = kernel.send('shell', 'comm_open', { comm_id: 'c2', target_name: 'nobody', data: {} });
    const published = contentOf(await kernel.outputs(open));
    expect(published).toHaveLength(1);
    expect(published[0]![0]).toBe('comm_close');
    expect(published[0]![1].comm_id).toBe('c2');
  });

  it('kernel -> frontend: a cell opens, sends on and closes a comm', async () => {
    const { outputs } = await kernel.execute("const c = comms.open('front', { a: 1 }); c.send({ b: 2 }); c.close({ c: 3 })");
    const comm = contentOf(outputs).filter(([type]) => type.startsWith('comm_'));
    const id = comm[0]![1].comm_id;
    expect(comm).toEqual([
      ['comm_open', { comm_id: id, target_name: 'front', data: { a: 1 } }],
      ['comm_msg', { comm_id: id, data: { b: 2 } }],
      ['comm_close', { comm_id: id, data: { c: 3 } }],
    ]);
  });
});

describe('stdin', () => {
  it('sends input_request when allowed and resumes with the reply (plain and password)', async () => {
    const prompts: unknown[] = [];
    kernel.inputHandler = (content: { prompt: string; password: boolean }) => {
      prompts.push(content);
      return content.password ? 'secret' : 'Ada';
    };
    const { reply, outputs } = await kernel.execute(
      "const who = await input('Name: '); const pw = await input('Password: ', { password: true }); console.log('hi ' + who + ' ' + pw.length)",
      { allow_stdin: true },
    );
    kernel.inputHandler = undefined;
    expect(reply.content.status).toBe('ok');
    expect(prompts).toEqual([{ prompt: 'Name: ', password: false }, { prompt: 'Password: ', password: true }]);
    expect(contentOf(outputs)).toContainEqual(['stream', { name: 'stdout', text: 'hi Ada 6\n' }]);
  });

  it('refuses input() when allow_stdin is false, without an input_request', async () => {
    let asked = false;
    kernel.inputHandler = () => ((asked = true), 'no');
    const { reply } = await kernel.execute("await input('Name: ')", { allow_stdin: false });
    kernel.inputHandler = undefined;
    expect(reply.content.status).toBe('error');
    expect(reply.content.evalue).toMatch(/allow_stdin=false/);
    expect(asked).toBe(false);
  });
});
