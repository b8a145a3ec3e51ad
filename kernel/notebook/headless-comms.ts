// Comms for a headless run: there is no frontend, so a comm a cell opens
// connects to nothing. Its messages are dropped and no frontend ever opens a
// comm to a registered target; widgets therefore render only their fallback
// (text/plain) output in `tpu-kernel run`.
import { randomUUID } from 'node:crypto';
import type { Comm, CommRegistry } from '../language-session.js';

export function createHeadlessComms(): CommRegistry {
  return {
    registerTarget() {},
    open(targetName): Comm {
      return {
        commId: randomUUID(),
        targetName,
        send() {},
        close() {},
        onMsg() {},
        onClose() {},
      };
    },
  };
}
