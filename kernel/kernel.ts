// Starts a kernel for one connection file: the IO worker (heartbeat, control,
// iopub), the shell and stdin ZeroMQ sockets on this thread, and the shell kernel.
// Only what starts the IO worker is imported up front; the rest loads while it boots.
import { randomUUID } from 'node:crypto';
import type { Router } from 'zeromq';
import { startIoThread } from './io/io-thread.js';
import type { IoThread } from './io/io-thread.js';
import { RunningRequest } from './io/running-request.js';
import { SigintWatchdogHold } from './io/sigint-watchdog-hold.js';
import { ownWorkBuffer } from './io/own-work.js';
import type { SessionFactory, SigintGate } from './language-session.js';
import { SOCKET_LINGER_MS } from './wire/linger.js';
import type { DuplexChannel } from './transport.js';
import type { Frame } from './wire/message.js';
import { endpoint, readConnectionFile } from './wire/connection-file.js';
import { loadZeromq } from './wire/zeromq.js';

export interface KernelOptions {
  connectionFile: string;
  sessionFactory?: SessionFactory;
  historyPath?: string;
  /**
   * Sets the process's V8 flags (the launcher's: jit-flags.ts), called before the first request
   * is read, once the IO worker has started and the kernel's modules are loaded: V8 rejects Node's
   * own code cache after a flag changed, so a worker started later compiles Node's internals
   * afresh (the IO worker bound iopub 25-30 ms later), as does this thread for each builtin
   * module it loads after the change.
   */
  setJitFlags?: () => void;
}

const IOPUB_SUBSCRIBER_WAIT_MS = 2000;
const EXIT_FALLBACK_MS = 2000;
/** When the SIGINT watchdog hold starts (io/sigint-watchdog-hold.ts), after the kernel's start. */
const WATCHDOG_HOLD_AFTER_MS = 1000;
const log = (text: string) => process.stderr.write(`[tpu-kernel] ${text}\n`);

function zmqChannel(socket: Router): DuplexChannel {
  return {
    receive: () => socket,
    send: (frames) => socket.send(frames),
    hasPending: () => socket.readable,
  };
}

export async function startKernel(options: KernelOptions): Promise<void> {
  const connection = readConnectionFile(options.connectionFile);
  const sessionId = randomUUID();
  // The IO worker boots on its own thread while this one loads the language session.
  const runningRequest = new RunningRequest();
  let watchdogHold: SigintWatchdogHold | undefined;
  const sigintGate: SigintGate = {
    before: () => (watchdogHold?.beforeRun(), runningRequest.before()),
    during: (body) => runningRequest.during(body),
    after: () => runningRequest.after(),
  };
  const ioStarting = startIoThread({ connection, session: sessionId, runningRequest: runningRequest.buffer, ownWork: ownWorkBuffer });
  // iopub frames must be posted synchronously: a cell may block this thread right after publishing.
  let io: IoThread | undefined;
  const early: Frame[][] = [];
  // Loaded after the worker was started, so both threads load their modules at the same time.
  // Shell and stdin are bound before the rest loads, as the worker binds its sockets first
  // (io-worker.ts): the client's first reconnect finds them; requests wait in their queues.
  const zmq = loadZeromq();
  const shell = new zmq.Router({ linger: SOCKET_LINGER_MS });
  const stdin = new zmq.Router({ linger: SOCKET_LINGER_MS });
  await Promise.all([shell.bind(endpoint(connection, 'shell')), stdin.bind(endpoint(connection, 'stdin'))]);
  const [{ createShellKernel }, { kernelInfoContent }, { defaultHistoryPath }, { createSigner, ReplayGuard }, sessionFactory] = await Promise.all([
    import('./shell-kernel.js'),
    import('./handlers/kernel-info.js'),
    import('./history/history-store.js'),
    import('./wire/signature.js'),
    options.sessionFactory ?? import('./session/index.js').then((session) => session.createSession),
  ]);

  const kernel = createShellKernel({
    transport: {
      shell: zmqChannel(shell),
      stdin: zmqChannel(stdin),
      iopub: {
        send: async (frames) => void (io ? io.iopub.send(frames) : early.push(frames)),
        hold: () => (io ? io.iopub.hold() : () => undefined),
      },
    },
    sessionFactory,
    sessionId,
    signer: createSigner(connection.signature_scheme, connection.key),
    replays: new ReplayGuard(),
    historyPath: options.historyPath ?? defaultHistoryPath(),
    cwd: process.cwd(),
    log,
    requestTracker: runningRequest,
    sigintGate,
    // Before the IO worker is up, a cell cannot run yet: no interrupt to miss.
    shareInterruptWake: (wake) => void ioStarting.then((started) => started.setInterruptWake(wake)),
  });
  io = await ioStarting;
  for (const frames of early.splice(0)) void io.iopub.send(frames);
  io.setKernelInfo(kernelInfoContent(kernel.session.kernelInfo));

  // interrupt_request reaches here from the IO worker (which also stops a synchronous loop);
  // Jupyter may also send SIGINT directly.
  io.onInterrupt((request) => {
    runningRequest.interruptSeen(request);
    if (runningRequest.running() === request) kernel.interrupt();
  });
  const sigintListener = () => kernel.interrupt();
  process.on('SIGINT', sigintListener);
  process.on('unhandledRejection', (reason) => log(`unhandled rejection in a cell: ${(reason as Error)?.stack ?? reason}`));
  process.on('uncaughtException', (error) => log(`uncaught exception in a cell: ${error.stack ?? error}`));

  io.onShutdown(async (restart) => {
    try {
      await kernel.session.shutdown(restart);
    } catch (e) {
      log(`session shutdown failed: ${(e as Error).message}`);
    }
    await kernel.flushed(); // the interrupted cell's execute_reply goes out before the sockets close
    shell.close();
    stdin.close();
    await io!.close();
    // The process ends by itself now that nothing is left to do, so Node tears ZeroMQ down in
    // its own order. process.exit() here aborted at exit (code 134) about once in four full
    // test runs, likely racing ZeroMQ's I/O threads, which release zero-copy messages back to
    // the JS thread. Anything still holding the loop open gets a moment, then the process ends.
    setTimeout(() => process.exit(0), EXIT_FALLBACK_MS).unref();
  });

  // ZeroMQ's slow joiner: a client that asks at once would miss the outputs of its
  // first request, so wait (a little) for an iopub subscriber before answering.
  await Promise.race([io.subscribed, new Promise((resolve) => setTimeout(resolve, IOPUB_SUBSCRIBER_WAIT_MS).unref())]);
  // Two more threads: not on the way to the first replies.
  setTimeout(() => (watchdogHold = SigintWatchdogHold.start(runningRequest.buffer, sigintListener)), WATCHDOG_HOLD_AFTER_MS).unref();
  options.setJitFlags?.();
  await kernel.serve();
}
