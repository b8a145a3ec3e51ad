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

// Directories of code that calls the runtime on the user's behalf (the kernel's operator
// dispatch: a cell's `a + b` runs `__tpuOps.add(a, b)`): their frames are not the user's either.
const callerDirs: string[] = [];

/** Skips the frames of files under `dir` (a path) as the runtime's own when naming the user's call site. */
export function skipCallerFrames(dir: string): void {
  if (!callerDirs.includes(dir)) callerDirs.push(dir);
}

const insideRuntime = (where: string) =>
  where.includes(builtDir) || where.includes(sourceDir) || where.includes('node:internal') || where.startsWith('node:') ||
  callerDirs.some((dir) => where.includes(dir));

// Device errors of strict and fused work surface at a later sync point; a recorded call site
// lets them name the exact call. V8 keeps a capture unformatted until `stack` is read, but
// the capture itself costs several µs in a hot loop (more than a strict dispatch), so by
// default ('auto') strict mode records the calls that can plausibly fail on the device
// (large outputs, device-data indices: see modes/may-fail.ts), and a fused region holding
// such a call records where the first one was called and where the region was cut (two
// captures per region), and the calls of its ops that read indices from device data; a
// region holding none records nothing (W6's fused step: two captures, ~30 µs, a step).
// tpu.setCallSites(true) (TPU_KERNEL_CALL_SITES=1) records every strict call, and every
// fused region's first op and cut; false (=0) none. Debug mode always records, since it
// reports at the call.
export type CallSitePolicy = boolean | 'auto';
let policy: CallSitePolicy = parsePolicy(process.env.TPU_KERNEL_CALL_SITES ?? 'auto');

function parsePolicy(v: string): CallSitePolicy {
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  if (v === 'auto') return 'auto';
  throw new RangeError(`TPU_KERNEL_CALL_SITES must be 1, 0 or auto; got ${JSON.stringify(v)}`);
}

/**
 * Call sites for device errors: true records every strict op (several µs each), 'auto' (default) the ops that may fail on the device, false none.
 * @example tpu.setCallSites(true)
 */
export function setCallSites(on: CallSitePolicy): CallSitePolicy {
  if (typeof on !== 'boolean' && on !== 'auto') {
    throw new TypeError(`tpu.setCallSites: on must be true, false or 'auto'; got ${JSON.stringify(on)}`);
  }
  const before = policy;
  policy = on;
  return before;
}

/** Something a device error can name: one call, or the calls of a fused program. */
export interface Site {
  format(): string;
  /**
   * Turns the captured frames into text now. Until then V8 keeps each frame's receiver and
   * function alive (an op's tensors: `m.add(1)` keeps `m`), which a loop that never awaits
   * cannot afford when memory runs out.
   */
  settle(): void;
}

// Frames a capture keeps below the runtime function that asks. Every frame costs, so the
// captures of cheap strict ops (only with tpu.setCallSites(true)) keep 3: an op method
// called by the user needs 2 (the method, the user's line), a helper between them 3. The
// others leave room for nn modules and helpers between the runtime and the user: captures
// of ops that may fail on the device (large, so the capture is cheap beside them), of debug
// mode (which waits for each op anyway), of runtime code making several ops (composed ops,
// backward, optimizer steps: withCallSite) and of fused regions.
const OP_DEPTH = 3;
const OUTER_DEPTH = 8;

/** One call's stack, captured by V8 and formatted only when `format()` is called. */
export class CallSite implements Site {
  /** Set by Error.captureStackTrace; reading it formats the stack (costly): only format() does. */
  declare readonly stack: string;

  /** The first frame outside the runtime, e.g. "cell 3:5" or "file:///x.mjs:10:3". */
  format(): string {
    for (const line of this.stack.split('\n').slice(1)) {
      if (insideRuntime(line)) continue;
      return line.trim().replace(/^at /, '');
    }
    return 'a line deeper than the recorded frames';
  }

  settle(): void {
    void this.stack;
  }
}

function captureDepth(skip: Function, depth: number): CallSite {
  const site = new CallSite();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth;
  Error.captureStackTrace(site, skip);
  Error.stackTraceLimit = limit;
  return site;
}

/** Where the ops of a fused program were called: from its first op (when known) up to where it was cut. */
class SiteRange implements Site {
  constructor(private readonly first: CallSite | null, private readonly last: CallSite) {}

  format(): string {
    const last = this.last.format();
    if (!this.first) return `a line up to ${last}`;
    const first = this.first.format();
    return first === last ? first : `${first} … ${last}`;
  }

  settle(): void {
    this.first?.settle();
    this.last.settle();
  }
}

/** A fused program's site naming, besides its range, the ops in it that recorded their own call. */
class SiteWithOps implements Site {
  constructor(private readonly program: Site, private readonly ops: readonly { name: string; site: CallSite }[]) {}

  format(): string {
    const own = [...new Set(this.ops.map(({ name, site }) => `${name} at ${site.format()}`))];
    return [this.program.format(), ...own].join('; ');
  }

  settle(): void {
    this.program.settle();
    for (const { site } of this.ops) site.settle();
  }
}

/** `program`, plus the calls of its ops that recorded one (in fused mode, ops that read indices from device data). */
export function withOpSites(program: Site | null, ops: readonly { name: string; site: CallSite }[]): Site | null {
  return program && ops.length ? new SiteWithOps(program, ops) : program;
}

// Runtime code making several ops (a composed op, backward, an optimizer step) attributes
// them to its own caller: the first of its ops that records a site captures it, the others
// reuse it.
let outerSkip: Function | null = null;
let outerSite: CallSite | null = null;

function siteOf(skip: Function, depth: number): CallSite {
  if (outerSkip) return (outerSite ??= captureDepth(outerSkip, OUTER_DEPTH));
  return captureDepth(skip, depth);
}

/**
 * The caller of `skip` (an op's apply): always in debug mode; in strict mode for every call
 * (policy true), for calls that may fail on the device ('auto'), or never (false).
 */
export function captureSite(skip: Function, debug: boolean, mayFail: boolean): CallSite | null {
  if (debug) return siteOf(skip, OUTER_DEPTH);
  if (policy === false) return null;
  if (mayFail) return siteOf(skip, OUTER_DEPTH);
  return policy === true ? siteOf(skip, OP_DEPTH) : null;
}

/** The caller of `skip`, for a call made once per many ops (a fused region's start and cut), unless sites are off. */
export function captureOuterSite(skip: Function): CallSite | null {
  return policy === false ? null : siteOf(skip, OUTER_DEPTH);
}

/**
 * Whether a fused region records the call of the op it records now as where it started: its
 * first op with tpu.setCallSites(true), by default its first op that may fail on the device.
 */
export function startsRegionSite(first: boolean, mayFail: boolean): boolean {
  return policy === true ? first : policy === 'auto' && mayFail;
}

/**
 * A fused program's site: from `first` up to the caller of `skip` (the region's cut). By
 * default none for a region that recorded no start and whose program cannot fail (`mayFail`).
 */
export function regionSite(first: CallSite | null, skip: Function, mayFail = true): Site | null {
  if (!first && !mayFail && policy !== true) return null;
  const last = captureOuterSite(skip);
  return last && new SiteRange(first, last);
}

/** Runs fn with the ops it makes attributed to the caller of `skip`. */
export function withCallSite<T>(skip: Function, fn: () => T): T {
  const began = beginCallSite(skip);
  try {
    return fn();
  } finally {
    endCallSite(began);
  }
}

/**
 * withCallSite's two halves, for hot callers (a composed op, backward, an optimizer step): a
 * closure made per call would lose its optimized code at each full collection (docs/runtime.md,
 * W6). The ops made until endCallSite(the result) are attributed to the caller of `skip`; a
 * call inside keeps the outer one.
 */
export function beginCallSite(skip: Function): boolean {
  if (outerSkip) return false;
  outerSkip = skip;
  return true;
}

export function endCallSite(began: boolean): void {
  if (!began) return;
  outerSkip = null;
  outerSite = null;
}

export function formatSite(site: Site | null | undefined): string {
  return site ? site.format() : 'an unrecorded line (call sites are off: tpu.setCallSites(true) records them)';
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
  const holder = captureDepth(skip, 16);
  let frame: string | undefined;
  return () => (frame ??= firstUserFrame(framesOf(holder)) ?? 'an unknown location');
}

function captureFrames(skip: Function, depth: number): NodeJS.CallSite[] {
  return framesOf(captureDepth(skip, depth));
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
