// The one TPU session of this process (a new one after tpu.reset()).
import { DeviceSession } from './session.js';

let session: DeviceSession | null = null;
/** Counts sessions closed, so what lives as long as one session (the program cache) knows it is stale. */
let closed = 0;

process.on('beforeExit', () => session?.finishBeforeExit());

export function currentSession(): DeviceSession {
  return (session ??= new DeviceSession());
}

/** Which session is current: changes when one is closed (the next use opens a new one). */
export function sessionNumber(): number {
  return closed;
}

/** Closes the session: every device buffer is gone; a new session starts on next use. */
export async function closeSession(): Promise<void> {
  const s = session;
  session = null;
  closed++;
  await s?.close();
}
