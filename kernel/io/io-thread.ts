// Main-thread side of the IO worker: starts it, forwards signed iopub frames,
// reports shutdown requests, and closes it the only safe way (the worker
// closes its own zeromq sockets; worker.terminate() with open sockets aborts).
import { Worker } from 'node:worker_threads';
import type { InterruptWake } from '../language-session.js';
import type { Content, Frame } from '../wire/message.js';
import type { HoldableSink } from '../wire/send-queue.js';
import type { FromWorker, IoWorkerData, ToWorker } from './worker-messages.js';

export interface IoThread {
  /** Each send (or each release of a hold) is one message to the worker, which wakes for it. */
  iopub: HoldableSink;
  /** Control answers kernel_info_request once this has been given. */
  setKernelInfo(content: Content): void;
  /** The session's blocking waits, once it has them: interrupt_request also wakes them. */
  setInterruptWake(wake: InterruptWake): void;
  onShutdown(listener: (restart: boolean) => void): void;
  /** interrupt_request for the shell request `request` (RunningRequest's id). */
  onInterrupt(listener: (request: number) => void): void;
  /** Resolves when the first client has subscribed to iopub. */
  subscribed: Promise<void>;
  /** Sends what is queued, closes heartbeat/control/iopub and waits for the worker to exit. */
  close(): Promise<void>;
}

export async function startIoThread(data: IoWorkerData): Promise<IoThread> {
  const worker = new Worker(new URL('./io-worker.js', import.meta.url), { workerData: data });
  const post = (message: ToWorker) => worker.postMessage(message);
  let shutdownListener: (restart: boolean) => void = () => undefined;
  let interruptListener: (request: number) => void = () => undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let onSubscribed = () => undefined as void;
  const subscribed = new Promise<void>((resolve) => (onSubscribed = resolve));
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'failed') reject(new Error(message.message));
      else if (message.type === 'shutdown') shutdownListener(message.restart);
      else if (message.type === 'interrupt') interruptListener(message.request);
      else if (message.type === 'subscribed') onSubscribed();
    });
    worker.once('error', reject);
    void exited.then(() => reject(new Error('IO worker exited before binding its sockets')));
  });
  let holds = 0;
  const held: Frame[][] = [];
  return {
    subscribed,
    iopub: {
      async send(frames) {
        if (holds) held.push(frames);
        else post({ type: 'iopub', messages: [frames] });
      },
      hold() {
        holds++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          if (--holds === 0 && held.length) post({ type: 'iopub', messages: held.splice(0) });
        };
      },
    },
    setKernelInfo(content) {
      post({ type: 'kernel-info', content });
    },
    setInterruptWake(wake) {
      post({ type: 'interrupt-wake', wake });
    },
    onShutdown(listener) {
      shutdownListener = listener;
    },
    onInterrupt(listener) {
      interruptListener = listener;
    },
    async close() {
      post({ type: 'close' });
      await exited;
    },
  };
}
