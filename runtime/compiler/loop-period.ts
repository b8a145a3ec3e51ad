// Finding loop iterations in a recorded op stream, so a region cut at the size cap falls
// on an iteration boundary and every later region of the loop is the same program.

/**
 * Given per-op structural keys of a region, returns where to cut it: the end of the last
 * whole period of the repeating tail (the smallest period whose last two repetitions
 * match), or the region's length when the tail does not repeat.
 */
export function iterationCut(keys: readonly string[]): number {
  const n = keys.length;
  for (let p = 1; p * 2 <= n; p++) {
    let periodic = true;
    for (let j = 1; j <= p && periodic; j++) periodic = keys[n - j] === keys[n - j - p];
    if (!periodic) continue;
    // Extend the periodic stretch backwards to where the loop began.
    let start = n - 2 * p;
    while (start > 0 && keys[start - 1] === keys[start - 1 + p]) start--;
    return start + Math.floor((n - start) / p) * p;
  }
  return n;
}
