// float32 logSoftmax is one primitive (runtime/ops/log-softmax.ts): its values are the bits of
// its composition (amax, sub, exp, sum, log, sub), which the backends lower it as, and its
// gradient is PyTorch's g - exp(out)·Σg, checked here against float64 loops, -inf logits
// included (their probability is 0: the gradient passes g through; debug mode refuses an
// infinite input, so it takes the finite logits).
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [R, C] = [5, 7];
const finite = seededValues(R * C, 41, -4, 4).map(Math.fround);
const withInf = finite.map((v, i) => (i === 3 ? -Infinity : v)); // row 0: one class impossible
let xs = finite;
const gs = seededValues(R * C, 43, -1, 1).map(Math.fround);

/** Element (i, j) of an [R, C] row-major array, rows of `dim` (1: rows, 0: columns). */
const at = (a: readonly number[], dim: number, line: number, k: number) => (dim === 1 ? a[line * C + k]! : a[k * C + line]!);

/** log-softmax along dim and its gradient for the seed gs, in float64. */
function reference(dim: 0 | 1) {
  const out = new Array<number>(R * C);
  const grad = new Array<number>(R * C);
  const [lines, len] = dim === 1 ? [R, C] : [C, R];
  for (let line = 0; line < lines; line++) {
    const x = Array.from({ length: len }, (_, k) => at(xs, dim, line, k));
    const g = Array.from({ length: len }, (_, k) => at(gs, dim, line, k));
    const m = Math.max(...x);
    const lse = m + Math.log(x.reduce((s, v) => s + Math.exp(v - m), 0));
    const gsum = g.reduce((a, b) => a + b, 0);
    for (let k = 0; k < len; k++) {
      const idx = dim === 1 ? line * C + k : k * C + line;
      out[idx] = x[k]! - lse;
      grad[idx] = g[k]! - Math.exp(x[k]! - lse) * gsum;
    }
  }
  return { out, grad };
}

const input = () => tpu.tensor(Float32Array.from(xs)).reshape([R, C]);

describe.each(['strict', 'fused', 'debug'] as const)('logSoftmax (float32 primitive) in %s mode', (mode) => {
  it.each([0, 1] as const)('dim %i: the composition\'s bits, and values and gradient against float64', async (dim) => {
    tpu.mode(mode);
    xs = mode === 'debug' ? finite : withInf;
    const composed = tpu.scope(() => {
      const x = input();
      const shifted = x.sub(x.amax(dim, true));
      return shifted.sub(shifted.exp().sum(dim, true).log());
    });
    const x = input().requiresGrad_();
    const y = x.logSoftmax(dim);
    expect(Array.from(await y.data())).toEqual(Array.from(await composed.data()));
    y.backward(tpu.tensor(Float32Array.from(gs)).reshape([R, C]));
    const ref = reference(dim);
    const got = Array.from(await y.data());
    expect(got.filter((v) => v === -Infinity).length).toBe(mode === 'debug' ? 0 : 1);
    expectClose(got.map((v) => (v === -Infinity ? 0 : v)), ref.out.map((v) => (v === -Infinity ? 0 : v)));
    expectClose(await x.grad!.data(), ref.grad);
  });
});
