// Where the user called an op: captured cheaply at dispatch (V8 formats stack traces
// lazily), formatted only when an error or the profiler needs it.
import { fileURLToPath } from 'node:url';

// Frames inside the runtime are skipped: the built files (dist/runtime/) and, under a
// source-mapping test runner, their sources (runtime/).
const builtDir = fileURLToPath(new URL('.', import.meta.url));
const sourceDir = fileURLToPath(new URL('../../runtime/', import.meta.url));
const insideRuntime = (line: string) =>
  line.includes(builtDir) || line.includes(sourceDir) || line.includes('node:internal');

export interface CallSite {
  stack?: string;
}

// Capturing a stack costs ~2–4 µs, more than a whole strict dispatch, so by default sites
// are captured only in debug mode or while profiling; tpu.setCallSites(true) (or
// TPU_KERNEL_CALL_SITES=1) captures them in every mode.
let always = process.env.TPU_KERNEL_CALL_SITES === '1';
export function setCallSites(on: boolean): void {
  if (typeof on !== 'boolean') throw new TypeError(`tpu.setCallSites: on must be a boolean; got ${JSON.stringify(on)}`);
  always = on;
}

const NO_SITE: CallSite = {};

export function captureSite(skip: Function, wanted: boolean): CallSite {
  if (!wanted && !always) return NO_SITE;
  const site: CallSite = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 10;
  Error.captureStackTrace(site, skip);
  Error.stackTraceLimit = limit;
  return site;
}

/** The first frame outside the runtime, e.g. "cell 3:5" or "file:///x.mjs:10:3". */
export function formatSite(site: CallSite | undefined): string {
  if (!site?.stack) return 'an unrecorded line (call sites are recorded in debug mode, or everywhere after tpu.setCallSites(true))';
  const lines = site.stack.split('\n').slice(1);
  for (const line of lines) {
    if (insideRuntime(line)) continue;
    return line.trim().replace(/^at /, '');
  }
  return 'unknown location';
}
