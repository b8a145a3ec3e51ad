// HMAC signing of messages (the connection file's signature_scheme and key),
// constant-time verification, and a bounded memory of signatures already seen.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

export interface Signer {
  /** Hex digest over header, parent_header, metadata, content (as UTF-8); '' when the key is empty. */
  sign(parts: readonly string[]): string;
  /** True when the signature matches (always true when signing is off). */
  verify(signature: string, parts: readonly string[]): boolean;
}

export function createSigner(scheme: string, key: string): Signer {
  if (key === '') return { sign: () => '', verify: () => true };
  const match = /^hmac-(.+)$/.exec(scheme);
  if (!match) throw new Error(`signature_scheme must look like "hmac-sha256", got ${JSON.stringify(scheme)}`);
  const algorithm = match[1]!;
  // A key object made once: given the string, every createHmac converted it to bytes again.
  const secret = createSecretKey(Buffer.from(key, 'utf8'));
  const sign = (parts: readonly string[]) => {
    const hmac = createHmac(algorithm, secret);
    for (const part of parts) hmac.update(part);
    return hmac.digest('hex');
  };
  return {
    sign,
    verify(signature, parts) {
      const expected = Buffer.from(sign(parts), 'latin1');
      const actual = Buffer.from(signature, 'latin1');
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

/** Remembers the last `capacity` signatures to reject replayed messages. */
export class ReplayGuard {
  private readonly seen = new Set<string>();
  constructor(private readonly capacity = 65_536) {}

  /** False when the signature was seen before; records it otherwise. */
  accept(signature: string): boolean {
    if (signature === '') return true; // signing off: nothing to compare
    if (this.seen.has(signature)) return false;
    this.seen.add(signature);
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.values().next().value!);
    return true;
  }
}
