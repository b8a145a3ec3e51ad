// XLA:TPU's figures of one compiled program, as the profile JSON carries them under `xla`.
import type { TpuCompiled } from '../pjrt/index.js';
import { hloCollectives, type XlaCollectives } from './hlo-collectives.js';

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
  /** The collectives in the optimized HLO of one chip's part of an SPMD program (only when it has some). */
  readonly collectives?: XlaCollectives;
}

export function xlaFigures(compiled: TpuCompiled): XlaFigures {
  const cost = compiled.costAnalysis();
  const memory = compiled.memoryAnalysis();
  const hlo = compiled.asText();
  const collectives = hloCollectives(hlo);
  return {
    flops: cost.flops,
    bytesAccessed: cost.bytesAccessed,
    optimalSeconds: cost.optimalSeconds,
    argumentBytes: memory.argumentBytes,
    outputBytes: memory.outputBytes,
    tempBytes: memory.tempBytes,
    peakBytes: memory.peakBytes,
    fusions: countFusions(hlo),
    ...(collectives.count > 0 ? { collectives } : {}),
  };
}

/** Fusion instructions of the optimized module (`... = f32[..] fusion(...)`, nested ones too). */
export function countFusions(hloText: string): number {
  return hloText.match(/=\s*[^=\n]*?\sfusion\(/g)?.length ?? 0;
}
