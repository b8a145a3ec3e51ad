// zeromq v6 rejects a send while another is in flight on the same socket
// ("socket is busy"): every outgoing message goes through one queue per socket.
import type { Frame } from './message.js';

export interface FrameSink {
  send(frames: Frame[]): Promise<void>;
}

/** Iopub as the main thread sees it: sends may be held, then handed on together. */
export interface HoldableSink extends FrameSink {
  /** Until the returned release is called, sends wait; the release hands them on at once, in order. */
  hold(): () => void;
}

export interface QueuedSender extends FrameSink {
  /** Resolves when every frame queued so far has been handed to the socket. */
  flushed(): Promise<void>;
}

export function queuedSender(socket: { send(frames: Frame[]): Promise<void> }, onError: (e: unknown) => void): QueuedSender {
  let tail: Promise<void> = Promise.resolve();
  return {
    send(frames) {
      tail = tail.then(() => socket.send(frames)).catch(onError);
      return tail;
    },
    flushed: () => tail,
  };
}
