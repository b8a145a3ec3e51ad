// The IO worker's service, loaded once its sockets are bound (io-worker.ts): heartbeat and control
// (kernel_info, interrupt, shutdown) are answered, and control's busy/idle published, even while
// a cell blocks the main thread for minutes. The main thread posts its already signed iopub
// frames here to be sent in order.
import { parentPort, workerData } from 'node:worker_threads';
import type * as zmq from 'zeromq';
import { createDispatcher } from '../dispatch.js';
import { wakeWaits } from '../language-session.js';
import type { DispatchTable } from '../dispatch.js';
import { createMessage, encodeMessage, type Content } from '../wire/message.js';
import { queuedSender } from '../wire/send-queue.js';
import { createSigner, ReplayGuard } from '../wire/signature.js';
import { interruptSignaller } from './interrupt-signal.js';
import { ownWorkRunning } from './own-work.js';
import { RunningRequest } from './running-request.js';
import { terminateStuckCellCode } from './terminate-cell-code.js';
import type { FromWorker, IoWorkerData, ToWorker } from './worker-messages.js';

/** How often to check that the process that launched the kernel is still alive. */
const PARENT_POLL_MS = 1000;
/**
 * How long the main thread gets to shut down cleanly (it closes the TPU session first) before
 * the process is ended anyway; under jupyter_client's 5 s wait before it kills a kernel.
 */
const SHUTDOWN_GRACE_MS = 4000;
/** How often the grace looks again while the main thread is in the kernel's own work. */
const OWN_WORK_POLL_MS = 100;

export interface IoSockets {
  heartbeat: zmq.Reply;
  control: zmq.Router;
  iopub: zmq.XPublisher;
}

/** Serves the bound sockets until the main thread closes them; posts 'ready' once serving. */
export function serveIo({ heartbeat, control, iopub: iopubSocket }: IoSockets): void {
  const { connection, session, runningRequest, ownWork } = workerData as IoWorkerData;
  const running = new RunningRequest(runningRequest);
  /** Wakes the session's blocking waits (the tensor runtime's device waits), once the session has handed them. */
  let wakeDeviceWaits = () => undefined as void;
  const interrupt = interruptSignaller(running, {
    tell: (request) => post({ type: 'interrupt', request }),
    wakeDeviceWaits: () => wakeDeviceWaits(),
    raiseSigint: () => process.kill(process.pid, 'SIGINT'),
    terminateStuckCellCode: (unread) => void terminateStuckCellCode(unread, log),
  });
  let setKernelInfo: (content: Content) => void = () => undefined;
  const kernelInfo = new Promise<Content>((resolve) => (setKernelInfo = resolve));
  const port = parentPort!;
  const post = (message: FromWorker) => port.postMessage(message);
  const log = (text: string) => process.stderr.write(`[tpu-kernel io] ${text}\n`);

  const sockets = [heartbeat, control, iopubSocket];
  const iopub = queuedSender(iopubSocket, (e) => log(`iopub send failed: ${e}`));
  const controlReplies = queuedSender(control, (e) => log(`control send failed: ${e}`));

  let shutdown: { restart: boolean } | undefined;
  const table: DispatchTable = {
    kernel_info_request: { channel: 'control', handler: () => kernelInfo },
    interrupt_request: {
      channel: 'control',
      handler: () => {
        interrupt();
        return { status: 'ok' };
      },
    },
    shutdown_request: {
      channel: 'control',
      handler: ({ request }) => {
        shutdown = { restart: request.content.restart === true };
        return { status: 'ok', restart: shutdown.restart };
      },
    },
  };

  const signer = createSigner(connection.signature_scheme, connection.key);
  const { dispatch } = createDispatcher({
    session,
    signer,
    replays: new ReplayGuard(),
    table,
    iopub,
    replies: { control: controlReplies, shell: controlReplies },
    log,
  });

  async function closeAndExit(): Promise<void> {
    await iopub.flushed();
    for (const socket of sockets) socket.close();
    port.close();
  }

  async function serveHeartbeat() {
    for await (const frames of heartbeat) await heartbeat.send(frames);
  }

  /**
   * JEP 65: a new subscription gets an iopub_welcome (no parent, the subscribed topic as its ZeroMQ
   * topic and in `subscription`), so a client knows its subscription is live before it sends requests.
   */
  async function welcomeSubscribers() {
    let first = true;
    for await (const [frame] of iopubSocket) {
      if (frame?.[0] !== 1) continue; // 0: an unsubscription
      const topic = frame.subarray(1);
      const welcome = createMessage(session, 'iopub_welcome', { subscription: topic.toString('utf8') }, undefined, { identities: [topic] });
      void iopub.send(encodeMessage(welcome, signer));
      if (first) post({ type: 'subscribed' });
      first = false;
    }
  }

  async function serveControl() {
    for await (const frames of control) {
      await dispatch('control', frames);
      if (shutdown) {
        post({ type: 'shutdown', restart: shutdown.restart });
        interrupt(); // a cell that blocks the main thread stops, so the shutdown runs there cleanly
        endIfStuck(SHUTDOWN_GRACE_MS);
        return;
      }
    }
  }

  /**
   * If the main thread still has not ended the process after the grace (a loop nothing stops),
   * ends it from here. The grace counts from the end of the kernel's own work (own-work.ts): at
   * load 12-17 the language service's background build, started after a cell, outlasted the
   * grace and a shutdown sent just then ended in SIGKILL (iopub had long been sent).
   */
  function endIfStuck(graceMs: number): void {
    setTimeout(async () => {
      if (ownWorkRunning(ownWork)) {
        while (ownWorkRunning(ownWork)) await new Promise((resolve) => setTimeout(resolve, OWN_WORK_POLL_MS).unref());
        return endIfStuck(SHUTDOWN_GRACE_MS);
      }
      await iopub.flushed();
      process.kill(process.pid, 'SIGKILL');
    }, graceMs).unref();
  }

  // An orphaned kernel (its launcher died without shutting it down) ends itself, as ipykernel does.
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid === launcher) return;
    log(`the launching process ${launcher} is gone: exiting`);
    process.kill(process.pid, 'SIGKILL');
  }, PARENT_POLL_MS).unref();

  port.on('message', (message: ToWorker) => {
    if (message.type === 'kernel-info') setKernelInfo(message.content);
    else if (message.type === 'iopub') {
      for (const frames of message.messages) void iopub.send(frames.map((f) => (typeof f === 'string' ? f : Buffer.from(f.buffer, f.byteOffset, f.byteLength))));
    }
    else if (message.type === 'close') void closeAndExit();
    else if (message.type === 'interrupt-wake') {
      const wake = message.wake;
      wakeDeviceWaits = () => wakeWaits(wake);
    }
  });

  post({ type: 'ready' });
  serveHeartbeat().catch((e) => heartbeat.closed || log(`heartbeat stopped: ${e}`));
  serveControl().catch((e) => control.closed || log(`control stopped: ${e}`));
  welcomeSubscribers().catch((e) => iopubSocket.closed || log(`iopub subscriptions: ${e}`));
}
