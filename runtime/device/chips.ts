// TPU chip generations: HBM capacity per chip (one place; the profiler's roofline table
// can extend these entries).
export type ChipGeneration = 'v4' | 'v5e' | 'v5p' | 'v6e';

export const CHIPS: Record<ChipGeneration, { readonly hbmBytes: number; readonly hbmLabel: string }> = {
  v4: { hbmBytes: 32 * 2 ** 30, hbmLabel: '32 GiB' },
  v5e: { hbmBytes: 16e9, hbmLabel: '16 GB' },
  v5p: { hbmBytes: 95e9, hbmLabel: '95 GB' },
  v6e: { hbmBytes: 32e9, hbmLabel: '32 GB' },
};

export const DEFAULT_CHIP: ChipGeneration = 'v5e';

export function assertChip(value: unknown, source: string): ChipGeneration {
  if (typeof value === 'string' && value in CHIPS) return value as ChipGeneration;
  throw new RangeError(`${source}: chip must be one of ${Object.keys(CHIPS).join(', ')}; got ${JSON.stringify(value)}`);
}
