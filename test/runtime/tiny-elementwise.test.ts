// Tiny float32 add/sub/mul/div run as a JS loop on the device thread instead of ONNX Runtime
// (device/onnx/tiny-elementwise.ts): results must be exactly IEEE float32 arithmetic, in
// strict and fused mode, with scalars on either side and the special values.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

const specials = [0, -0, 1, -1, Infinity, -Infinity, NaN, 3.4e38, 1e-45, 1 / 3];
const xs = Float32Array.from([...specials, ...seededValues(22, 41, -5, 5)]);
const ys = Float32Array.from([...[...specials].reverse(), ...seededValues(22, 42, -5, 5)]);
// float32 arithmetic, rounded by Math.fround from a double result (exact for + - * /).
const ref = { add: (a: number, b: number) => a + b, sub: (a: number, b: number) => a - b, mul: (a: number, b: number) => a * b, div: (a: number, b: number) => a / b };
const same = (got: ArrayLike<number>, want: number[]) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(Object.is(got[i], Math.fround(want[i]!)) || (Number.isNaN(got[i]) && Number.isNaN(want[i]))).toBe(true);
};

// (debug mode refuses the NaN and Inf results by design)
describe.each(['strict', 'fused'] as const)('%s mode: tiny float32 elementwise ops', (mode) => {
  it.each(Object.keys(ref) as (keyof typeof ref)[])('%s of two tensors and with a scalar on either side is float32 arithmetic', (op) => {
    tpu.mode(mode);
    const x = tpu.tensor(xs);
    const y = tpu.tensor(ys);
    const f = ref[op];
    same(x[op](y).dataSync(), Array.from(xs, (v, i) => f(v, ys[i]!)));
    same(x[op](0.1).dataSync(), Array.from(xs, (v) => f(v, Math.fround(0.1))));
    // a constant first operand (a filled tensor) of the same shape
    same(tpu.full([xs.length], 2.5)[op](x).dataSync(), Array.from(xs, (v) => f(2.5, v)));
  });
});

it('a chain of 2,000 tiny adds in strict mode equals the float32 running sum', async () => {
  tpu.mode('strict');
  const x = tpu.tensor(Float32Array.from([0.1, 0.2, 0.3, 1e-8]));
  let y = x;
  for (let i = 0; i < 2000; i++) y = y.add(x);
  const want = [0.1, 0.2, 0.3, 1e-8].map((v) => {
    let s = Math.fround(v);
    for (let i = 0; i < 2000; i++) s = Math.fround(s + Math.fround(v));
    return s;
  });
  same(await y.data(), want);
});
