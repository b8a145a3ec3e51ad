// The active mode and the switch between modes (allowed at any time, even with work queued).
import { assertMode, settings, type ModeName } from '../device/settings.js';
import { flushRegion } from './fused.js';

let active: ModeName = settings.defaultMode();

export function activeMode(): ModeName {
  return active;
}

export function setMode(mode: ModeName, source = 'tpu.mode'): void {
  const next = assertMode(mode, source);
  if (active === 'fused' && next !== 'fused') flushRegion('mode switch');
  active = next;
}

export function withMode<T>(mode: ModeName, fn: () => T): T {
  const before = active;
  setMode(mode, 'tpu.withMode');
  let restoreNow = true;
  try {
    const result = fn();
    if (result instanceof Promise) {
      restoreNow = false;
      return result.finally(() => setMode(before)) as T;
    }
    return result;
  } finally {
    if (restoreNow) setMode(before);
  }
}
