// The one TPU session of this process (a new one after tpu.reset()).
import { ProgramCache } from '../compiler/program-cache.js';
import { DeviceSession } from './session.js';
import { settings } from './settings.js';

let session: DeviceSession | null = null;
let cache: ProgramCache | null = null;
/** The current session and any still closing (a tpu.reset() not awaited): each may have a device thread. */
const open = new Set<DeviceSession>();

// Node terminates the device threads after the 'exit' listeners; none may be inside ONNX
// Runtime then (see DeviceSession.stopForExit).
process.on('exit', () => open.forEach((s) => s.stopForExit()));

export function currentSession(): DeviceSession {
  if (!session) open.add((session = new DeviceSession()));
  return session;
}

export function programCache(): ProgramCache {
  return (cache ??= new ProgramCache({
    compile: (p, label) => currentSession().compile(p, label),
    release: (id) => currentSession().releaseProgram(id),
    capacity: settings.programCacheSize,
  }));
}

/** Closes the session: every device buffer is gone; a new session starts on next use. */
export async function closeSession(): Promise<void> {
  const s = session;
  session = null;
  cache = null;
  if (!s) return;
  try {
    await s.close();
  } finally {
    open.delete(s);
  }
}
