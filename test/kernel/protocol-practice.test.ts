// The protocol's share of a practice cell (kernel/wire/protocol-practice.ts): one request verified,
// six messages signed, nothing that reaches the kernel's replay guard.
import { describe, expect, it } from 'vitest';
import { practiseProtocol } from '../../kernel/wire/protocol-practice.js';
import { createSigner, type Signer } from '../../kernel/wire/signature.js';

describe('practising the protocol', () => {
  it('verifies the practice request and signs it and the five messages of its answer', () => {
    const real = createSigner('hmac-sha256', 'practice-key');
    const calls = { sign: 0, verify: 0, verified: [] as boolean[] };
    const signer: Signer = {
      sign: (parts) => (calls.sign++, real.sign(parts)),
      verify: (signature, parts) => {
        calls.verify++;
        const ok = real.verify(signature, parts);
        calls.verified.push(ok);
        return ok;
      },
    };
    practiseProtocol('const w1: number = 1 * 2;\nw1 + 1', 'session-id', signer);
    expect(calls).toEqual({ sign: 6, verify: 1, verified: [true] });
  });
});
