// float32 logSoftmax is one primitive (runtime/ops/log-softmax.ts; ONNX's LogSoftmax node on
// this backend): the same bits in every mode, values and PyTorch's gradient g - exp(out)·Σg
// against float64 loops, -inf logits included (their probability is 0: the gradient passes g
// through; debug mode refuses an infinite input, so it takes the finite logits), and PyTorch's
// results on rows holding NaN or ±inf.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const [R, C] = [5, 7];
const finite = seededValues(R * C, 41, -4, 4).map(Math.fround);
const withInf = finite.map((v, i) => (i === 3 ? -Infinity : v)); // row 0: one class impossible
const gs = seededValues(R * C, 43, -1, 1).map(Math.fround);

/** log-softmax of xs [R, C] along dim and its gradient for the seed gs, in float64. */
function reference(xs: readonly number[], dim: 0 | 1) {
  const out = new Array<number>(R * C);
  const grad = new Array<number>(R * C);
  const [lines, len] = dim === 1 ? [R, C] : [C, R];
  const index = (line: number, k: number) => (dim === 1 ? line * C + k : k * C + line);
  for (let line = 0; line < lines; line++) {
    const x = Array.from({ length: len }, (_, k) => xs[index(line, k)]!);
    const g = Array.from({ length: len }, (_, k) => gs[index(line, k)]!);
    const m = Math.max(...x);
    const lse = m + Math.log(x.reduce((s, v) => s + Math.exp(v - m), 0));
    const gsum = g.reduce((a, b) => a + b, 0);
    for (let k = 0; k < len; k++) {
      out[index(line, k)] = x[k]! - lse;
      grad[index(line, k)] = g[k]! - Math.exp(x[k]! - lse) * gsum;
    }
  }
  return { out, grad };
}

/** logSoftmax of xs along dim and the gradient for the seed gs, as read back. */
async function run(xs: readonly number[], dim: 0 | 1) {
  const x = tpu.tensor(Float32Array.from(xs)).reshape([R, C]).requiresGrad_();
  const y = x.logSoftmax(dim);
  y.backward(tpu.tensor(Float32Array.from(gs)).reshape([R, C]));
  return { out: Array.from(await y.data()), grad: Array.from(await x.grad!.data()) };
}

const noInf = (a: readonly number[]) => a.map((v) => (v === -Infinity ? 0 : v));

describe.each(['strict', 'fused', 'debug'] as const)('logSoftmax (float32 primitive) in %s mode', (mode) => {
  it.each([0, 1] as const)('dim %i: values and gradient against float64, the bits of strict mode', async (dim) => {
    const xs = mode === 'debug' ? finite : withInf;
    const strict = await run(xs, dim);
    tpu.mode(mode);
    const got = await run(xs, dim);
    expect(got).toEqual(strict);
    const ref = reference(xs, dim);
    expect(got.out.filter((v) => v === -Infinity).length).toBe(mode === 'debug' ? 0 : 1);
    expectClose(noInf(got.out), noInf(ref.out));
    expectClose(got.grad, ref.grad);
  });
});

it('rows holding NaN or +inf, or all -inf, are NaN, and a -inf entry is -inf (torch.log_softmax, torch 2.13)', async () => {
  const rows = [[1, NaN, 3, -1], [1, Infinity, 3, -1], [-Infinity, -Infinity, -Infinity, -Infinity], [-Infinity, 0, 1, 2], [1e30, -1e30, 0, 5]];
  const y = tpu.tensor(Float32Array.from(rows.flat())).reshape([rows.length, 4]).logSoftmax(1);
  const got = Array.from(await y.data());
  expect(got.slice(0, 12).every(Number.isNaN)).toBe(true);
  expect(got.slice(12)).toEqual([-Infinity, -2.4076058864593506, -1.4076058864593506, -0.40760594606399536, 0, -2.0000000300949324e30, -1.0000000150474662e30, -1.0000000150474662e30]);
});
