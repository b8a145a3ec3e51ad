// Sync points of the whole runtime (tpu.sync, the profiler's profile()): the pending region
// runs and every queued device command finishes; debug mode's collectives are checked for NaN/Inf.
import { chipSessions, postAllChips } from '../device/current.js';
import { checkSyncAllowed } from './materialize.js';
import { flushRegion } from './mode.js';
import { checkDebugCollectives } from './eager.js';
import { SYNC } from './region.js';

export async function syncDevice(): Promise<void> {
  checkSyncAllowed('tpu.sync');
  flushRegion(SYNC);
  const chips = chipSessions();
  if (chips.length === 1) await chips[0]!.fence('tpu.sync');
  else await Promise.all(chips.map((s, c) => s.fence('tpu.sync', c === 0)));
  checkDebugCollectives();
}

export function syncDeviceBlocking(): void {
  checkSyncAllowed('tpu.syncBlocking');
  flushRegion(SYNC);
  const chips = chipSessions();
  postAllChips();
  chips.forEach((s, c) => s.fenceSync('tpu.syncBlocking', c === 0));
  checkDebugCollectives();
}
