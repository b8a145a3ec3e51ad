// In-memory twin of the kernel's ShellTransport (like xeus's mock server):
// handler tests push frames in and read what the kernel sent, no sockets.
import type { DuplexChannel, ShellTransport } from '../../kernel/transport.js';
import type { HoldableSink } from '../../kernel/wire/send-queue.js';

export class MemoryChannel implements DuplexChannel {
  /** Everything the kernel sent on this channel. */
  readonly sent: Buffer[][] = [];
  private readonly incoming: Buffer[][] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private sentListeners: (() => void)[] = [];

  async send(frames: Buffer[]): Promise<void> {
    this.sent.push(frames);
    for (const listener of this.sentListeners.splice(0)) listener();
  }

  /** Deliver frames to the kernel as if a client sent them. */
  push(frames: Buffer[]): void {
    this.incoming.push(frames);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  hasPending(): boolean {
    return this.incoming.length > 0;
  }

  async *receive(): AsyncIterable<Buffer[]> {
    for (;;) {
      const next = this.incoming.shift();
      if (next) yield next;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Resolves at the next send. */
  nextSend(): Promise<void> {
    return new Promise((resolve) => this.sentListeners.push(resolve));
  }
}

/** Iopub: what a hold keeps back goes out in one hand-off at its release, as the IO thread posts it. */
export class MemoryIopub extends MemoryChannel implements HoldableSink {
  /** The messages of each hand-off, in order. */
  readonly handOffs: Buffer[][][] = [];
  private holds = 0;
  private held: Buffer[][] = [];

  override async send(frames: Buffer[]): Promise<void> {
    if (this.holds) this.held.push(frames);
    else this.handOff([frames]);
  }

  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && this.held.length) this.handOff(this.held.splice(0));
    };
  }

  private handOff(messages: Buffer[][]): void {
    this.handOffs.push(messages);
    for (const frames of messages) void super.send(frames);
  }
}

export function memoryTransport(): ShellTransport & { shell: MemoryChannel; stdin: MemoryChannel; iopub: MemoryIopub } {
  return { shell: new MemoryChannel(), stdin: new MemoryChannel(), iopub: new MemoryIopub() };
}
