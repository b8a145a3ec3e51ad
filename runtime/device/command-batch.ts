// Commands to the device thread are batched: numbers in one Float64Array stream (exec, free
// and restore, the hot commands) plus the rare structured ones, posted when the batch is full or
// at the end of the current task (a microtask), so a loop of ops costs one message per
// BATCH_LIMIT commands.
import { CommandEncoder, type Command, type HostMessage } from './protocol.js';
import type { DeviceBuffer } from './memory.js';

const BATCH_LIMIT = 256;

export class CommandBatch {
  private encoder = new CommandEncoder();
  private transfers: ArrayBuffer[] = [];
  private postScheduled = false;
  /** Launches in this batch. */
  launches = 0;

  /** `post` sends the batch (the session calls take() there). */
  constructor(private readonly post: () => void) {}

  exec(
    program: number, launch: number, ins: readonly DeviceBuffer[], outs: readonly DeviceBuffer[],
    scalars: readonly number[], reply: number,
  ): void {
    this.encoder.exec(program, launch, ins, outs, scalars, reply);
    this.launches++;
    this.added();
  }

  free(buffer: number): void {
    this.encoder.free(buffer);
    this.added();
  }

  /** Frees in this batch right after each buffer's last use in it (CommandEncoder.freeAfterLastUse); the batch is about to go out. */
  freeAfterLastUse(buffers: readonly number[]): void {
    this.encoder.freeAfterLastUse(buffers);
  }

  restore(buffer: number, from: number): void {
    this.encoder.restore(buffer, from);
    this.added();
  }

  /** A structured command; `transfer`: a buffer moved to the device thread with it. */
  object(cmd: Command, transfer?: ArrayBuffer): void {
    if (transfer) this.transfers.push(transfer);
    this.encoder.object(cmd);
    this.added();
  }

  get empty(): boolean {
    return this.encoder.count === 0;
  }

  /** The batch as one message and the buffers it transfers (null when empty); the next batch starts. */
  take(): { msg: HostMessage; transfers: ArrayBuffer[] } | null {
    this.postScheduled = false;
    this.launches = 0;
    if (this.encoder.count === 0) return null;
    const msg = this.encoder.take();
    const transfers = this.transfers;
    this.transfers = [];
    if (msg.t === 'batch' && msg.stream instanceof Float64Array) transfers.push(msg.stream.buffer as ArrayBuffer);
    return { msg, transfers };
  }

  private added(): void {
    if (this.encoder.count >= BATCH_LIMIT) this.post();
    else this.postSoon();
  }

  /** Posts at the end of the current task, if no post is scheduled yet. */
  postSoon(): void {
    if (this.postScheduled) return;
    this.postScheduled = true;
    queueMicrotask(() => this.post());
  }
}
