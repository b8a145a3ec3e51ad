// Dispatch counters: bumped per op by dispatch.ts, read by the profiler as differences
// between two moments (no event per op).
import type { ModeName } from './mode-type.js';

/** Ops dispatched per mode since the process started. */
export const opsDispatched: Record<ModeName, number> = { debug: 0, strict: 0, fused: 0 };
