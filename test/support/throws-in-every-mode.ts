// A call that must fail the same way in each eager mode (an argument checked on the host at the
// call), the mode set back to strict after each.
import { expect } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

export function expectThrowInEveryMode(call: () => unknown, message: RegExp): void {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    tpu.mode(mode);
    try {
      expect(call, mode).toThrow(message);
    } finally {
      tpu.mode('strict');
    }
  }
}
