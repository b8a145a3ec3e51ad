// Differential fuzzing: seeded random programs (broadcasting, views, reductions, indexing,
// matmul, gradients) agree with a float64 reference in every mode. `npm run fuzz` runs more
// (FUZZ_SEED, FUZZ_COUNT) and prints each failing seed with a program that reproduces it.
import { describe, expect, it } from 'vitest';
import { fuzz } from '../support/fuzz/run-fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const COUNT = Number(process.env.FUZZ_COUNT ?? 200);

describe('differential fuzzer', () => {
  it(`programs ${SEED}..${SEED + COUNT - 1} match the float64 reference in every mode`, () => {
    const failures = fuzz(SEED, COUNT);
    for (const f of failures) console.log(`${f.failure}\n${f.text}\n`);
    expect(failures.map((f) => f.failure)).toEqual([]);
  }, 120_000);
});
