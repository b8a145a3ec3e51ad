// Where a warning comes from. The runtime knows only stack frames ("cell-3.ts#7:2:5");
// whoever runs the code (the kernel, with its cell source maps) turns them into the
// line the user typed through a SiteMapper.
import { formatSite, type CallSite } from '../call-site.js';

export interface ProfileSite {
  /** "cell-3.ts:4:11", or the raw frame when no mapper knows it. */
  readonly where: string;
  /** 1-based line in the cell (or file), when known. */
  readonly line?: number;
  /** The text of that line, when known. */
  readonly text?: string;
}

export type SiteMapper = (frame: string) => ProfileSite | undefined;

/** The first frame outside the runtime, captured now (call only where a warning is raised). */
export function siteHere(mapper: SiteMapper | undefined): ProfileSite {
  // Deep enough to get past the profiler, the event plumbing and the dispatch path.
  const site: CallSite = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  Error.captureStackTrace(site, siteHere);
  Error.stackTraceLimit = limit;
  return mapSite(formatSite(site), mapper);
}

export function mapSite(frame: string, mapper: SiteMapper | undefined): ProfileSite {
  return mapper?.(frame) ?? { where: frame };
}
