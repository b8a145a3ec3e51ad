// A generated erf loop, checked the same way wherever it comes from: the IEEE special values
// kept exactly, the rest measured in float32 ulps against float64 erf.
import { expect } from 'vitest';
import type { LoadedKernel } from '../../dist/runtime/device/loopgen/native.js';
import { erfRef, float32Ulp } from './reference.js';

/** The first inputs of every sweep: erf gives NaN, 1, -1, 0 and -0 for them. */
const SPECIALS = [NaN, Infinity, -Infinity, 0, -0];

/** An elementwise kernel of one input and one output as a function of its input, over `threads` threads. */
export const elementwise = (kernel: LoadedKernel, threads = 1) => (x: Float32Array) => {
  const out = new Float32Array(x.length);
  kernel.run([x], new Float32Array(0), [out], x.length, threads);
  return out;
};

/**
 * Runs `erf` (the generated loop as a function of its input) over `x` with SPECIALS written
 * over its first values, checks their results, and returns the worst error of the rest in
 * float32 ulps against float64 erf(arg(x)).
 */
export function erfLoopWorstUlps(erf: (x: Float32Array) => Float32Array, x: Float32Array, arg: (x: number) => number = (v) => v): number {
  x.set(SPECIALS);
  const out = erf(x);
  expect(Array.from(out.subarray(0, SPECIALS.length))).toEqual([NaN, 1, -1, 0, -0]);
  expect(Object.is(out[4], -0)).toBe(true);
  let worst = 0;
  for (let i = SPECIALS.length; i < x.length; i++) {
    const want = erfRef(arg(x[i]!));
    worst = Math.max(worst, Math.abs(out[i]! - want) / float32Ulp(want));
  }
  return worst;
}
