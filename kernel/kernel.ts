// Starts a kernel for one connection file: the IO worker (heartbeat, control,
// iopub), the shell and stdin sockets on this thread, the language session,
// and the shell dispatch table.
import * as zmq from 'zeromq';
import { v4 as uuid } from 'uuid';
import { Comms } from './comms/comm-registry.js';
import { createDispatcher } from './dispatch.js';
import type { DispatchTable } from './dispatch.js';
import { commRoutes } from './handlers/comm.js';
import { executeHandler } from './handlers/execute.js';
import type { ExecutionState } from './handlers/execute.js';
import { historyRoutes } from './handlers/history.js';
import { kernelInfoContent } from './handlers/kernel-info.js';
import { languageRoutes } from './handlers/language.js';
import { defaultHistoryPath, HistoryStore } from './history/history-store.js';
import { startIoThread } from './io/io-thread.js';
import type { SessionFactory } from './language-session.js';
import { createSession } from './session/index.js';
import { StdinChannel } from './stdin-channel.js';
import { endpoint, readConnectionFile } from './wire/connection-file.js';
import type { Message } from './wire/message.js';
import { queuedSender } from './wire/send-queue.js';
import { createSigner, ReplayGuard } from './wire/signature.js';

export interface KernelOptions {
  connectionFile: string;
  sessionFactory?: SessionFactory;
  historyPath?: string;
}

const log = (text: string) => process.stderr.write(`[tpu-kernel] ${text}\n`);

export async function startKernel(options: KernelOptions): Promise<void> {
  const connection = readConnectionFile(options.connectionFile);
  const sessionId = uuid();
  const signer = createSigner(connection.signature_scheme, connection.key);
  const replays = new ReplayGuard(); // shared by shell and stdin: a replay across them is a replay too

  let current: Message | undefined; // parent of kernel-initiated messages (comms)
  let publish: ReturnType<typeof createDispatcher>['publish'] = () => undefined;
  const comms = new Comms((msgType, content, extras) => publish(msgType, content, current, extras));
  const session = (options.sessionFactory ?? createSession)({ cwd: process.cwd(), comms });
  const io = await startIoThread({ connection, session: sessionId, kernelInfo: kernelInfoContent(session.kernelInfo) });

  const shell = new zmq.Router();
  const stdinSocket = new zmq.Router();
  await Promise.all([shell.bind(endpoint(connection, 'shell')), stdinSocket.bind(endpoint(connection, 'stdin'))]);
  const shellReplies = queuedSender(shell, (e) => log(`shell send failed: ${e}`));
  const stdin = new StdinChannel(sessionId, signer, replays, queuedSender(stdinSocket, (e) => log(`stdin send failed: ${e}`)), log);

  const state: ExecutionState = { executionCount: 0, aborting: false };
  const history = new HistoryStore(options.historyPath ?? defaultHistoryPath(), log);
  const routes: DispatchTable = {
    kernel_info_request: { channel: 'shell', handler: () => kernelInfoContent(session.kernelInfo) },
    execute_request: { channel: 'shell', handler: executeHandler(session, state, history, stdin) },
    ...languageRoutes(session),
    ...historyRoutes(history),
    ...commRoutes(comms),
  };
  const table: DispatchTable = Object.fromEntries(
    Object.entries(routes).map(([type, route]) => [type, { ...route, handler: (context) => ((current = context.request), route.handler(context)) }]),
  );
  const dispatcher = createDispatcher({
    session: sessionId,
    signer,
    replays,
    table,
    iopub: io.iopub,
    replies: { shell: shellReplies, control: shellReplies },
    aborting: () => state.aborting,
    log,
  });
  publish = dispatcher.publish;

  process.on('SIGINT', () => {
    session.interrupt();
    stdin.cancel('input() was interrupted');
  });
  process.on('unhandledRejection', (reason) => log(`unhandled rejection in a cell: ${(reason as Error)?.stack ?? reason}`));
  process.on('uncaughtException', (error) => log(`uncaught exception in a cell: ${error.stack ?? error}`));

  io.onShutdown(async (restart) => {
    try {
      await session.shutdown(restart);
    } catch (e) {
      log(`session shutdown failed: ${(e as Error).message}`);
    }
    await shellReplies.flushed();
    shell.close();
    stdinSocket.close();
    await io.close();
    process.exit(0);
  });

  void (async () => {
    for await (const frames of stdinSocket) stdin.receive(frames);
  })().catch((e) => stdinSocket.closed || log(`stdin stopped: ${e}`));

  for await (const frames of shell) {
    await dispatcher.dispatch('shell', frames).catch((e) => log(`shell dispatch failed: ${(e as Error).stack ?? e}`));
    // stop_on_error aborts what was already queued when the failure happened, nothing later
    if (state.aborting && !shell.readable) state.aborting = false;
  }
}
