export { subscribe, profiling, type ProfileEvent, type ProfileListener } from './events.js';
export { profiler } from './api.js';
export { Profile, type ProfileRenderOptions } from './profile.js';
export { ProfileRecording, type RecordOptions } from './recorder.js';
export { ProgramListing } from './program-listing.js';
export { PROFILE_MIME, type ProfileData, type ProfileWarning, type ProgramFigures, type TimelineSpan, type WarningKind } from './profile-data.js';
export type { ProfileSite, SiteMapper } from './site.js';
export { paddedShape, TILE_COLS, TILE_ROWS } from './warnings.js';
export { programCost, roofline } from './roofline.js';
