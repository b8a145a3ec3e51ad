// The IO worker's frames for ZeroMQ: the signature and JSON parts as strings (ZeroMQ copies
// them), identities and binary buffers as the same Buffers; the bytes on the wire unchanged.
import { expect, it } from 'vitest';
import { copiedTextFrames } from '../../kernel/io/copied-frames.js';
import { createMessage, encodeMessage } from '../../kernel/wire/message.js';
import { createSigner } from '../../kernel/wire/signature.js';

it('turns the signature and JSON parts into strings of the same UTF-8 bytes, leaving identities and buffers', () => {
  const identity = Buffer.from([0, 0x80, 0xff, 7]);
  const binary = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
  const message = createMessage('s', 'stream', { name: 'stdout', text: 'π ≈ 3.14159 — ✓ 𝔼\n'.repeat(20) }, undefined, { identities: [identity], buffers: [binary] });
  const frames = encodeMessage(message, createSigner('hmac-sha256', 'k'));
  const copied = copiedTextFrames(frames);
  expect(copied.map((frame) => typeof frame)).toEqual(['object', 'object', 'string', 'string', 'string', 'string', 'string', 'object']);
  expect(copied[0]).toBe(identity);
  expect(copied[1]!.toString()).toBe('<IDS|MSG>');
  expect(copied[7]).toBe(binary);
  // ZeroMQ sends a string as its UTF-8 bytes: the same bytes the signature was computed over
  copied.forEach((frame, i) => expect(Buffer.from(frame as string).equals(frames[i]!)).toBe(true));
  expect(JSON.parse(copied[6] as string).text).toBe(message.content.text);
});

it('leaves frames without a delimiter as they are', () => {
  const frames = [Buffer.from('ping')];
  expect(copiedTextFrames(frames)).toEqual(frames);
});
