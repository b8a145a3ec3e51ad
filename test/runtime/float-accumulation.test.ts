// float32 reductions accumulate in blocks (as NumPy's pairwise sum and XLA's tree reductions):
// sums of 1e3..1.6e7 elements stay within a few float32 ulps of the float64 sum, in every mode.
// (ONNX Runtime's sequential ReduceSum gave tpu.full([1e6], 0.1).sum() = 99910.33.)
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

const MODES = ['debug', 'strict', 'fused'] as const;
const SIZES = [1e3, 1e4, 1e5, 1e6, 1.6e7];
afterEach(() => tpu.mode('strict'));

/** Uniform in [0.01, 1) as float32 values, and their float64 sum. */
function data(n: number): { values: Float32Array; sum: number; sumSquares: number } {
  const values = Float32Array.from(seededValues(n, 7, 0.01, 1));
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < n; i++) {
    sum += values[i]!;
    sumSquares += values[i]! * values[i]!;
  }
  return { values, sum, sumSquares };
}

const relErr = (got: number, want: number) => Math.abs(got - want) / Math.abs(want);

describe.each(MODES)('%s mode', (mode) => {
  it('tpu.full([1e6], 0.1).sum() is 100000 to float32 precision', () => {
    tpu.mode(mode);
    const want = Math.fround(0.1) * 1e6;
    expect(relErr(tpu.full([1e6], 0.1).sum().item(), want)).toBeLessThan(2e-6);
    expect(relErr(tpu.full([1e6], 0.1).mean().item(), Math.fround(0.1))).toBeLessThan(2e-6);
  });

  it.each(SIZES)('sum, mean, var, std, norm, logsumexp and cumsum of %d elements against float64', (n) => {
    tpu.mode(mode);
    const { values, sum, sumSquares } = data(n);
    const x = tpu.tensor(values);
    const mean = sum / n;
    let centered = 0;
    for (let i = 0; i < n; i++) centered += (values[i]! - mean) ** 2;
    const variance = centered / (n - 1);
    const tol = 4e-6;
    expect(relErr(x.sum().item(), sum)).toBeLessThan(tol);
    expect(relErr(x.mean().item(), mean)).toBeLessThan(tol);
    expect(relErr(x.var().item(), variance)).toBeLessThan(tol);
    expect(relErr(x.std().item(), Math.sqrt(variance))).toBeLessThan(tol);
    expect(relErr(x.norm().item(), Math.sqrt(sumSquares))).toBeLessThan(tol);
    // logsumexp of log(v) is log Σ v
    expect(relErr(x.log().logsumexp(0).item(), Math.log(sum))).toBeLessThan(tol);
    const c = x.cumsum(0);
    expect(relErr(c.at(-1).item(), sum)).toBeLessThan(tol);
    expect(relErr(c.at(Math.floor(n / 2) - 1).item(), values.subarray(0, Math.floor(n / 2)).reduce((a, b) => a + b, 0))).toBeLessThan(tol);
  });

  it('sums over a kept dim and over several dims are blocked too', () => {
    tpu.mode(mode);
    const rows = 4;
    const n = 250_000;
    const { values } = data(rows * n);
    const x = tpu.tensor(values).reshape([rows, n]);
    const want = Array.from({ length: rows }, (_, r) => values.subarray(r * n, (r + 1) * n).reduce((a, b) => a + b, 0));
    const got = x.sum(1).dataSync();
    want.forEach((w, r) => expect(relErr(got[r]!, w)).toBeLessThan(4e-6));
    const cols = x.T.sum(0).dataSync(); // the reduced dim is not the last one in memory
    want.forEach((w, r) => expect(relErr(cols[r]!, w)).toBeLessThan(4e-6));
    const all = x.reshape([rows, 500, 500]).sum([1, 2], true);
    expect(all.shape).toEqual([rows, 1, 1]);
    const allv = all.dataSync();
    want.forEach((w, r) => expect(relErr(allv[r]!, w)).toBeLessThan(4e-6));
  });
});
