// Starts a kernel for one connection file: the IO worker (heartbeat, control,
// iopub), the shell and stdin ZeroMQ sockets on this thread, and the shell kernel.
import * as zmq from 'zeromq';
import { v4 as uuid } from 'uuid';
import { kernelInfoContent } from './handlers/kernel-info.js';
import { defaultHistoryPath } from './history/history-store.js';
import { startIoThread } from './io/io-thread.js';
import type { IoThread } from './io/io-thread.js';
import type { SessionFactory } from './language-session.js';
import { createShellKernel } from './shell-kernel.js';
import type { DuplexChannel } from './transport.js';
import { endpoint, readConnectionFile } from './wire/connection-file.js';
import { createSigner, ReplayGuard } from './wire/signature.js';

export interface KernelOptions {
  connectionFile: string;
  sessionFactory?: SessionFactory;
  historyPath?: string;
}

const IOPUB_SUBSCRIBER_WAIT_MS = 2000;
const log = (text: string) => process.stderr.write(`[tpu-kernel] ${text}\n`);

function zmqChannel(socket: zmq.Router): DuplexChannel {
  return {
    receive: () => socket,
    send: (frames) => socket.send(frames),
    hasPending: () => socket.readable,
  };
}

export async function startKernel(options: KernelOptions): Promise<void> {
  const connection = readConnectionFile(options.connectionFile);
  const sessionId = uuid();
  // The IO worker boots on its own thread while this one loads the language session.
  const ioStarting = startIoThread({ connection, session: sessionId });
  // iopub frames must be posted synchronously: a cell may block this thread right after publishing.
  let io: IoThread | undefined;
  const early: Buffer[][] = [];
  // loaded after the worker was started, so both load their modules at the same time
  const sessionFactory = options.sessionFactory ?? (await import('./session/index.js')).createSession;
  const shell = new zmq.Router();
  const stdin = new zmq.Router();
  await Promise.all([shell.bind(endpoint(connection, 'shell')), stdin.bind(endpoint(connection, 'stdin'))]);

  const kernel = createShellKernel({
    transport: {
      shell: zmqChannel(shell),
      stdin: zmqChannel(stdin),
      iopub: { send: async (frames) => void (io ? io.iopub.send(frames) : early.push(frames)) },
    },
    sessionFactory,
    sessionId,
    signer: createSigner(connection.signature_scheme, connection.key),
    replays: new ReplayGuard(),
    historyPath: options.historyPath ?? defaultHistoryPath(),
    cwd: process.cwd(),
    log,
  });
  io = await ioStarting;
  for (const frames of early.splice(0)) void io.iopub.send(frames);
  io.setKernelInfo(kernelInfoContent(kernel.session.kernelInfo));

  // interrupt_request makes the IO worker raise SIGINT; Jupyter may also send it directly
  process.on('SIGINT', () => kernel.interrupt());
  process.on('unhandledRejection', (reason) => log(`unhandled rejection in a cell: ${(reason as Error)?.stack ?? reason}`));
  process.on('uncaughtException', (error) => log(`uncaught exception in a cell: ${error.stack ?? error}`));

  io.onShutdown(async (restart) => {
    try {
      await kernel.session.shutdown(restart);
    } catch (e) {
      log(`session shutdown failed: ${(e as Error).message}`);
    }
    await kernel.flushed();
    shell.close();
    stdin.close();
    await io!.close();
    process.exit(0);
  });

  // ZeroMQ's slow joiner: a client that asks at once would miss the outputs of its
  // first request, so wait (a little) for an iopub subscriber before answering.
  await Promise.race([io.subscribed, new Promise((resolve) => setTimeout(resolve, IOPUB_SUBSCRIBER_WAIT_MS))]);
  await kernel.serve();
}
