// Every primitive's StableHLO, in every dtype, compiles with XLA:TPU (libtpu) for v5e.
import { describe, expect, it } from 'vitest';
import { compileForTpu, tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { lowerToStableHlo } from '../../runtime/device/stablehlo/index.js';
import { PRIMITIVE_CASES, programOf } from './stablehlo-cases.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/stablehlo-tpu-compile.test.ts: ${status.reason}`);

describe.skipIf(!status.available)('StableHLO lowering compiled by XLA:TPU', () => {
  it('compiles every primitive and dtype for v5e', async () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const c of PRIMITIVE_CASES) {
      const { text } = lowerToStableHlo(programOf(c));
      if (seen.has(text)) continue;
      seen.add(text);
      try {
        const compiled = await compileForTpu(text, { topology: 'v5e:2x2', hloText: false });
        expect(compiled.memoryAnalysis().outputBytes, c.label).toBeGreaterThanOrEqual(0);
      } catch (e) {
        failures.push(`${c.label}: ${(e as Error).message.split('\n').slice(0, 4).join(' ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(seen.size).toBeGreaterThan(400);
  }, 600_000);
});
