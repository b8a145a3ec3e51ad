// TPU chip generations: the one table of chip figures. HBM capacity sizes the session's
// memory; peak bf16 rate and HBM bandwidth feed the profiler's roofline estimates.
// Figures per chip as Google Cloud publishes them (TPU system architecture pages); shown in
// binary units like every byte count here (v5e's 16 GB is 14.9 GiB).
export type ChipGeneration = 'v4' | 'v5e' | 'v5p' | 'v6e';

export interface ChipFigures {
  readonly hbmBytes: number;
  /** Peak dense bfloat16 matmul rate, FLOP/s. */
  readonly peakBf16Flops: number;
  /** HBM bandwidth, bytes/s. */
  readonly hbmBytesPerSecond: number;
}

export const CHIPS: Record<ChipGeneration, ChipFigures> = {
  v4: { hbmBytes: 32 * 2 ** 30, peakBf16Flops: 275e12, hbmBytesPerSecond: 1200e9 },
  v5e: { hbmBytes: 16e9, peakBf16Flops: 197e12, hbmBytesPerSecond: 819e9 },
  v5p: { hbmBytes: 95e9, peakBf16Flops: 459e12, hbmBytesPerSecond: 2765e9 },
  v6e: { hbmBytes: 32e9, peakBf16Flops: 918e12, hbmBytesPerSecond: 1640e9 },
};

export const DEFAULT_CHIP: ChipGeneration = 'v5e';

export function assertChip(value: unknown, source: string): ChipGeneration {
  if (typeof value === 'string' && value in CHIPS) return value as ChipGeneration;
  throw new RangeError(`${source}: chip must be one of ${Object.keys(CHIPS).join(', ')}; got ${JSON.stringify(value)}`);
}
