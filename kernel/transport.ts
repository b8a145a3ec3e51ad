// What the shell side of the kernel needs from its sockets, so it runs over
// ZeroMQ in production and over an in-memory twin in handler tests.
import type { FrameSink, HoldableSink } from './wire/send-queue.js';

export interface DuplexChannel extends FrameSink {
  /** Incoming frame sets, in arrival order; ends when the channel closes. */
  receive(): AsyncIterable<Buffer[]>;
  /** True when more incoming messages are already waiting. */
  hasPending(): boolean;
}

export interface ShellTransport {
  shell: DuplexChannel;
  stdin: DuplexChannel;
  iopub: HoldableSink;
}
