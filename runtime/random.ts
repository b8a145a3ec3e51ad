// The seeded generator behind rand/randn (tpu.manualSeed, manual-seed.ts). Values are
// generated on the host and uploaded, so every mode sees the same numbers for the same seed.

let state = (Date.now() ^ 0x9e3779b9) >>> 0;

/** Sets the generator's state (a 32-bit seed). */
export function seedGenerator(seed: number): void {
  state = seed >>> 0;
}

/**
 * PyTorch's `generator=` keyword: the runtime has one generator, seeded by tpu.manualSeed, so
 * a generator given is refused rather than ignored (its seed would silently not apply).
 */
export function refuseGenerator(op: string, generator: unknown): void {
  if (generator !== undefined) throw new TypeError(`${op}: the generator option is not supported: the runtime has one random generator, seeded by tpu.manualSeed(seed); got ${typeof generator}`);
}

/** mulberry32: uniform in [0, 1). */
function next(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export function uniform(n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = next();
  return out;
}

/** A random permutation of 0 .. n-1 (Fisher–Yates, one draw per position): randperm's and the DataLoader's shuffles. */
export function permutation(n: number): number[] {
  const u = uniform(n);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(u[i]! * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  return perm;
}

/** Standard normal by Box–Muller. */
export function normal(n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = 1 - next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}
