// Where a warning comes from. The runtime knows only stack frames ("cell-3.ts#7:2:5");
// whoever runs the code (the kernel, with its cell source maps) turns them into the
// line the user typed through a SiteMapper.
import { fileURLToPath } from 'node:url';

export interface ProfileSite {
  /** "line 4" or "cell-3.ts:4:11", or the raw frame when no mapper knows it. */
  readonly where: string;
  /** 1-based line in the cell (or file), when known. */
  readonly line?: number;
  /** The text of that line, when known. */
  readonly text?: string;
}

export type SiteMapper = (frame: string) => ProfileSite | undefined;

const runtimeDir = fileURLToPath(new URL('..', import.meta.url));
const runtimeUrl = new URL('..', import.meta.url).href;

/**
 * "file:line:column" of the first frame below `skip` outside the runtime. Reads V8's
 * structured frames: formatting the whole stack as text costs ~50-80 µs here, this a few.
 */
export function userFrame(skip: Function): string {
  // A capture costs in proportion to its depth: the runtime's own frames rarely pass 12.
  return firstUserFrame(captureFrames(skip, 12)) ?? firstUserFrame(captureFrames(skip, 48)) ?? 'an unknown location';
}

function captureFrames(skip: Function, depth: number): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_error, frames) => frames;
  Error.stackTraceLimit = depth;
  try {
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, skip);
    return holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

function firstUserFrame(frames: NodeJS.CallSite[]): string | undefined {
  for (const frame of frames) {
    const file = frame.getFileName();
    if (!file || file.startsWith('node:') || file.startsWith(runtimeDir) || file.startsWith(runtimeUrl)) continue;
    return `${file}:${frame.getLineNumber()}:${frame.getColumnNumber()}`;
  }
  return undefined;
}

/**
 * The user's line calling into the runtime now, read later: V8 keeps the frames of a
 * capture and builds them only when `stack` is read, so the capture here costs a few µs
 * inside the caller's loop and the frames are looked at when the warning is shown.
 */
export function siteLater(mapper: SiteMapper | undefined): () => ProfileSite {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 16; // the runtime's own frames rarely pass 12 (userFrame)
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, siteLater);
  Error.stackTraceLimit = limit;
  let site: ProfileSite | undefined;
  return () => (site ??= mapSite(firstUserFrame(framesOf(holder)) ?? 'an unknown location', mapper));
}

function framesOf(holder: { stack?: unknown }): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, frames) => frames;
  try {
    return Array.isArray(holder.stack) ? (holder.stack as NodeJS.CallSite[]) : [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/** The user's line calling into the runtime now (call only where a warning is raised). */
export function siteHere(mapper: SiteMapper | undefined): ProfileSite {
  return mapSite(userFrame(siteHere), mapper);
}

export function mapSite(frame: string, mapper: SiteMapper | undefined): ProfileSite {
  return mapper?.(frame) ?? { where: frame };
}
