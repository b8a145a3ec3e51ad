// input_request / input_reply on the stdin channel, routed to the frontend
// that sent the execute_request (same ZeroMQ identities).
import { createMessage, decodeMessage, encodeMessage, WireError } from './wire/message.js';
import type { Message } from './wire/message.js';
import type { ReplayGuard, Signer } from './wire/signature.js';
import type { FrameSink } from './wire/send-queue.js';

export class StdinChannel {
  private pending: { resolve(value: string): void; reject(e: Error): void } | undefined;

  constructor(
    private readonly session: string,
    private readonly signer: Signer,
    private readonly replays: ReplayGuard,
    private readonly socket: FrameSink,
    private readonly log: (text: string) => void,
  ) {}

  /** Asks the frontend of `parent` for a line of input. */
  request(parent: Message, prompt: string, password: boolean): Promise<string> {
    if (this.pending) return Promise.reject(new Error('input(): another input request is still waiting for its reply'));
    const message = createMessage(this.session, 'input_request', { prompt, password }, parent);
    const answer = new Promise<string>((resolve, reject) => (this.pending = { resolve, reject }));
    void this.socket.send(encodeMessage(message, this.signer));
    return answer;
  }

  /** Feed every frame set received on the stdin socket here. */
  receive(frames: Buffer[]): void {
    let message: Message;
    try {
      message = decodeMessage(frames, this.signer, this.replays);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      this.log(`dropped a stdin message: ${e.message}`);
      return;
    }
    if (message.header.msg_type !== 'input_reply' || !this.pending) {
      this.log(`ignored an unexpected ${message.header.msg_type} on stdin`);
      return;
    }
    const { resolve } = this.pending;
    this.pending = undefined;
    resolve(String(message.content.value ?? ''));
  }

  /** An interrupt cancels a waiting input(). */
  cancel(reason: string): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(new Error(reason));
  }
}
