// Differential fuzzing: seeded random programs (broadcasting, views, reductions, indexing,
// matmul, gradients) agree with a float64 reference in every mode. `npm run fuzz` runs more
// (FUZZ_SEED, FUZZ_COUNT) and prints each failing seed with a program that reproduces it.
import { describe, expect, it } from 'vitest';
import { fuzz } from '../support/fuzz/run-fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const COUNT = Number(process.env.FUZZ_COUNT ?? 50);
const CHUNK = 10; // programs per test: a chunk stays well inside the 60 s test timeout on a loaded machine
const chunks = Array.from({ length: Math.ceil(COUNT / CHUNK) }, (_, i) => SEED + i * CHUNK);

describe('differential fuzzer', () => {
  it.each(chunks)('programs from seed %i match the float64 reference in every mode', (from) => {
    const failures = fuzz(from, Math.min(CHUNK, SEED + COUNT - from));
    for (const f of failures) console.log(`${f.failure}\n${f.text}\n`);
    expect(failures.map((f) => f.failure)).toEqual([]);
  });
});
