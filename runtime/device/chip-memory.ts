// Device memory of every chip: each emulated chip has its own HBM account; tpu.memory() shows
// the totals and, in `chips`, each chip's figures.
import { chipSessions } from './current.js';
import type { MemoryInfo } from './memory.js';
import { settings } from './settings.js';

export interface ChipMemoryInfo extends MemoryInfo {
  readonly chip: number;
}

export interface SessionMemoryInfo extends MemoryInfo {
  /** One entry per chip (a single one with one chip). Top-level figures are their sums (peak: the sum of peaks). */
  readonly chips: readonly ChipMemoryInfo[];
}

export function sessionMemory(): SessionMemoryInfo {
  const chips = chipSessions().map((s) => {
    s.memory.capacityBytes = settings.capacityBytes();
    return { chip: s.chip, ...s.memory.info() };
  });
  if (chips.length === 1) return { ...chips[0]!, chips };
  const sum = (k: keyof MemoryInfo) => chips.reduce((a, c) => a + c[k], 0);
  return { liveBytes: sum('liveBytes'), peakBytes: sum('peakBytes'), liveTensors: sum('liveTensors'), capacityBytes: sum('capacityBytes'), chips };
}

/** A chip holding far more than the others (over twice the mean, and 1 MiB more), for the profile's warning. */
export function memoryImbalance(live: readonly number[]): { chip: number; bytes: number; mean: number } | null {
  if (live.length < 2) return null;
  const mean = live.reduce((a, b) => a + b, 0) / live.length;
  let chip = 0;
  for (let c = 1; c < live.length; c++) if (live[c]! > live[chip]!) chip = c;
  const bytes = live[chip]!;
  return bytes > 2 * mean && bytes - mean > 2 ** 20 ? { chip, bytes, mean } : null;
}
