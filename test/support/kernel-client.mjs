// A tiny Jupyter client over real ZeroMQ, for tests and benchmarks: spawns a
// kernel on a fresh connection file (tcp or ipc, any loopback IP, any key),
// sends signed requests and collects replies and iopub messages per request.
// Plain JS over the built package (dist/), so .mjs benchmarks can use it too.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zmq from 'zeromq';
import { createMessage, decodeMessage, encodeMessage } from '../../dist/kernel/wire/message.js';
import { createSigner, ReplayGuard } from '../../dist/kernel/wire/signature.js';
import { freePorts } from './free-ports.mjs';

export const KERNEL_CLI = fileURLToPath(new URL('../../dist/kernel/cli.js', import.meta.url));

/**
 * Writes a connection file and spawns `argv` with it (default: this package's
 * kernel). Returns a connected client, ready (its iopub subscription live).
 * options: { transport: 'tcp'|'ipc', ip, key, argv: (file) => string[], env, cwd }
 */
export async function spawnKernel(options = {}) {
  // A port probed free may be taken by another process before the kernel binds it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnKernelOnce(options);
    } catch (e) {
      if (attempt === 3 || !/Address already in use/.test(e.message)) throw e;
    }
  }
}

async function spawnKernelOnce(options) {
  const dir = mkdtempSync(join(tmpdir(), 'tpu-kernel-test-'));
  const transport = options.transport ?? 'tcp';
  const ip = options.ip ?? (transport === 'ipc' ? join(dir, 'kernel-ipc') : '127.0.0.1');
  const channels = ['shell', 'control', 'iopub', 'stdin', 'hb'];
  const numbers = transport === 'tcp' ? await freePorts(ip, channels.length) : channels.map((_, i) => i + 1);
  const ports = Object.fromEntries(channels.map((channel, i) => [`${channel}_port`, numbers[i]]));
  const key = options.key ?? randomBytes(16).toString('hex');
  const connection = { transport, ip, key, signature_scheme: 'hmac-sha256', ...ports };
  const file = join(dir, 'kernel.json');
  writeFileSync(file, JSON.stringify(connection));
  const argv = options.argv ? options.argv(file) : [process.execPath, KERNEL_CLI, '--connection-file', file];
  const startedAt = performance.now();
  const child = spawn(argv[0], argv.slice(1), {
    cwd: options.cwd ?? dir,
    env: { ...process.env, JUPYTER_DATA_DIR: join(dir, 'data'), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const client = new KernelClient(connection, child, dir, startedAt);
  try {
    await client.waitReady(options.readyTimeoutMs ?? 20_000);
  } catch (e) {
    await client.close();
    throw new Error(`${e.message}\nkernel stderr:\n${client.stderr}`);
  }
  return client;
}

function endpoint(c, port) {
  return c.transport === 'tcp' ? `tcp://${c.ip}:${port}` : `ipc://${c.ip}-${port}`;
}

const timeout = (ms, what) =>
  new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms).unref());

export class KernelClient {
  constructor(connection, child, dir, startedAt) {
    this.connection = connection;
    this.child = child;
    this.dir = dir;
    this.startedAt = startedAt;
    this.session = randomUUID();
    this.signer = createSigner(connection.signature_scheme, connection.key);
    this.replays = new ReplayGuard();
    this.stderr = '';
    this.stdout = '';
    child.stderr.on('data', (d) => (this.stderr += d));
    child.stdout.on('data', (d) => (this.stdout += d));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    /** Every iopub message received, in order. */
    this.iopub = [];
    this.waiters = new Set(); // functions re-checked on every incoming message
    this.replies = new Map(); // parent msg_id -> reply
    this.inputHandler = undefined; // (content, message) => string | undefined
    const routingId = `client-${this.session}`;
    this.sockets = {
      shell: new zmq.Dealer({ routingId, linger: 0 }),
      control: new zmq.Dealer({ linger: 0 }),
      stdin: new zmq.Dealer({ routingId, linger: 0 }),
      iopub: new zmq.Subscriber({ linger: 0 }),
      hb: new zmq.Request({ linger: 0, receiveTimeout: 1000 }),
    };
    this.sockets.iopub.subscribe();
    for (const [channel, socket] of Object.entries(this.sockets)) socket.connect(endpoint(connection, connection[`${channel}_port`]));
    this.sendQueues = {};
    for (const channel of ['shell', 'control', 'stdin', 'iopub']) if (channel !== 'iopub') void this.receive(channel);
    void this.receive('iopub');
  }

  async receive(channel) {
    try {
      for await (const frames of this.sockets[channel]) {
        let message;
        try {
          message = decodeMessage(frames, this.signer, this.replays);
        } catch (e) {
          this.badMessages = (this.badMessages ?? 0) + 1;
          continue;
        }
        message.channel = channel;
        if (channel === 'iopub') this.iopub.push(message);
        else if (channel === 'stdin') this.answerInput(message);
        else this.replies.set(message.parent_header.msg_id, message);
        for (const check of this.waiters) check();
      }
    } catch (e) {
      if (!this.sockets[channel].closed) throw e;
    }
  }

  answerInput(message) {
    const value = this.inputHandler?.(message.content, message);
    if (value !== undefined) this.send('stdin', 'input_reply', { value }, { parent: message });
  }

  /** Resolves with predicate()'s first truthy value, re-checked on each incoming message. */
  waitFor(predicate, ms = 10_000, what = 'a message') {
    const found = predicate();
    if (found) return Promise.resolve(found);
    let check;
    const waiting = new Promise((resolve) => {
      check = () => {
        const value = predicate();
        if (value) resolve(value);
      };
      this.waiters.add(check);
    });
    return Promise.race([waiting, timeout(ms, what)]).finally(() => this.waiters.delete(check));
  }

  /** Encodes and signs a message (no send); returns { frames, message }. */
  build(msgType, content, options = {}) {
    const message = createMessage(this.session, msgType, content, options.parent, { identities: [], buffers: options.buffers });
    return { message, frames: encodeMessage(message, options.signer ?? this.signer) };
  }

  /** Sends frames on one channel, one send at a time per socket (zeromq v6). */
  sendFrames(channel, frames) {
    const socket = this.sockets[channel];
    this.sendQueues[channel] = (this.sendQueues[channel] ?? Promise.resolve()).then(() => socket.send(frames));
    return this.sendQueues[channel];
  }

  /** Sends a request; returns its msg_id. */
  send(channel, msgType, content, options = {}) {
    const { message, frames } = this.build(msgType, content, options);
    void this.sendFrames(channel, frames);
    return message.header.msg_id;
  }

  reply(msgId, ms = 10_000) {
    return this.waitFor(() => this.replies.get(msgId), ms, `the reply to ${msgId}`);
  }

  /** iopub messages whose parent is msgId, once its idle status has arrived. */
  async outputs(msgId, ms = 10_000) {
    await this.waitFor(() => this.iopub.some((m) => isStatus(m, msgId, 'idle')), ms, `idle after ${msgId}`);
    return this.iopub.filter((m) => m.parent_header.msg_id === msgId);
  }

  /** Request + reply + its iopub messages (busy ... idle). */
  async request(channel, msgType, content, ms = 10_000) {
    const msgId = this.send(channel, msgType, content);
    const reply = await this.reply(msgId, ms);
    return { msgId, reply, outputs: await this.outputs(msgId, ms) };
  }

  execute(code, options = {}, ms = 10_000) {
    return this.request('shell', 'execute_request', { ...EXECUTE_DEFAULTS, code, ...options }, ms);
  }

  /** Sends an execute_request without waiting; returns its msg_id. */
  startExecute(code, options = {}) {
    return this.send('shell', 'execute_request', { ...EXECUTE_DEFAULTS, code, ...options });
  }

  async waitReady(ms) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const exited = await Promise.race([this.exited, new Promise((r) => setTimeout(r, 0, undefined))]);
      if (exited) throw new Error(`kernel exited during startup (${JSON.stringify(exited)})`);
      const msgId = this.send('shell', 'kernel_info_request', {});
      try {
        this.kernelInfo = await this.reply(msgId, Math.min(2000, deadline - Date.now()));
        this.readyAt = performance.now();
        await this.waitFor(() => this.iopub.some((m) => isStatus(m, msgId, 'idle')), 250, 'iopub');
        return;
      } catch {
        // iopub not subscribed yet (slow joiner) or kernel still starting: ask again
      }
    }
    throw new Error(`kernel not ready within ${ms} ms`);
  }

  /** Heartbeat round trip in ms (rejects after 1 s). */
  async ping() {
    const start = performance.now();
    await this.sockets.hb.send('ping');
    const [echo] = await this.sockets.hb.receive();
    if (echo.toString() !== 'ping') throw new Error(`heartbeat echoed ${echo}`);
    return performance.now() - start;
  }

  /** Closes the sockets, kills the kernel if still running, removes the connection dir. */
  async close() {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
    for (const socket of Object.values(this.sockets)) socket.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function isStatus(message, msgId, state) {
  return message.header.msg_type === 'status' && message.parent_header.msg_id === msgId && message.content.execution_state === state;
}

/** The content fields of an execute_request other than `code`, as most tests send them. */
export const EXECUTE_DEFAULTS = { silent: false, store_history: true, user_expressions: {}, allow_stdin: false, stop_on_error: true };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** text/plain of the last output of a request (its execute_result, mostly). */
export function lastText(outputs) {
  return contentOf(outputs).at(-1)[1].data['text/plain'];
}

/** The iopub messages of one request minus status, as [msg_type, content] pairs. */
export function contentOf(outputs) {
  return outputs.filter((m) => m.header.msg_type !== 'status').map((m) => [m.header.msg_type, m.content]);
}
