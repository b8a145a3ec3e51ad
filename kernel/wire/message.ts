// Jupyter wire format: [identities..., '<IDS|MSG>', signature, header,
// parent_header, metadata, content, buffers...], and message construction.
import { v4 as uuid } from 'uuid';
import type { Signer, ReplayGuard } from './signature.js';

export const PROTOCOL_VERSION = '5.4';
const DELIMITER = Buffer.from('<IDS|MSG>');
/** The signature and the four JSON parts follow the delimiter. */
const TEXT_FRAMES = 5;

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
  identities: Buffer[];
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

export function encodeMessage(message: Message, signer: Signer): Buffer[] {
  const parts = [message.header, message.parent_header, message.metadata, message.content].map((part) =>
    Buffer.from(JSON.stringify(part)),
  );
  return [...message.identities, DELIMITER, Buffer.from(signer.sign(parts)), ...parts, ...message.buffers];
}

/** Where the frames after the identities begin (-1: no delimiter). */
export const delimiterIndex = (frames: Buffer[]) => frames.findIndex((frame) => frame.equals(DELIMITER));

/** Whether frame `i` is the signature or a JSON part (UTF-8 text), given the delimiter's index. */
export const isTextFrame = (i: number, delimiter: number) => delimiter >= 0 && i > delimiter && i <= delimiter + TEXT_FRAMES;

/** Verifies, rejects replays and parses; throws WireError naming what is wrong. */
export function decodeMessage(frames: Buffer[], signer: Signer, replays: ReplayGuard): Message {
  const split = delimiterIndex(frames);
  if (split < 0) throw new WireError(`no <IDS|MSG> delimiter among ${frames.length} frames`);
  if (frames.length < split + 6) throw new WireError(`expected at least 5 frames after the delimiter, got ${frames.length - split - 1}`);
  const signature = frames[split + 1]!.toString('latin1');
  const parts = frames.slice(split + 2, split + 6);
  if (!signer.verify(signature, parts)) throw new WireError(signature === '' ? 'unsigned message' : 'bad signature');
  if (!replays.accept(signature)) throw new WireError('replayed message (signature seen before)');
  const [header, parent_header, metadata, content] = parts.map((part, i) => {
    try {
      return JSON.parse(part.toString('utf8')) as unknown;
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
    buffers: frames.slice(split + 6),
  };
  if (!isObject(content)) throw new ContentError(message, content);
  return message;
}

/** A new message from this kernel; replies reuse the parent's identities to route back. */
export function createMessage(
  session: string,
  msgType: string,
  content: Content,
  parent?: Message,
  options: { identities?: Buffer[]; metadata?: Record<string, unknown>; buffers?: Buffer[] } = {},
): Message {
  return {
    identities: options.identities ?? parent?.identities ?? [],
    header: {
      msg_id: uuid(),
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
export function iopubTopic(msgType: string): Buffer[] {
  return [Buffer.from(`kernel.${msgType}`)];
}
