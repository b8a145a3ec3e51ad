// The one TPU session of this process (a new one after tpu.reset()).
import { DeviceSession } from './session.js';

let session: DeviceSession | null = null;
/** Counts sessions closed, so what lives as long as one session (the program cache) knows it is stale. */
let closed = 0;
/** The current session and any still closing (a tpu.reset() not awaited): each may have a device thread. */
const open = new Set<DeviceSession>();

// Node terminates the device threads after the 'exit' listeners; none may be inside ONNX
// Runtime then (see DeviceSession.stopForExit).
process.on('exit', () => open.forEach((s) => s.stopForExit()));

export function currentSession(): DeviceSession {
  if (!session) open.add((session = new DeviceSession()));
  return session;
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
  if (!s) return;
  try {
    await s.close();
  } finally {
    open.delete(s);
  }
}
