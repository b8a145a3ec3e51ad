// Where the user called into the runtime. Two ways to capture it, one notion of "outside
// the runtime": a lazily formatted stack (captured at dispatch, formatted only when an error
// needs it) and, for the profiler, the first user frame read at once from V8's structured
// frames (formatting a whole stack as text costs ~50-80 µs here, this a few).
import { fileURLToPath } from 'node:url';

// Frames inside the runtime are skipped: the built files (dist/runtime/) and, under a
// source-mapping test runner, their sources (runtime/). Frames name files by path or by
// file:// URL; both contain the directory.
const builtDir = fileURLToPath(new URL('.', import.meta.url));
const sourceDir = fileURLToPath(new URL('../../runtime/', import.meta.url));
const insideRuntime = (where: string) =>
  where.includes(builtDir) || where.includes(sourceDir) || where.includes('node:internal') || where.startsWith('node:');

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

/** "file:line:column" of the first frame below `skip` outside the runtime. */
export function userFrame(skip: Function): string {
  // A capture costs in proportion to its depth: the runtime's own frames rarely pass 12.
  return firstUserFrame(captureFrames(skip, 12)) ?? firstUserFrame(captureFrames(skip, 48)) ?? 'an unknown location';
}

/**
 * userFrame, read later: V8 keeps a capture's frames and builds them when `stack` is
 * first read, so the capture costs a few µs where it happens (often inside the user's
 * loop) and the frames are looked at only when the site is shown.
 */
export function userFrameLater(skip: Function): () => string {
  const holder = capture(skip, 16);
  let frame: string | undefined;
  return () => (frame ??= firstUserFrame(framesOf(holder)) ?? 'an unknown location');
}

function captureFrames(skip: Function, depth: number): NodeJS.CallSite[] {
  return framesOf(capture(skip, depth));
}

function capture(skip: Function, depth: number): { stack?: unknown } {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, skip);
  Error.stackTraceLimit = limit;
  return holder;
}

/** The structured frames of a capture (read once: V8 keeps what the first read returns). */
function framesOf(holder: { stack?: unknown }): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, frames) => frames;
  try {
    return Array.isArray(holder.stack) ? (holder.stack as NodeJS.CallSite[]) : [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

function firstUserFrame(frames: NodeJS.CallSite[]): string | undefined {
  for (const frame of frames) {
    const file = frame.getFileName();
    if (!file || insideRuntime(file)) continue;
    return `${file}:${frame.getLineNumber()}:${frame.getColumnNumber()}`;
  }
  return undefined;
}
