// A device thread's end of the emulated inter-chip interconnect: a MessagePort to every other
// chip (data moves by transfer, no copy on the way) and one shared word per chip that a sender
// bumps and notifies, so a receiver blocks in Atomics.wait instead of spinning. Chips of a
// group run their collectives in the same order (one controller enqueues them), so the next
// message from a peer is for the collective at hand. Each message carries its number on its
// link: a peer that gave up waiting (the timeout) counts the message it never got, and drops
// it when it comes late, so the links are in step again for the next collective.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { StorageArray } from '../../dtype.js';
import type { FailureRoot, IciEnd } from '../protocol.js';

/**
 * What a chip sends when its input failed (an earlier error in its program): its peers still
 * exchange everything with it, so every link stays in step, then fail with its reason and the
 * launch where it began (the host reports one failure once, whichever chip it reads first).
 */
export class Failed {
  constructor(readonly message: string, readonly root: FailureRoot) {}
}

export type Payload = StorageArray | Failed;

const WAIT_SLICE_MS = 100;

type Message = { seq: number; data: StorageArray } | { seq: number; failed: string; root: FailureRoot };

export class IciLinks {
  private readonly words: Int32Array;
  /** Messages sent to each peer, and those expected from each (received or given up on). */
  private readonly sent: number[];
  private readonly expected: number[];
  /** Bytes sent since the last progress report (the profile's collective traffic). */
  bytesSent = 0;

  constructor(readonly chip: number, private readonly end: IciEnd) {
    this.words = new Int32Array(end.signal);
    this.sent = end.ports.map(() => 0);
    this.expected = end.ports.map(() => 0);
  }

  private port(peer: number): MessagePort {
    const p = this.end.ports[peer];
    if (!p) throw new Error(`interconnect: chip ${this.chip} has no link to chip ${peer}`);
    return p;
  }

  /** Sends a copy of `data` (the caller may keep using its array), or why this chip has none. */
  send(peer: number, data: Payload): void {
    const seq = this.sent[peer]!++;
    if (data instanceof Failed) this.port(peer).postMessage({ seq, failed: data.message, root: data.root } satisfies Message);
    else {
      const copy = data.slice();
      this.bytesSent += copy.byteLength; // before the transfer detaches it
      this.port(peer).postMessage({ seq, data: copy } satisfies Message, [copy.buffer as ArrayBuffer]);
    }
    Atomics.add(this.words, peer, 1);
    Atomics.notify(this.words, peer);
  }

  /** Counts `peer`'s next message as received without waiting: when it comes, it is dropped. */
  giveUp(peer: number): void {
    this.expected[peer]!++;
  }

  /** Blocks until `peer`'s next message arrives. */
  receive(peer: number, what: string): Payload {
    const port = this.port(peer);
    const timeout = this.end.peerTimeoutMs;
    const deadline = Date.now() + timeout;
    const seq = this.expected[peer]!++;
    for (;;) {
      const seen = Atomics.load(this.words, this.chip);
      const m = receiveMessageOnPort(port);
      if (m) {
        const msg = m.message as Message;
        if (msg.seq < seq) continue; // for a collective this chip gave up waiting for
        return 'failed' in msg ? new Failed(msg.failed, msg.root) : msg.data;
      }
      if (Atomics.load(this.words, this.words.length - 1) !== 0) throw new Error(`${what}: the session was closed while chip ${this.chip} waited for chip ${peer}`);
      if (Date.now() > deadline) throw new Error(`${what}: chip ${this.chip} waited ${timeout / 1000} s for chip ${peer}, which never reached the collective`);
      Atomics.wait(this.words, this.chip, seen, WAIT_SLICE_MS);
    }
  }
}
