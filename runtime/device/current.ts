// The one TPU session of this process (a new one after tpu.reset()).
import { ProgramCache } from '../compiler/program-cache.js';
import { DeviceSession } from './session.js';
import { settings } from './settings.js';

let session: DeviceSession | null = null;
let cache: ProgramCache | null = null;

// Node terminates the device thread after the 'exit' listeners; the thread must not be inside
// ONNX Runtime then (see DeviceSession.stopForExit).
process.on('exit', () => session?.stopForExit());

export function currentSession(): DeviceSession {
  return (session ??= new DeviceSession());
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
  await s?.close();
}
