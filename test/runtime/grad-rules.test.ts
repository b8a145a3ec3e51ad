// Each primitive's gradient rule (data built from other ops) against central finite
// differences computed in float64 here: d/dx_i sum(w * f(x)) for a fixed weight w.
import { describe, expect, it } from 'vitest';
import { tpu, ops, apply, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

type Attrs = Record<string, unknown>;
interface Case {
  name: string;
  op: ops.OpDef<any>;
  shapes: number[][];
  attrs: Attrs;
  /** float64 forward on flat data, returning flat output. */
  f: (xs: number[][]) => number[];
  positive?: boolean;
}

const ew = (fn: (...v: number[]) => number) => (xs: number[][]) => xs[0]!.map((_, i) => fn(...xs.map((x) => x[i % x.length]!)));
const CASES: Case[] = [
  { name: 'add', op: ops.add, shapes: [[2, 3], [2, 3]], attrs: {}, f: ew((a, b) => a + b) },
  { name: 'sub', op: ops.sub, shapes: [[2, 3], [2, 3]], attrs: {}, f: ew((a, b) => a - b) },
  { name: 'mul', op: ops.mul, shapes: [[2, 3], [2, 3]], attrs: {}, f: ew((a, b) => a * b) },
  { name: 'div', op: ops.div, shapes: [[2, 3], [2, 3]], attrs: {}, f: ew((a, b) => a / b), positive: true },
  { name: 'neg', op: ops.neg, shapes: [[5]], attrs: {}, f: ew((a) => -a) },
  { name: 'exp', op: ops.exp, shapes: [[5]], attrs: {}, f: ew(Math.exp) },
  { name: 'log', op: ops.log, shapes: [[5]], attrs: {}, f: ew(Math.log), positive: true },
  { name: 'tanh', op: ops.tanh, shapes: [[5]], attrs: {}, f: ew(Math.tanh) },
  { name: 'sqrt', op: ops.sqrt, shapes: [[5]], attrs: {}, f: ew(Math.sqrt), positive: true },
  { name: 'relu', op: ops.relu, shapes: [[6]], attrs: {}, f: ew((a) => Math.max(a, 0)) },
  { name: 'abs', op: ops.abs, shapes: [[6]], attrs: {}, f: ew(Math.abs) },
  { name: 'sum', op: ops.sum, shapes: [[2, 3]], attrs: { dims: [1], keepdim: false }, f: ([x]) => [x![0]! + x![1]! + x![2]!, x![3]! + x![4]! + x![5]!] },
  { name: 'mean', op: ops.mean, shapes: [[2, 3]], attrs: { dims: [0], keepdim: true }, f: ([x]) => [0, 1, 2].map((j) => (x![j]! + x![3 + j]!) / 2) },
  { name: 'amax', op: ops.amax, shapes: [[2, 3]], attrs: { dims: [1], keepdim: false }, f: ([x]) => [Math.max(...x!.slice(0, 3)), Math.max(...x!.slice(3))] },
  {
    name: 'matmul', op: ops.matmul, shapes: [[2, 3], [3, 2]], attrs: { precision: 'highest' },
    f: ([a, b]) => [0, 1, 2, 3].map((k) => { const i = k >> 1; const j = k & 1; return [0, 1, 2].reduce((s, t) => s + a![i * 3 + t]! * b![t * 2 + j]!, 0); }),
  },
  { name: 'reshape', op: ops.reshape, shapes: [[2, 3]], attrs: { shape: [3, 2] }, f: ([x]) => x! },
  { name: 'permute', op: ops.permute, shapes: [[2, 3]], attrs: { perm: [1, 0] }, f: ([x]) => [0, 3, 1, 4, 2, 5].map((i) => x![i]!) },
  { name: 'expand', op: ops.expand, shapes: [[1, 3]], attrs: { shape: [2, 3] }, f: ([x]) => [...x!, ...x!] },
  { name: 'add (broadcast)', op: ops.add, shapes: [[2, 3], [3]], attrs: {}, f: ew((a, b) => a + b) },
];

describe.each(['strict', 'fused'] as const)('gradient rules (%s)', (mode) => {
  it.each(CASES)('$name', (c) => {
    tpu.mode(mode);
    const data = c.shapes.map((s, k) => seededValues(s.reduce((p, q) => p * q, 1), 31 + k, c.positive ? 0.5 : -2, 2).map(Math.fround));
    // Rules compute gradients only for operands that require grad (ops/grad-helpers.ts gradFor).
    const inputs = data.map((d, k) => tpu.tensor(d, { dtype: 'float32' }).reshape(c.shapes[k]!).requiresGrad_());
    const out: Tensor = apply(c.op, inputs, c.attrs as never);
    const nOut = out.numel();
    const w = seededValues(nOut, 77).map(Math.fround);
    const g = tpu.tensor(w, { dtype: 'float32' }).reshape([...out.shape]);
    const grads = (c.op.grad as ops.GradRule<any>)(g, inputs, out, c.attrs);
    data.forEach((d, k) => {
      const got = Array.from(grads[k]!.dataSync());
      expect(grads[k]!.shape).toEqual(c.shapes[k]);
      d.forEach((_, i) => {
        const h = 1e-6;
        const at = (delta: number) => {
          const xs = data.map((x, kk) => (kk === k ? x.map((v, ii) => (ii === i ? v + delta : v)) : x));
          return c.f(xs).reduce((s, y, j) => s + y * w[j]!, 0);
        };
        const numeric = (at(h) - at(-h)) / (2 * h);
        expect(got[i]!, `${c.name} input ${k} element ${i}`).toBeCloseTo(numeric, 4);
      });
    });
    tpu.mode('strict');
  });
});
