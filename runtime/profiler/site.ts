// Where a warning comes from. The runtime knows only stack frames ("cell-3.ts#7:2:5");
// whoever runs the code (the kernel, with its cell source maps) turns them into the
// line the user typed through a SiteMapper.
import { userFrame, userFrameLater } from '../call-site.js';

export interface ProfileSite {
  /** "line 4" or "cell-3.ts:4:11", or the raw frame when no mapper knows it. */
  readonly where: string;
  /** 1-based line in the cell (or file), when known. */
  readonly line?: number;
  /** The text of that line, when known. */
  readonly text?: string;
}

export type SiteMapper = (frame: string) => ProfileSite | undefined;

/** The user's line calling into the runtime now, captured cheaply and read when shown (call-site.ts). */
export function siteLater(mapper: SiteMapper | undefined): () => ProfileSite {
  const frame = userFrameLater(siteLater);
  let site: ProfileSite | undefined;
  return () => (site ??= mapSite(frame(), mapper));
}

/** The user's line calling into the runtime now (call only where a warning is raised). */
export function siteHere(mapper: SiteMapper | undefined): ProfileSite {
  return mapSite(userFrame(siteHere), mapper);
}

export function mapSite(frame: string, mapper: SiteMapper | undefined): ProfileSite {
  return mapper?.(frame) ?? { where: frame };
}
