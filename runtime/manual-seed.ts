// tpu.manualSeed: seeds the generator of random.ts. Inside a function tpu.compile traces, each
// replay seeds again at the same place among the body's draws, so a seeded body draws the
// same numbers at every call, as its eager calls do.
import { specialized } from './jit/live-number.js';
import { onEachCall } from './jit/trace-record.js';
import { seedGenerator } from './random.js';

/**
 * Seeds the random generator of rand, randn, dropout... (torch.manual_seed).
 * @example tpu.manualSeed(0)
 */
export function manualSeed(seed: number): void {
  seed = specialized(seed);
  if (!Number.isInteger(seed)) throw new TypeError(`tpu.manualSeed: seed must be an integer; got ${JSON.stringify(seed)}`);
  seedGenerator(seed);
  onEachCall(() => seedGenerator(seed));
}
