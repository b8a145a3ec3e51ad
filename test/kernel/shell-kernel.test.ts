// The shell kernel and dispatch over the in-memory transport (no sockets).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSession } from '../../kernel/session/index.js';
import { createShellKernel } from '../../kernel/shell-kernel.js';
import { createMessage, decodeMessage, encodeMessage } from '../../kernel/wire/message.js';
import type { Message } from '../../kernel/wire/message.js';
import type { LanguageSession, SessionFactory } from '../../kernel/language-session.js';
import { createSigner, ReplayGuard } from '../../kernel/wire/signature.js';
import { memoryTransport } from '../support/memory-transport.js';

const signer = createSigner('hmac-sha256', 'secret');
let dir: string;
let transport: ReturnType<typeof memoryTransport>;
let serving: Promise<void>;
let sessionFactory: SessionFactory;

beforeEach(() => {
  sessionFactory = createSession;
});

function start() {
  dir = mkdtempSync(join(tmpdir(), 'tpu-kernel-shell-'));
  transport = memoryTransport();
  const kernel = createShellKernel({
    transport,
    sessionFactory,
    sessionId: 'kernel-session',
    signer,
    replays: new ReplayGuard(),
    historyPath: join(dir, 'history.jsonl'),
    cwd: dir,
    log: () => undefined,
  });
  serving = kernel.serve();
}
afterEach(async () => {
  transport.shell.close();
  transport.stdin.close();
  await serving;
  rmSync(dir, { recursive: true, force: true });
});

const decode = (frames: Buffer[]) => decodeMessage(frames, signer, new ReplayGuard());

/** Sends a request and resolves with [reply, iopub messages] once its idle status is out. */
async function roundTrip(msgType: string, content: Record<string, unknown>): Promise<[Message, Message[]]> {
  const request = createMessage('client', msgType, content, undefined, { identities: [Buffer.from('peer')] });
  transport.shell.push(encodeMessage(request, signer));
  const isIdle = (m: Message) => m.header.msg_type === 'status' && m.content.execution_state === 'idle' && m.parent_header.msg_id === request.header.msg_id;
  while (!transport.iopub.sent.map(decode).some(isIdle)) await transport.iopub.nextSend();
  const replies = transport.shell.sent.map(decode).filter((m) => m.parent_header.msg_id === request.header.msg_id);
  expect(replies).toHaveLength(1);
  expect(replies[0]!.identities).toEqual([Buffer.from('peer')]);
  const iopub = transport.iopub.sent.map(decode).filter((m) => m.parent_header.msg_id === request.header.msg_id);
  return [replies[0]!, iopub];
}

it('runs a cell: busy, execute_input, stream, execute_result, idle, then the reply', async () => {
  start();
  const [reply, iopub] = await roundTrip('execute_request', { code: "console.log('hi'); 2 * 21" });
  expect(reply.header.msg_type).toBe('execute_reply');
  expect(reply.content).toEqual({ status: 'ok', execution_count: 1, user_expressions: {}, payload: [] });
  expect(iopub.map((m) => [m.header.msg_type, m.content])).toEqual([
    ['status', { execution_state: 'busy' }],
    ['execute_input', { code: "console.log('hi'); 2 * 21", execution_count: 1 }],
    ['stream', { name: 'stdout', text: 'hi\n' }],
    ['execute_result', { execution_count: 1, data: { 'text/plain': '42' }, metadata: {} }],
    ['status', { execution_state: 'idle' }],
  ]);
  expect(iopub[0]!.identities.map(String)).toEqual(['kernel.status']);
});

it('hands busy and execute_input to iopub together (the IO worker wakes once for both), the output of the cell after them', async () => {
  start();
  await roundTrip('execute_request', { code: "console.log('hi')" });
  const types = (messages: Buffer[][]) => messages.map(decode).map((m) => m.header.msg_type === 'status' ? `status ${m.content.execution_state}` : m.header.msg_type);
  expect(transport.iopub.handOffs.map(types)).toEqual([['status busy', 'execute_input'], ['stream'], ['status idle']]);
  await roundTrip('comm_info_request', {});
  // a handler that may run cell code (comm messages) or does not publish at once: busy alone
  expect(transport.iopub.handOffs.slice(3).map(types)).toEqual([['status busy'], ['status idle']]);
});

it('turns a failing handler into an error reply naming the argument', async () => {
  start();
  const [reply] = await roundTrip('history_request', { hist_access_type: 'sideways' });
  expect(reply.content.status).toBe('error');
  expect(reply.content.evalue).toBe('history_request: hist_access_type must be "tail", "range" or "search", got "sideways"');
});

it('drops a message signed with another key and serves the next one', async () => {
  start();
  const forged = createMessage('client', 'execute_request', { code: 'globalThis.forged = true' }, undefined, { identities: [Buffer.from('peer')] });
  transport.shell.push(encodeMessage(forged, createSigner('hmac-sha256', 'other')));
  const [reply, iopub] = await roundTrip('execute_request', { code: 'typeof forged' });
  expect(iopub.find((m) => m.header.msg_type === 'execute_result')!.content.data).toEqual({ 'text/plain': "'undefined'" });
  expect(reply.content.execution_count).toBe(1);
  expect(transport.shell.sent).toHaveLength(1);
});

it('publishes display, update_display_data (by display_id), clear_output and one error from a session', async () => {
  const seed = createSession;
  sessionFactory = (options) => {
    const session: LanguageSession = {
      ...seed(options),
      async execute(_code, { publisher }) {
        publisher.display({ 'text/plain': 'step 1' }, undefined, 'progress');
        publisher.updateDisplay({ 'text/plain': 'step 2' }, { note: 1 }, 'progress');
        publisher.clearOutput(true);
        publisher.display({ 'text/html': '<b>done</b>' });
        return { status: 'error', ename: 'TpuError', evalue: 'device lost', traceback: ['TpuError: device lost'] };
      },
    };
    return session;
  };
  start();
  const [reply, iopub] = await roundTrip('execute_request', { code: 'anything', stop_on_error: true });
  expect(reply.content).toEqual({ status: 'error', execution_count: 1, ename: 'TpuError', evalue: 'device lost', traceback: ['TpuError: device lost'] });
  expect(iopub.map((m) => [m.header.msg_type, m.content]).slice(2, -1)).toEqual([
    ['display_data', { data: { 'text/plain': 'step 1' }, metadata: {}, transient: { display_id: 'progress' } }],
    ['update_display_data', { data: { 'text/plain': 'step 2' }, metadata: { note: 1 }, transient: { display_id: 'progress' } }],
    ['clear_output', { wait: true }],
    ['display_data', { data: { 'text/html': '<b>done</b>' }, metadata: {}, transient: {} }],
    ['error', { ename: 'TpuError', evalue: 'device lost', traceback: ['TpuError: device lost'] }],
  ]);
});

it('maps the session language service to complete, inspect and is_complete replies', async () => {
  const calls: unknown[] = [];
  const seed = createSession;
  sessionFactory = (options) => ({
    ...seed(options),
    async complete(code, cursorPos) {
      calls.push(['complete', code, cursorPos]);
      return { matches: ['max', 'min'], cursorStart: 5, cursorEnd: 7 };
    },
    async inspect(code, cursorPos, detailLevel) {
      calls.push(['inspect', code, cursorPos, detailLevel]);
      return { found: true, data: { 'text/plain': 'max(...values: number[]): number' } };
    },
    async isComplete(code) {
      calls.push(['isComplete', code]);
      return { status: 'incomplete', indent: '  ' };
    },
  });
  start();
  const [complete] = await roundTrip('complete_request', { code: 'Math.ma', cursor_pos: 7 });
  expect(complete.content).toEqual({ status: 'ok', matches: ['max', 'min'], cursor_start: 5, cursor_end: 7, metadata: {} });
  const [inspect] = await roundTrip('inspect_request', { code: 'Math.max', cursor_pos: 6, detail_level: 1 });
  expect(inspect.content).toEqual({ status: 'ok', found: true, data: { 'text/plain': 'max(...values: number[]): number' }, metadata: {} });
  const [isComplete] = await roundTrip('is_complete_request', { code: 'if (x) {' });
  expect(isComplete.content).toEqual({ status: 'incomplete', indent: '  ' });
  // cursor_pos defaults to the end of the code, in code points (protocol 5.2+)
  await roundTrip('complete_request', { code: 'é😀' });
  expect(calls).toEqual([
    ['complete', 'Math.ma', 7],
    ['inspect', 'Math.max', 6, 1],
    ['isComplete', 'if (x) {'],
    ['complete', 'é😀', 2],
  ]);
});

it('answers malformed request content with an error naming the field, and keeps serving', async () => {
  start();
  const [execute] = await roundTrip('execute_request', { code: 42 });
  expect(execute.content).toMatchObject({ status: 'error', ename: 'TypeError', evalue: 'execute_request: code must be a string, got 42' });
  const [complete] = await roundTrip('complete_request', { code: 'abc', cursor_pos: 9 });
  expect(complete.content.evalue).toBe('complete_request: cursor_pos must be an integer from 0 to 3 (code points of code), got 9');
  const [inspect] = await roundTrip('inspect_request', {});
  expect(inspect.content.evalue).toBe('inspect_request: code must be a string, got nothing');
  const [ok] = await roundTrip('execute_request', { code: '1' });
  expect(ok.content).toMatchObject({ status: 'ok', execution_count: 1 });
});

it('answers history n = 0 with nothing and a negative or non-integer n with an error naming it', async () => {
  start();
  for (const code of ['1', '2', '3']) await roundTrip('execute_request', { code });
  const sources = (reply: Message) => (reply.content.history as unknown[][]).map((h) => h[2]);
  expect(sources((await roundTrip('history_request', { hist_access_type: 'tail', n: 2 }))[0])).toEqual(['2', '3']);
  expect(sources((await roundTrip('history_request', { hist_access_type: 'tail', n: 5 }))[0])).toEqual(['1', '2', '3']);
  expect(sources((await roundTrip('history_request', { hist_access_type: 'tail', n: 0 }))[0])).toEqual([]);
  expect(sources((await roundTrip('history_request', { hist_access_type: 'search', pattern: '*', n: 0 }))[0])).toEqual([]);
  for (const [n, got] of [[-1, '-1'], ['2', '"2"'], [1.5, '1.5']] as const) {
    const [reply] = await roundTrip('history_request', { hist_access_type: 'tail', n });
    expect(reply.content).toMatchObject({ status: 'error', evalue: `history_request: n must be a non-negative integer or absent, got ${got}` });
  }
  const [range] = await roundTrip('history_request', { hist_access_type: 'range', start: 'one' });
  expect(range.content.evalue).toBe('history_request: start must be an integer or absent, got "one"');
});

it('answers a request whose content is not an object with an error reply, busy and idle', async () => {
  start();
  for (const bad of [null, [1], 'code']) {
    const [reply, iopub] = await roundTrip('execute_request', bad as unknown as Record<string, unknown>);
    expect(reply.header.msg_type).toBe('execute_reply');
    expect(reply.content).toEqual({ status: 'error', ename: 'ContentError', evalue: `execute_request: content must be a JSON object, got ${JSON.stringify(bad)}`, traceback: [] });
    expect(iopub.map((m) => m.content.execution_state)).toEqual(['busy', 'idle']);
  }
  const [ok] = await roundTrip('execute_request', { code: '1' });
  expect(ok.content).toMatchObject({ status: 'ok', execution_count: 1 });
});

it('gives a cell too deeply nested to compile its execution count, one error output and an error reply', async () => {
  start();
  const [reply, iopub] = await roundTrip('execute_request', { code: '('.repeat(10000) });
  const evalue = 'the cell is nested too deeply to compile (Maximum call stack size exceeded) (cell-1.ts:1:1)';
  expect(reply.content).toMatchObject({ status: 'error', execution_count: 1, ename: 'SyntaxError', evalue });
  const errors = iopub.filter((m) => m.header.msg_type === 'error');
  expect(errors.map((m) => [m.content.ename, m.content.evalue])).toEqual([['SyntaxError', evalue]]);
  const [next] = await roundTrip('execute_request', { code: '[1, [2]].flat().length' });
  expect(next.content).toMatchObject({ status: 'ok', execution_count: 2 });
});

it('turns a session that throws instead of returning an outcome into an error output and reply with the execution count', async () => {
  const seed = createSession;
  sessionFactory = (options) => ({
    ...seed(options),
    async execute() {
      throw new RangeError('session broke');
    },
  });
  start();
  const [reply, iopub] = await roundTrip('execute_request', { code: 'anything' });
  expect(reply.content).toMatchObject({ status: 'error', execution_count: 1, ename: 'RangeError', evalue: 'session broke' });
  expect(iopub.filter((m) => m.header.msg_type === 'error').map((m) => m.content.evalue)).toEqual(['session broke']);
});

it('stop_on_error aborts the requests queued at the failure, not one a client sends on seeing the last idle', async () => {
  start();
  const requests = ["throw new Error('first')", 'globalThis.queued = 1', 'typeof queued'].map((code) =>
    createMessage('client', 'execute_request', { code, stop_on_error: true }, undefined, { identities: [Buffer.from('peer')] }));
  const [failing, queued, next] = requests.map((r) => r.header.msg_id);
  const idleOf = (id: string) => transport.iopub.sent.map(decode).some((m) => m.content.execution_state === 'idle' && m.parent_header.msg_id === id);
  // The client answers the queued request's idle at once: before the kernel's loop goes on to read.
  const answerIdle = async () => {
    while (!idleOf(queued!)) await transport.iopub.nextSend();
    transport.shell.push(encodeMessage(requests[2]!, signer));
  };
  const answered = answerIdle();
  transport.shell.push(encodeMessage(requests[0]!, signer));
  transport.shell.push(encodeMessage(requests[1]!, signer));
  await answered;
  while (!idleOf(next!)) await transport.iopub.nextSend();
  const replies = transport.shell.sent.map(decode);
  const status = (id: string) => replies.find((m) => m.parent_header.msg_id === id)?.content.status;
  expect([status(failing!), status(queued!), status(next!)]).toEqual(['error', 'aborted', 'ok']);
  const result = transport.iopub.sent.map(decode).find((m) => m.header.msg_type === 'execute_result' && m.parent_header.msg_id === next);
  expect(result?.content.data).toEqual({ 'text/plain': "'undefined'" });
});
