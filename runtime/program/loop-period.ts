// Finding loop iterations in a recorded op stream, so a region cut at the size cap falls
// on an iteration boundary and every later region of the loop is the same program.

/**
 * Given the ops of a region and when two are alike (same op, attributes and types), returns
 * where to cut it: the end of the last whole period of the repeating tail (the smallest
 * period whose last two repetitions match), or the region's length when the tail does not
 * repeat.
 */
export function iterationCut<K>(ops: readonly K[], same: (a: K, b: K) => boolean = Object.is): number {
  const n = ops.length;
  for (let p = 1; p * 2 <= n; p++) {
    let periodic = true;
    for (let j = 1; j <= p && periodic; j++) periodic = same(ops[n - j]!, ops[n - j - p]!);
    if (!periodic) continue;
    // Extend the periodic stretch backwards to where the loop began.
    let start = n - 2 * p;
    while (start > 0 && same(ops[start - 1]!, ops[start - 1 + p]!)) start--;
    return start + Math.floor((n - start) / p) * p;
  }
  return n;
}
