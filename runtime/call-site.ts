// Where the user called an op: captured cheaply at dispatch (V8 formats stack traces
// lazily), formatted only when an error or the profiler needs it.
import { fileURLToPath } from 'node:url';

const runtimeDir = fileURLToPath(new URL('.', import.meta.url));
const runtimeUrl = new URL('.', import.meta.url).href;

export interface CallSite {
  stack?: string;
}

export function captureSite(skip: Function): CallSite {
  const site: CallSite = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 16;
  Error.captureStackTrace(site, skip);
  Error.stackTraceLimit = limit;
  return site;
}

/** The first frame outside the runtime, e.g. "cell 3:5" or "file:///x.mjs:10:3". */
export function formatSite(site: CallSite | undefined): string {
  const lines = site?.stack?.split('\n').slice(1) ?? [];
  for (const line of lines) {
    if (line.includes(runtimeDir) || line.includes(runtimeUrl) || line.includes('node:internal')) continue;
    return line.trim().replace(/^at /, '');
  }
  return 'unknown location';
}
