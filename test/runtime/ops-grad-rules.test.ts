// The gradient rule of every primitive of the catalog against central finite differences of
// a float64 forward computed here: d/dx_i Σ w·f(x) for a fixed weight w. (Composed ops get
// their gradients from these primitives.)
import { describe, expect, it } from 'vitest';
import { tpu, ops, apply, type Tensor } from 'tpu-kernel/runtime';
import { conv2dRef, erfRef, ravel, seededValues, unravel } from '../support/reference.js';

interface Case {
  name: string;
  op: ops.OpDef<any>;
  shapes: number[][];
  attrs: Record<string, unknown>;
  /** Extra non-differentiable operands (int32 index tensors, bool conditions) after the inputs. */
  extra?: () => Tensor[];
  /** float64 forward on flat inputs -> flat output. */
  f: (xs: number[][]) => number[];
  lo?: number;
}

const ew = (fn: (...v: number[]) => number) => (xs: number[][]) => xs[0]!.map((_, i) => fn(...xs.map((x) => x[i % x.length]!)));
const size = (s: number[]) => s.reduce((p, q) => p * q, 1);
/** out[k] = x[src(k)] for a static index map (slices, concat, gather...). */
const pick = (n: number, src: (k: number) => number) => ([x]: number[][]) => Array.from({ length: n }, (_, k) => x![src(k)]!);

const convT = (x: number[], w: number[]) => {
  // convTranspose2d of x [1, 2, 3, 3] with w [2, 1, 2, 2], stride 2, padding 1, output padding 1 (5x5): scatter form.
  const out = new Array(5 * 5).fill(0);
  for (let c = 0; c < 2; c++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) {
    const y = i * 2 - 1 + a;
    const z = j * 2 - 1 + b;
    if (y >= 0 && y < 5 && z >= 0 && z < 5) out[y * 5 + z] += x[c * 9 + i * 3 + j]! * w[c * 4 + a * 2 + b]!;
  }
  return out;
};

const CASES: Case[] = [
  { name: 'rsqrt', op: ops.rsqrt, shapes: [[5]], attrs: {}, f: ew((x) => 1 / Math.sqrt(x)), lo: 0.5 },
  { name: 'square', op: ops.square, shapes: [[5]], attrs: {}, f: ew((x) => x * x) },
  { name: 'reciprocal', op: ops.reciprocal, shapes: [[5]], attrs: {}, f: ew((x) => 1 / x), lo: 0.5 },
  { name: 'sin', op: ops.sin, shapes: [[5]], attrs: {}, f: ew(Math.sin) },
  { name: 'cos', op: ops.cos, shapes: [[5]], attrs: {}, f: ew(Math.cos) },
  { name: 'sigmoid', op: ops.sigmoid, shapes: [[5]], attrs: {}, f: ew((x) => 1 / (1 + Math.exp(-x))) },
  { name: 'erf', op: ops.erf, shapes: [[5]], attrs: {}, f: ew(erfRef) },
  { name: 'log1p', op: ops.log1p, shapes: [[5]], attrs: {}, f: ew(Math.log1p), lo: 0 },
  { name: 'expm1', op: ops.expm1, shapes: [[5]], attrs: {}, f: ew(Math.expm1) },
  { name: 'pow', op: ops.pow, shapes: [[2, 3], [3]], attrs: {}, f: ew(Math.pow), lo: 0.5 },
  { name: 'maximum', op: ops.maximum, shapes: [[2, 3], [2, 3]], attrs: {}, f: ew(Math.max) },
  { name: 'minimum', op: ops.minimum, shapes: [[2, 3], [3]], attrs: {}, f: ew(Math.min) },
  {
    name: 'where', op: ops.whereOp, shapes: [[2, 3], [3]], attrs: {},
    extra: () => [tpu.tensor([[true, false, true], [false, false, true]])],
    f: ([x, y]) => [1, 0, 1, 0, 0, 1].map((c, k) => (c ? x![k]! : y![k % 3]!)),
  },
  { name: 'amin', op: ops.amin, shapes: [[2, 3]], attrs: { dims: [1], keepdim: false }, f: ([x]) => [Math.min(...x!.slice(0, 3)), Math.min(...x!.slice(3))] },
  { name: 'prod', op: ops.prod, shapes: [[2, 3]], attrs: { dims: [0, 1], keepdim: false }, f: ([x]) => [x!.reduce((p, q) => p * q, 1)] },
  {
    name: 'slice (negative step)', op: ops.slice, shapes: [[3, 5]], attrs: { begin: [2, 4], step: [-2, -3], count: [2, 2] },
    f: pick(4, (k) => ravel([2 - 2 * Math.floor(k / 2), 4 - 3 * (k % 2)], [3, 5])),
  },
  {
    name: 'embedSlice', op: ops.embedSlice, shapes: [[2, 2]], attrs: { begin: [0, 1], step: [2, 2], count: [2, 2], shape: [3, 5] },
    f: ([x]) => Array.from({ length: 15 }, (_, k) => {
      const [i, j] = unravel(k, [3, 5]);
      return i! % 2 === 0 && j! % 2 === 1 && j! <= 3 ? x![(i! / 2) * 2 + (j! - 1) / 2]! : 0;
    }),
  },
  {
    name: 'pad (negative crops)', op: ops.padOp, shapes: [[2, 4]], attrs: { pads: [[1, 0], [-1, 2]] },
    extra: () => [] as Tensor[],
    f: ([x]) => Array.from({ length: 15 }, (_, k) => {
      const [i, j] = unravel(k, [3, 5]);
      return i! >= 1 && j! < 3 ? x![(i! - 1) * 4 + j! + 1]! : 0;
    }),
  },
  {
    name: 'concat', op: ops.concatOp, shapes: [[2, 1], [2, 2]], attrs: { dim: 1 },
    f: ([a, b]) => [a![0]!, b![0]!, b![1]!, a![1]!, b![2]!, b![3]!],
  },
  { name: 'cumsum', op: ops.cumsumOp, shapes: [[2, 3]], attrs: { dim: 1, reverse: false, exclusive: false }, f: ([x]) => [0, 1, 2, 3, 4, 5].map((k) => x!.slice(k - (k % 3), k + 1).reduce((p, q) => p + q, 0)) },
  {
    name: 'indexSelect', op: ops.indexSelectOp, shapes: [[3, 2]], attrs: { dim: 0 },
    extra: () => [tpu.tensor([[2, 0], [2, 2]], { dtype: 'int32' })],
    f: pick(8, (k) => [2, 0, 2, 2][Math.floor(k / 2)]! * 2 + (k % 2)),
  },
  {
    name: 'gather', op: ops.gatherOp, shapes: [[2, 3]], attrs: { dim: 1 },
    extra: () => [tpu.tensor([[2, 2], [0, 1]], { dtype: 'int32' })],
    f: pick(4, (k) => [2, 2, 3, 4][k]!),
  },
  {
    name: 'scatterAdd', op: ops.scatterAddOp, shapes: [[2, 3]], attrs: { dim: 1 },
    extra: () => [tpu.tensor([[2, 2], [0, 1]], { dtype: 'int32' })],
    f: ([x]) => x!.map((v, k) => v + [0, 0, 2, 1, 1, 0][k]! * 0.5),
  },
  {
    name: 'topkValues', op: ops.topkValuesOp, shapes: [[2, 4]], attrs: { dim: 1, k: 2, largest: true },
    f: ([x]) => [0, 1].flatMap((r) => x!.slice(r * 4, r * 4 + 4).sort((p, q) => q - p).slice(0, 2)),
  },
  { name: 'trilu', op: ops.triluOp, shapes: [[3, 3]], attrs: { upper: true, diagonal: 1 }, f: ([x]) => x!.map((v, k) => (k % 3 > Math.floor(k / 3) ? v : 0)) },
  {
    name: 'conv2d', op: ops.conv2dOp, shapes: [[1, 2, 4, 4], [2, 1, 2, 3]], attrs: { stride: [2, 1], padding: [1, 1], dilation: [1, 1], groups: 2 },
    f: ([x, w]) => conv2dRef({ shape: [1, 2, 4, 4], data: x! }, { shape: [2, 1, 2, 3], data: w! }, { stride: [2, 1], padding: [1, 1], dilation: [1, 1], groups: 2 }).data,
  },
  {
    name: 'convTranspose2d', op: ops.convTranspose2dOp, shapes: [[1, 2, 3, 3], [2, 1, 2, 2]],
    attrs: { stride: [2, 2], padding: [1, 1], dilation: [1, 1], groups: 1, outputPadding: [1, 1] }, f: ([x, w]) => convT(x!, w!),
  },
];

describe.each(['strict', 'fused'] as const)('gradient rules of the catalog (%s)', (mode) => {
  it.each(CASES)('$name', (c) => {
    tpu.mode(mode);
    const data = c.shapes.map((s, k) => seededValues(size(s), 51 + k, c.lo ?? -2, 2).map(Math.fround));
    // Rules compute gradients only for operands that require grad (ops/grad-helpers.ts gradFor).
    const inputs = data.map((d, k) => tpu.tensor(d, { dtype: 'float32' }).reshape(c.shapes[k]!).requiresGrad_());
    const extra = c.extra?.() ?? [];
    // operand order of each op: where(cond, x, y); gather/indexSelect(x, index); scatterAdd(x, index, src); pad(x, value)
    const operands = c.op === ops.whereOp ? [extra[0]!, ...inputs]
      : c.op === ops.scatterAddOp ? [inputs[0]!, extra[0]!, tpu.fullLike(extra[0]!, 0.5, { dtype: 'float32' })]
      : c.op === ops.padOp ? [inputs[0]!, 0]
      : [...inputs, ...extra];
    const out: Tensor = apply(c.op, operands, c.attrs as never);
    const w = seededValues(out.numel(), 77).map(Math.fround);
    const g = tpu.tensor(w, { dtype: 'float32' }).reshape([...out.shape]);
    const grads = (c.op.grad as ops.GradRule<any>)(g, operands, out, c.attrs);
    const gradOf = (k: number) => (c.op === ops.whereOp ? grads[k + 1] : grads[k]);
    data.forEach((d, k) => {
      const grad = gradOf(k)!;
      expect(grad.shape).toEqual(c.shapes[k]);
      const got = Array.from(grad.dataSync());
      d.forEach((_, i) => {
        const h = 1e-6;
        const at = (delta: number) => {
          const xs = data.map((x, kk) => (kk === k ? x.map((v, ii) => (ii === i ? v + delta : v)) : x));
          return c.f(xs).reduce((s, y, j) => s + y * w[j]!, 0);
        };
        expect(got[i]!, `${c.name} input ${k} element ${i}`).toBeCloseTo((at(h) - at(-h)) / (2 * h), 4);
      });
    });
    tpu.mode('strict');
  });

  it('rounding ops and comparisons say how they differentiate', () => {
    expect(ops.floor.grad).not.toBe('not-differentiable');
    const g = (ops.floor.grad as ops.GradRule<any>)(tpu.ones([2]), [tpu.ones([2])], tpu.ones([2]), {});
    expect(g[0]!.array()).toEqual([0, 0]);
    for (const op of [ops.ge, ops.le, ops.logicalAnd, ops.logicalNot, ops.isnan, ops.argmaxOp, ops.topkIndicesOp, ops.anyOp]) {
      expect(op.grad, op.name).toBe('not-differentiable');
    }
  });
});
