// Wire-level units: HMAC signatures (reference digest from node:crypto by hand),
// replay memory, frame parsing errors, and history glob patterns.
import { createHmac } from 'node:crypto';
import { expect, it } from 'vitest';
import { globToRegExp } from '../../kernel/history/glob.js';
import { createMessage, decodeMessage, encodeMessage } from '../../kernel/wire/message.js';
import { createSigner, ReplayGuard } from '../../kernel/wire/signature.js';

it('signs header, parent, metadata and content with hmac-sha256 of the key', () => {
  const message = createMessage('s', 'kernel_info_request', {});
  const frames = encodeMessage(message, createSigner('hmac-sha256', 'k'));
  const hmac = createHmac('sha256', 'k');
  for (const part of frames.slice(2, 6)) hmac.update(part);
  expect(frames[0]!.toString()).toBe('<IDS|MSG>');
  expect(frames[1]!.toString()).toBe(hmac.digest('hex'));
  expect(JSON.parse(frames[2]!.toString()).msg_type).toBe('kernel_info_request');
});

// Text frames are strings: ZeroMQ copies a string (a Buffer over 128 bytes it sends without a copy
// and hands back to the sending thread, which the IO worker may no longer have at exit), and
// postMessage copies a Buffer's whole backing store (Node's 8 KB pool for a small one).
it('encodes the delimiter, signature and JSON parts as strings, identities and buffers as the same Buffers', () => {
  const identity = Buffer.from([0, 0x80, 0xff, 7]);
  const binary = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
  const message = createMessage('s', 'stream', { name: 'stdout', text: 'π ≈ 3.14159 — ✓ 𝔼\n'.repeat(20) }, undefined, { identities: [identity], buffers: [binary] });
  const frames = encodeMessage(message, createSigner('hmac-sha256', 'k'));
  expect(frames.map((frame) => typeof frame)).toEqual(['object', 'string', 'string', 'string', 'string', 'string', 'string', 'object']);
  expect(frames[0]).toBe(identity);
  expect(frames[7]).toBe(binary);
  // ZeroMQ sends a string as its UTF-8 bytes: the signature is over those bytes
  const hmac = createHmac('sha256', 'k');
  for (const part of frames.slice(3, 7)) hmac.update(Buffer.from(part as string, 'utf8'));
  expect(frames[2]).toBe(hmac.digest('hex'));
  expect(JSON.parse(frames[6] as string).text).toBe(message.content.text);
  // as they arrive from a socket (Buffers) they decode to the same message
  const decoded = decodeMessage(frames.map((frame) => Buffer.from(frame)), createSigner('hmac-sha256', 'k'), new ReplayGuard());
  expect(decoded.content).toEqual(message.content);
  expect(decoded.identities).toEqual([identity]);
  expect(decoded.buffers).toEqual([binary]);
});

it('rejects bad signatures, replays and malformed frames with a reason', () => {
  const signer = createSigner('hmac-sha256', 'k');
  const frames = encodeMessage(createMessage('s', 'execute_request', { code: '1' }), signer);
  const guard = new ReplayGuard();
  expect(decodeMessage(frames, signer, guard).content).toEqual({ code: '1' });
  expect(() => decodeMessage(frames, signer, guard)).toThrow('replayed message (signature seen before)');
  expect(() => decodeMessage(frames, createSigner('hmac-sha256', 'other'), new ReplayGuard())).toThrow('bad signature');
  expect(() => decodeMessage([Buffer.from('x')], signer, guard)).toThrow('no <IDS|MSG> delimiter among 1 frames');
  expect(() => decodeMessage(frames.slice(0, 4), signer, guard)).toThrow('expected at least 5 frames after the delimiter, got 3');
  expect(() => createSigner('sha256', 'k')).toThrow('signature_scheme must look like "hmac-sha256", got "sha256"');
});

it('forgets the oldest signature beyond its capacity', () => {
  const guard = new ReplayGuard(2);
  expect([guard.accept('a'), guard.accept('b'), guard.accept('a'), guard.accept('c'), guard.accept('a')]).toEqual([true, true, false, true, true]);
});

it('matches history globs like SQLite GLOB', () => {
  const cases: [string, string, boolean][] = [
    ['a*', 'a + 1', true],
    ['a*', 'ba', false],
    ['6?7', '6*7', true],
    ['6?7', '6**7', false],
    ['x[0-9]', 'x5', true],
    ['x[^0-9]', 'x5', false],
    ['1.5', '125', false],
    ['*(y)*', 'f(y) + 1', true],
  ];
  for (const [pattern, text, expected] of cases) expect([pattern, text, globToRegExp(pattern).test(text)]).toEqual([pattern, text, expected]);
});
