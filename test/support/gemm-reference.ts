// A float32 GEMM's float64 reference and its error bound, for the tests of tpu_kernel.Sgemm.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { Ref } from './reference.js';

/** Whether the dynamic linker knows oneDNN's library (Debian's libdnnl2): then the GEMM must be oneDNN's. */
export function systemHasOneDnn(): boolean {
  try {
    return /libdnnl\.so\.2\b/.test(execFileSync('/sbin/ldconfig', ['-p'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

/** A[i, k] of a row-major [rows, cols] matrix, read transposed when `t`. */
const at = (m: Ref, i: number, k: number, t: boolean) => (t ? m.data[k * m.shape[1]! + i]! : m.data[i * m.shape[1]! + k]!);

/**
 * op(A) @ op(B) in float64, and each entry's bound: K * 2^-24 * sum |a||b| (the float32
 * rounding of a K-term dot product, summed in any order), plus a little for the float64 side.
 */
export function product(a: Ref, b: Ref, ta = false, tb = false) {
  const [m, k] = ta ? [a.shape[1]!, a.shape[0]!] : [a.shape[0]!, a.shape[1]!];
  const n = tb ? b.shape[0]! : b.shape[1]!;
  const value = new Float64Array(m * n);
  const bound = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      let mag = 0;
      for (let t = 0; t < k; t++) {
        const p = at(a, i, t, ta) * at(b, t, j, tb);
        s += p;
        mag += Math.abs(p);
      }
      value[i * n + j] = s;
      bound[i * n + j] = k * 2 ** -24 * mag + 1e-12;
    }
  }
  return { value, bound };
}

export function expectWithin(actual: ArrayLike<number>, want: { value: Float64Array; bound: Float64Array }): void {
  expect(actual.length).toBe(want.value.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - want.value[i]!) / want.bound[i]!);
  expect(worst).toBeLessThanOrEqual(1);
}
