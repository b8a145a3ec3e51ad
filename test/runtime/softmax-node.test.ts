// A last-axis float32 softmax in a program that runs on ONNX Runtime is one tpu_kernel.Softmax
// node (native/softmax-op.cc). Each result against a float64 softmax of the exact inputs
// computed here, in float32 ulps (2^-149 below 2^-126, float32's denormal step):
// - narrow rows (max - min + ln(cols) < 87, no result can underflow): x - max rounded to float32
//   as PyTorch rounds it (|x - max| ulps at most), then float32 exp, sum and quotient: within
//   6 + |x - max| ulps;
// - wide rows (the rest: W4's logits): exact differences, denormal results made from their
//   bits: within 6 ulps.
// Rows sit on both sides of the bound. A row with a NaN or +inf, or all -inf, is NaN (PyTorch
// 2.13 gives NaN for [inf, 1], [inf, inf], [-inf, -inf], [nan, 1]); -inf entries give 0.
// Generated loops off: a softmax alone would run as one (the node serves programs that run on
// ONNX Runtime, W4's, which holds matmuls).
process.env.TPU_KERNEL_LOOPGEN = '0';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

const COLS = 1024;
/** The narrow bound on max - min for COLS columns: 87 - ln(1024) = 80.07. */
const NARROW = 87 - Math.log(COLS);
/** [span, center] of each finite row: unit range, ordinary, either side of the bound, wide. */
const SPANS: [number, number][] = [
  [1, 0], [1, 37.5], [10, 0], [30, -20], [NARROW - 0.02, 0], [NARROW - 0.02, 37.5],
  [NARROW + 0.02, 0], [NARROW + 0.02, 37.5], [100, 0], [200, -1000], [3000, 1500],
];
// 70 rows of 1024: 5 blocks of 16 rows over the pool, the last one short
const ROWS = 70;
// rows 3 (narrow), 20 and 31 (wide) hold a NaN, row 31's with a payload (0x7fa00001: the exp's
// bit arithmetic must keep it NaN)
const SPECIAL = { nan: 3, wideNan: 20, wideNanPayload: 31, inf: 11, someMinusInf: 12, allMinusInf: 40, oneFinite: 41 };

/** Row r: SPANS[r % 11], its ends placed exactly (so its range is the span), the rest seeded. */
function rows(): Float32Array {
  const x = new Float32Array(ROWS * COLS);
  for (let r = 0; r < ROWS; r++) {
    const [span, center] = SPANS[r % SPANS.length]!;
    const row = seededValues(COLS, 100 + r, center - span / 2, center + span / 2);
    row[0] = center - span / 2;
    row[COLS - 1] = center + span / 2;
    x.set(row, r * COLS);
  }
  const put = (r: number, c: number, v: number) => void (x[r * COLS + c] = v);
  put(SPECIAL.nan, 5, NaN);
  put(SPECIAL.wideNan, 900, NaN);
  new Uint32Array(x.buffer)[SPECIAL.wideNanPayload * COLS + 77] = 0x7fa00001;
  put(SPECIAL.inf, 700, Infinity);
  put(SPECIAL.someMinusInf, 0, -Infinity);
  put(SPECIAL.someMinusInf, 1023, -Infinity);
  for (let c = 0; c < COLS; c++) put(SPECIAL.allMinusInf, c, -Infinity);
  for (let c = 1; c < COLS; c++) put(SPECIAL.oneFinite, c, -Infinity);
  return x;
}

/** Softmax of each row of `cols` in float64 (NaN rows fall out of the arithmetic). */
function reference(x: Float32Array, cols: number): Float64Array {
  const y = new Float64Array(x.length);
  for (let o = 0; o < x.length; o += cols) {
    const row = Array.from(x.subarray(o, o + cols));
    const m = row.some(Number.isNaN) ? NaN : Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const sum = e.reduce((a, b) => a + b, 0);
    e.forEach((v, j) => (y[o + j] = v / sum));
  }
  return y;
}

/** float32's unit in the last place at q (>= 0): 2^-149 below the normal range. */
function ulp(q: number): number {
  if (q < 2 ** -126) return 2 ** -149;
  let e = Math.floor(Math.log2(q));
  if (2 ** e > q) e--;
  else if (2 ** (e + 1) <= q) e++;
  return 2 ** (e - 23);
}

/** The ulps each result of a row may be off: base + |x - max| where x - max is rounded, base where it is exact. */
function allowance(x: Float32Array, cols: number, base: number, roundsDifference: (narrow: boolean) => boolean): Float64Array {
  const out = new Float64Array(x.length);
  for (let o = 0; o < x.length; o += cols) {
    const row = x.subarray(o, o + cols);
    const [hi, lo] = [Math.max(...row), Math.min(...row)];
    const rounded = roundsDifference(hi - lo + Math.log(cols) < 87);
    row.forEach((v, j) => (out[o + j] = base + (rounded && Number.isFinite(v - hi) ? hi - v : 0)));
  }
  return out;
}

/** The node: rounded differences in narrow rows only. */
const nodeAllowance = (x: Float32Array, cols: number) => allowance(x, cols, 6, (narrow) => narrow);
/** Op by op (debug mode, as PyTorch): x - max rounded, ONNX Runtime's float32 exp, sum and div. */
const opByOpAllowance = (x: Float32Array, cols: number) => allowance(x, cols, 8, () => true);

/** Results off the float64 softmax by more than their allowance in ulps (NaN must match NaN). */
function misses(actual: Float32Array, want: Float64Array, ulps: Float64Array): string[] {
  expect(actual.length).toBe(want.length);
  const bad: string[] = [];
  want.forEach((w, i) => {
    const a = actual[i]!;
    const ok = Number.isNaN(w) ? Number.isNaN(a) : Math.abs(a - w) <= ulps[i]! * ulp(w);
    if (!ok) bad.push(`[${Math.floor(i / COLS)}, ${i % COLS}]: ${a} against ${w}`);
  });
  return bad.slice(0, 5);
}

const x = rows();
const want = reference(x, COLS);
const finiteRows = [0, 1, 2, 4, 5, 6, 7, 8, 9, 10]; // no special values (debug mode refuses NaN and inf)
const finite = Float32Array.from(finiteRows.flatMap((r) => Array.from(x.subarray(r * COLS, (r + 1) * COLS))));
const finiteWant = reference(finite, COLS);

it('the rows hold both sides of the bound, float32 denormal results and NaN rows', () => {
  const range = (r: number) => Math.max(...x.subarray(r * COLS, (r + 1) * COLS)) - Math.min(...x.subarray(r * COLS, (r + 1) * COLS));
  expect(range(4)).toBeLessThan(NARROW);
  expect(range(6)).toBeGreaterThan(NARROW);
  for (const r of [SPECIAL.wideNan, SPECIAL.wideNanPayload]) expect(SPANS[r % SPANS.length]![0]).toBeGreaterThan(NARROW);
  expect(Number.isNaN(x[SPECIAL.wideNanPayload * COLS + 77]!)).toBe(true);
  const tiny = (v: number) => v > 0 && v < 2 ** -126 && Math.fround(v) !== 0;
  expect(want.filter(tiny).length).toBeGreaterThan(1000);
  expect(Array.from({ length: ROWS }, (_, r) => Number.isNaN(want[r * COLS + 7]!))).toEqual(
    Array.from({ length: ROWS }, (_, r) => [SPECIAL.nan, SPECIAL.wideNan, SPECIAL.wideNanPayload, SPECIAL.inf, SPECIAL.allMinusInf].includes(r)),
  );
});

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  const allowed = mode === 'debug' ? opByOpAllowance : nodeAllowance;

  it('x.softmax(-1) of rows from unit range to wide against float64', () => {
    const y = tpu.withMode(mode, () => tpu.tensor(finite).reshape([finiteRows.length, COLS]).softmax(-1));
    expect(misses(y.dataSync() as Float32Array, finiteWant, allowed(finite, COLS))).toEqual([]);
  });

  it('tpu.softmax with NaN, +inf and -inf rows, over several pool blocks', () => {
    // the NaN and inf here are the input's: debug mode passes them on too
    const y = tpu.withMode(mode, () => tpu.softmax(tpu.tensor(x).reshape([ROWS, COLS]), -1));
    expect(misses(y.dataSync() as Float32Array, want, allowed(x, COLS))).toEqual([]);
    // the row with one finite entry: [1, 0, 0, ...], as PyTorch's
    expect(Array.from(y.dataSync().subarray(SPECIAL.oneFinite * COLS, SPECIAL.oneFinite * COLS + 3))).toEqual([1, 0, 0]);
  });

  it('a single element, one-element rows, and a 3-d tensor', () => {
    const three = Float32Array.from(seededValues(2 * 3 * 77, 9, -150, 0));
    const [one, column, cube] = tpu.withMode(mode, () => [
      tpu.tensor([-5]).softmax(-1),
      tpu.tensor([[1], [-1e30], [7]]).softmax(1),
      tpu.nn.functional.softmax(tpu.tensor(three).reshape([2, 3, 77]), 2),
    ]);
    expect(Array.from(one!.dataSync())).toEqual([1]);
    expect(Array.from(column!.dataSync())).toEqual([1, 1, 1]);
    expect(misses(cube!.dataSync() as Float32Array, reference(three, 77), allowed(three, 77))).toEqual([]);
  });
});

describe.each([
  ['narrow', 1],
  ['wide', 40],
] as const)('under tpu.compile, relu(x @ w) -> softmax over %s logits', (_, scale) => {
  it('matches float64 on the logits the same matmul makes in strict mode', () => {
    const [a, w] = [tpu.tensor(seededValues(16 * 64, 31, 0, 1)).reshape([16, 64]), tpu.tensor(seededValues(64 * 300, 32, -scale, scale)).reshape([64, 300])];
    const f = tpu.compile((a: Tensor, w: Tensor) => a.matmul(w).relu().softmax(-1));
    const y = (f(a, w) as Tensor).dataSync() as Float32Array;
    const logits = tpu.withMode('strict', () => a.matmul(w).relu()).dataSync() as Float32Array;
    const ranges = Array.from({ length: 16 }, (_, r) => logits.subarray(r * 300, (r + 1) * 300)).map((row) => Math.max(...row) - Math.min(...row));
    expect(ranges.every((d) => (d + Math.log(300) < 87) === (scale === 1))).toBe(true);
    expect(misses(y, reference(logits, 300), nodeAllowance(logits, 300))).toEqual([]);
  });
});

describe('the lowering', () => {
  const v = (shape: number[]) => ({ shape, dtype: 'float32' }) as const;
  // softmax over `dim` of one input: amax, sub, exp, sum, div
  const program = (shape: number[], dim: number) => {
    const kept = shape.map((s, i) => (i === dim ? 1 : s));
    const node = (op: string, inputs: number[], out: number[], attrs: object = {}) => ({ op, inputs, attrs, shape: out, dtype: 'float32' });
    const reduce = { dims: [dim], keepdim: true };
    const nodes = [node('amax', [0], kept, reduce), node('sub', [0, 1], shape), node('exp', [2], shape), node('sum', [3], kept, reduce), node('div', [3, 4], shape)];
    return { inputs: [v(shape)], scalars: [], nodes, outputs: [5] };
  };
  const text = (p: object, softmax: boolean) => lowerToOnnx(p as never, { softmax }).text;

  it('makes a last-axis softmax one tpu_kernel.Softmax node, ONNX Softmax otherwise', () => {
    expect(text(program([4, 5], 1), true)).toMatch(/= tpu_kernel\.Softmax\(in0\)/);
    expect(text(program([4, 5], 1), true)).not.toMatch(/Exp|ReduceMax/);
    expect(text(program([4, 5], 0), true)).toMatch(/= Softmax\(in0, axis=0\)/);
    expect(text(program([4, 5], 1), false)).toMatch(/= Softmax\(in0, axis=1\)/);
  });
});
