// The shell side of a kernel over any ShellTransport: the language session,
// the shell dispatch table (execute, complete, inspect, is_complete, history,
// comms, kernel_info) and stdin, served one request at a time.
import { Comms } from './comms/comm-registry.js';
import { createDispatcher } from './dispatch.js';
import type { DispatchTable, RequestTracker } from './dispatch.js';
import { commRoutes } from './handlers/comm.js';
import { executeHandler } from './handlers/execute.js';
import type { ExecutionState } from './handlers/execute.js';
import { historyRoutes } from './handlers/history.js';
import { kernelInfoContent } from './handlers/kernel-info.js';
import { languageRoutes } from './handlers/language.js';
import { HistoryStore } from './history/history-store.js';
import type { LanguageSession, SessionFactory, SessionOptions, SigintGate } from './language-session.js';
import { StdinChannel } from './stdin-channel.js';
import type { ShellTransport } from './transport.js';
import type { Message } from './wire/message.js';
import { queuedSender } from './wire/send-queue.js';
import type { ReplayGuard, Signer } from './wire/signature.js';
import { practiseProtocol } from './wire/protocol-practice.js';

export interface ShellKernelOptions {
  transport: ShellTransport;
  sessionFactory: SessionFactory;
  sessionId: string;
  signer: Signer;
  /** Shared by shell and stdin: a replay across them is a replay too. */
  replays: ReplayGuard;
  historyPath: string;
  cwd: string;
  log: (text: string) => void;
  /** Told when each shell request starts and ends (the IO worker aims its interrupts with it). */
  requestTracker?: RequestTracker;
  /** Passed to the session (SessionOptions.shareInterruptWake and sigintGate). */
  shareInterruptWake?: SessionOptions['shareInterruptWake'];
  sigintGate?: SigintGate;
}

export interface ShellKernel {
  session: LanguageSession;
  /** Serves until the shell channel ends. */
  serve(): Promise<void>;
  /** An interrupt (SIGINT): stops awaited work and a waiting input(). */
  interrupt(): void;
  /**
   * Resolves when the request in flight has been answered (waiting at most `ms`: an interrupted
   * cell settles at once) and every queued shell reply has been handed to the transport.
   */
  flushed(ms?: number): Promise<void>;
}

export function createShellKernel(options: ShellKernelOptions): ShellKernel {
  const { transport, sessionId, signer, replays, log } = options;
  let current: Message | undefined; // parent of kernel-initiated messages (comms)
  let publish: ReturnType<typeof createDispatcher>['publish'] = () => undefined;
  const comms = new Comms((msgType, content, extras) => publish(msgType, content, current, extras));
  const session = options.sessionFactory({ cwd: options.cwd, comms, shareInterruptWake: options.shareInterruptWake, sigintGate: options.sigintGate, practice: (code) => practiseProtocol(code, sessionId, signer) });
  const shellReplies = queuedSender(transport.shell, (e) => log(`shell send failed: ${e}`));
  const stdin = new StdinChannel(sessionId, signer, replays, queuedSender(transport.stdin, (e) => log(`stdin send failed: ${e}`)), log);

  const state: ExecutionState = { executionCount: 0, aborting: false };
  const history = new HistoryStore(options.historyPath, log);
  const routes: DispatchTable = {
    kernel_info_request: { channel: 'shell', handler: () => kernelInfoContent(session.kernelInfo) },
    execute_request: { channel: 'shell', handler: executeHandler(session, state, history, stdin, () => transport.shell.hasPending()), publishesAtOnce: true },
    ...languageRoutes(session),
    ...historyRoutes(history),
    ...commRoutes(comms, session, stdin),
  };
  const table: DispatchTable = Object.fromEntries(
    Object.entries(routes).map(([type, route]) => [type, { ...route, handler: (context) => ((current = context.request), route.handler(context)) }]),
  );
  const dispatcher = createDispatcher({
    session: sessionId,
    signer,
    replays,
    table,
    iopub: transport.iopub,
    replies: { shell: shellReplies, control: shellReplies },
    aborting: () => state.aborting,
    // stop_on_error aborts what was already queued when the failure happened, nothing sent after
    // the last aborted request's idle
    beforeIdle: (channel) => {
      if (channel === 'shell' && state.aborting && !transport.shell.hasPending()) state.aborting = false;
    },
    log,
    tracker: options.requestTracker,
  });
  publish = dispatcher.publish;

  async function serveStdin() {
    for await (const frames of transport.stdin.receive()) stdin.receive(frames);
  }

  let inFlight: Promise<void> = Promise.resolve();
  return {
    session,
    async serve() {
      void serveStdin().catch((e) => log(`stdin stopped: ${e}`));
      for await (const frames of transport.shell.receive()) {
        await (inFlight = dispatcher.dispatch('shell', frames).catch((e) => log(`shell dispatch failed: ${(e as Error).stack ?? e}`)));
      }
    },
    interrupt() {
      session.interrupt();
      stdin.cancel('input() was interrupted');
    },
    async flushed(ms = 1000) {
      await Promise.race([inFlight, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
      await shellReplies.flushed();
    },
  };
}
