// Jupyter wire format: [identities..., '<IDS|MSG>', signature, header,
// parent_header, metadata, content, buffers...], and message construction.
import { randomUUID } from 'node:crypto';
import type { Signer, ReplayGuard } from './signature.js';

export const PROTOCOL_VERSION = '5.4';
const DELIMITER = '<IDS|MSG>';

/**
 * An outgoing frame. Text (the delimiter, signature, JSON parts, an iopub topic) is a string,
 * binary data (identities, buffers) a Buffer. Strings are what the sockets and threads handle
 * best: ZeroMQ copies a string and frees the copy itself, where a Buffer over 128 bytes is sent
 * without a copy and handed back to the sending thread's module state when ZeroMQ is done; the
 * IO worker's state is freed at its end, before ZeroMQ's last frames (that release then wrote
 * into freed memory: SIGABRT at exit). And `postMessage` to the IO worker copies a Buffer's
 * whole backing store: a small Buffer is a slice of Node's 8 KB pool, so each iopub message
 * copied tens of KB on each thread for a few hundred bytes of text.
 */
export type Frame = Buffer | string;

export interface MessageHeader {
  msg_id: string;
  msg_type: string;
  session: string;
  username: string;
  date: string;
  version: string;
  [key: string]: unknown;
}

export type Content = Record<string, unknown>;

export interface Message {
  identities: Frame[];
  header: MessageHeader;
  parent_header: Partial<MessageHeader>;
  metadata: Record<string, unknown>;
  content: Content;
  buffers: Buffer[];
}

/** Why an incoming message was dropped. */
export class WireError extends Error {}

/**
 * A signed message with a valid header whose content is not a JSON object: it can be
 * answered (an error reply) instead of dropped. `request` carries an empty content.
 */
export class ContentError extends WireError {
  constructor(readonly request: Message, content: unknown) {
    super(`${request.header.msg_type}: content must be a JSON object, got ${JSON.stringify(content)}`);
  }
}

/** A request's messages (busy, outputs, reply, idle) share its header as their parent: stringified once. */
let lastParent: { header: object; json: string } | undefined;
function parentJson(header: Partial<MessageHeader>): string {
  if (lastParent?.header !== header) lastParent = { header, json: JSON.stringify(header) };
  return lastParent.json;
}

export function encodeMessage(message: Message, signer: Signer): Frame[] {
  const parts = [JSON.stringify(message.header), parentJson(message.parent_header), JSON.stringify(message.metadata), JSON.stringify(message.content)];
  return [...message.identities, DELIMITER, signer.sign(parts), ...parts, ...message.buffers];
}

const DELIMITER_BYTES = Buffer.from(DELIMITER);
const isDelimiter = (frame: Frame) => (typeof frame === 'string' ? frame === DELIMITER : frame.equals(DELIMITER_BYTES));

/** Verifies, rejects replays and parses; throws WireError naming what is wrong. */
export function decodeMessage(frames: readonly Frame[], signer: Signer, replays: ReplayGuard): Message {
  const split = frames.findIndex(isDelimiter);
  if (split < 0) throw new WireError(`no <IDS|MSG> delimiter among ${frames.length} frames`);
  if (frames.length < split + 6) throw new WireError(`expected at least 5 frames after the delimiter, got ${frames.length - split - 1}`);
  const signature = frames[split + 1]!.toString('latin1');
  const parts = frames.slice(split + 2, split + 6).map((part) => part.toString('utf8'));
  if (!signer.verify(signature, parts)) throw new WireError(signature === '' ? 'unsigned message' : 'bad signature');
  if (!replays.accept(signature)) throw new WireError('replayed message (signature seen before)');
  const [header, parent_header, metadata, content] = parts.map((part, i) => {
    try {
      return JSON.parse(part) as unknown;
    } catch (e) {
      throw new WireError(`frame ${i} after the signature is not JSON: ${(e as Error).message}`);
    }
  });
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  for (const [i, part] of [header, parent_header, metadata].entries()) {
    if (!isObject(part)) throw new WireError(`frame ${i} after the signature must be a JSON object`);
  }
  if (typeof (header as Content).msg_type !== 'string') throw new WireError('header.msg_type missing');
  const message: Message = {
    identities: frames.slice(0, split),
    header: header as MessageHeader,
    parent_header: parent_header as Partial<MessageHeader>,
    metadata: metadata as Content,
    content: isObject(content) ? content : {},
    buffers: frames.slice(split + 6).map(asBuffer),
  };
  if (!isObject(content)) throw new ContentError(message, content);
  return message;
}

const asBuffer = (frame: Frame) => (typeof frame === 'string' ? Buffer.from(frame) : frame);

/** A new message from this kernel; replies reuse the parent's identities to route back. */
export function createMessage(
  session: string,
  msgType: string,
  content: Content,
  parent?: Message,
  options: { identities?: Frame[]; metadata?: Record<string, unknown>; buffers?: Buffer[] } = {},
): Message {
  return {
    identities: options.identities ?? parent?.identities ?? [],
    header: {
      msg_id: randomUUID(),
      msg_type: msgType,
      session,
      username: parent?.header.username ?? 'kernel',
      date: new Date().toISOString(),
      version: PROTOCOL_VERSION,
    },
    parent_header: parent?.header ?? {},
    metadata: options.metadata ?? {},
    content,
    buffers: options.buffers ?? [],
  };
}

/** Iopub messages carry the topic as their only identity. */
export function iopubTopic(msgType: string): Frame[] {
  return [`kernel.${msgType}`];
}
