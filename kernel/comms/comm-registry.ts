// The comm registry (both directions): frontends open comms to registered
// targets, cells open comms to frontend targets; comm_open to an unknown
// target is answered with comm_close, as ipykernel does.
import { randomUUID } from 'node:crypto';
import type { Comm, CommRegistry } from '../language-session.js';
import type { PublishExtras } from '../dispatch.js';
import type { Content } from '../wire/message.js';

export type CommPublish = (msgType: 'comm_open' | 'comm_msg' | 'comm_close', content: Content, extras?: PublishExtras) => void;

type MsgHandler = (data: unknown, buffers: ArrayBuffer[]) => void;
type CloseHandler = (data: unknown) => void;

const toBuffers = (buffers: ArrayBuffer[] = []) => buffers.map((b) => Buffer.from(b));
const toArrayBuffers = (buffers: Buffer[]) =>
  buffers.map((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

class OpenComm implements Comm {
  private readonly msgHandlers: MsgHandler[] = [];
  private readonly closeHandlers: CloseHandler[] = [];
  closed = false;

  constructor(
    readonly commId: string,
    readonly targetName: string,
    private readonly publish: CommPublish,
    private readonly forget: (commId: string) => void,
  ) {}

  send(data: unknown, metadata?: Record<string, unknown>, buffers?: ArrayBuffer[]): void {
    if (this.closed) throw new Error(`comm ${this.commId} (target ${this.targetName}) is closed: send() is not possible`);
    this.publish('comm_msg', { comm_id: this.commId, data: data ?? {} }, { metadata, buffers: toBuffers(buffers) });
  }

  close(data?: unknown): void {
    if (this.closed) return;
    this.publish('comm_close', { comm_id: this.commId, data: data ?? {} });
    this.closedByPeer(data, false);
  }

  onMsg(handler: MsgHandler): void {
    this.msgHandlers.push(handler);
  }

  onClose(handler: CloseHandler): void {
    this.closeHandlers.push(handler);
  }

  received(data: unknown, buffers: Buffer[]): void {
    for (const handler of this.msgHandlers) handler(data, toArrayBuffers(buffers));
  }

  closedByPeer(data: unknown, notify = true): void {
    this.closed = true;
    this.forget(this.commId);
    if (notify) for (const handler of this.closeHandlers) handler(data);
  }
}

export class Comms implements CommRegistry {
  private readonly targets = new Map<string, (comm: Comm, data: unknown) => void>();
  private readonly comms = new Map<string, OpenComm>();

  constructor(private readonly publish: CommPublish) {}

  registerTarget(targetName: string, onOpen: (comm: Comm, data: unknown) => void): void {
    this.targets.set(targetName, onOpen);
  }

  open(targetName: string, data?: unknown, metadata?: Record<string, unknown>): Comm {
    const comm = this.create(randomUUID(), targetName);
    this.publish('comm_open', { comm_id: comm.commId, target_name: targetName, data: data ?? {} }, { metadata });
    return comm;
  }

  /** comm_open from a frontend. */
  opened(content: Content): void {
    const commId = String(content.comm_id);
    const targetName = String(content.target_name);
    const onOpen = this.targets.get(targetName);
    if (!onOpen) {
      this.publish('comm_close', { comm_id: commId, data: { error: `no comm target named ${JSON.stringify(targetName)}` } });
      return;
    }
    onOpen(this.create(commId, targetName), content.data);
  }

  /** comm_msg from a frontend. */
  message(content: Content, buffers: Buffer[]): void {
    this.comms.get(String(content.comm_id))?.received(content.data, buffers);
  }

  /** comm_close from a frontend. */
  closed(content: Content): void {
    this.comms.get(String(content.comm_id))?.closedByPeer(content.data);
  }

  /** comm_info_reply's comms, optionally for one target. */
  info(targetName?: string): Record<string, { target_name: string }> {
    const entries = [...this.comms.values()].filter((c) => targetName === undefined || c.targetName === targetName);
    return Object.fromEntries(entries.map((c) => [c.commId, { target_name: c.targetName }]));
  }

  private create(commId: string, targetName: string): OpenComm {
    const comm = new OpenComm(commId, targetName, this.publish, (id) => this.comms.delete(id));
    this.comms.set(commId, comm);
    return comm;
  }
}
