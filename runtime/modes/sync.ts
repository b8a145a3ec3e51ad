// Sync points of the whole runtime (tpu.sync, the profiler's profile()): the pending region
// runs and every queued device command finishes.
import { currentSession } from '../device/current.js';
import { checkSyncAllowed } from './materialize.js';
import { flushRegion } from './mode.js';

export async function syncDevice(): Promise<void> {
  checkSyncAllowed('tpu.sync');
  flushRegion('sync');
  await currentSession().fence('tpu.sync');
}

export function syncDeviceBlocking(): void {
  checkSyncAllowed('tpu.syncBlocking');
  flushRegion('sync');
  currentSession().fenceSync('tpu.syncBlocking');
}
