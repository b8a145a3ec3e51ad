// XLA:TPU's figures of one compiled program, as the profile JSON carries them under `xla`.
import type { TpuCompiled } from '../pjrt/index.js';

export interface XlaFigures {
  readonly flops: number;
  readonly bytesAccessed: number;
  /** XLA:TPU's estimate of one run on the chip, seconds. */
  readonly optimalSeconds: number;
  readonly argumentBytes: number;
  readonly outputBytes: number;
  readonly tempBytes: number;
  readonly peakBytes: number;
  /** Fusions in the optimized HLO (each one kernel on the chip). */
  readonly fusions: number;
}

export function xlaFigures(compiled: TpuCompiled): XlaFigures {
  const cost = compiled.costAnalysis();
  const memory = compiled.memoryAnalysis();
  return {
    flops: cost.flops,
    bytesAccessed: cost.bytesAccessed,
    optimalSeconds: cost.optimalSeconds,
    argumentBytes: memory.argumentBytes,
    outputBytes: memory.outputBytes,
    tempBytes: memory.tempBytes,
    peakBytes: memory.peakBytes,
    fusions: countFusions(compiled.asText()),
  };
}

/** Fusion instructions of the optimized module (`... = f32[..] fusion(...)`, nested ones too). */
export function countFusions(hloText: string): number {
  return hloText.match(/=\s*[^=\n]*?\sfusion\(/g)?.length ?? 0;
}
