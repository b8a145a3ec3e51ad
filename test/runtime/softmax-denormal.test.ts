// A last-axis float32 softmax runs as one tpu_kernel.Softmax node through the ortc addon:
// exp, the row sum and the quotient in float64, so wide logits (W4's, whose float32 exps are
// denormal) cost no microcode assists. Each result against a float64 softmax computed here:
// within 2^-23 relative when normal, within one step of float32's denormal grid (2^-149)
// below; a row with a NaN or +inf, or all -inf, is NaN (PyTorch 2.13 gives NaN for
// [inf, 1], [inf, inf], [-inf, -inf], [nan, 1]). Shapes span several blocks of the pool.
// Generated loops off: a softmax alone would run as one (the node serves programs that run on
// ONNX Runtime, W4's, which holds matmuls).
process.env.TPU_KERNEL_LOOPGEN = '0';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

const COLS = 1024;
// 70 rows of 1024: 5 blocks of 16 rows, the last one short
const ROWS = 70;

/** Row r of the wide input: ranges from unit to W4's thousands, some with special values. */
function wideRows(): Float32Array {
  const x = new Float32Array(ROWS * COLS);
  for (let r = 0; r < ROWS; r++) {
    const span = [1, 30, 120, 200, 3000][r % 5]!;
    const row = Float32Array.from(seededValues(COLS, 100 + r, -span, 0).map((v) => v + (r % 7) * 1000));
    x.set(row, r * COLS);
  }
  const put = (r: number, c: number, v: number) => void (x[r * COLS + c] = v);
  put(3, 5, NaN);
  put(11, 700, Infinity);
  put(12, 0, -Infinity);
  put(12, 1023, -Infinity);
  for (let c = 0; c < COLS; c++) put(40, c, -Infinity);
  for (let c = 1; c < COLS; c++) put(41, c, -Infinity);
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

/**
 * Counts results off the float64 softmax by more than `tolerance`: a relative error (2^-23: the
 * node's float64 path rounds about once) or a number of steps of float32's denormal grid (one).
 */
function misses(actual: Float32Array, want: Float64Array, tolerance = NODE): number {
  expect(actual.length).toBe(want.length);
  let bad = 0;
  want.forEach((w, i) => {
    const a = actual[i]!;
    const ok = Number.isNaN(w) ? Number.isNaN(a) : Math.abs(a - w) <= Math.max(tolerance.relative * w, tolerance.steps * 2 ** -149);
    if (!ok) bad++;
  });
  return bad;
}

const NODE = { relative: 2 ** -23, steps: 1 };
// op by op in float32 (debug mode), as PyTorch: x - max rounded to float32 moves exp by up to
// |x - max|·2^-24 relative (~1e-5 at 150), exp's own few ulps, the bits a denormal exp loses
const OP_BY_OP = { relative: 2 ** -16, steps: 8 };

const x = wideRows();
const want = reference(x, COLS);
const finite = x.slice(0, 3 * COLS); // rows 0-2: no special values (debug mode refuses NaN and inf)

it('the wide rows hold float32 denormal results, and NaN rows', () => {
  const tiny = (v: number) => v > 0 && v < 2 ** -126 && Math.fround(v) !== 0;
  expect(want.filter(tiny).length).toBeGreaterThan(1000);
  expect(Array.from({ length: ROWS }, (_, r) => Number.isNaN(want[r * COLS + 7]!))).toEqual(
    Array.from({ length: ROWS }, (_, r) => r === 3 || r === 11 || r === 40),
  );
});

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  const tolerance = mode === 'debug' ? OP_BY_OP : NODE;

  it('softmax(-1) of wide rows against float64', () => {
    const y = tpu.withMode(mode, () => tpu.tensor(finite).reshape([3, COLS]).softmax(-1));
    expect(misses(y.dataSync() as Float32Array, want.slice(0, 3 * COLS), tolerance)).toBe(0);
  });

  it('softmax(-1) with NaN, +inf and -inf, over several pool blocks', () => {
    // debug mode refuses the NaN made here: the two other modes only
    if (mode === 'debug') return void expect(() => tpu.withMode(mode, () => tpu.tensor(x).reshape([ROWS, COLS]).softmax(-1).dataSync())).toThrow(/NaN|inf/i);
    const y = tpu.withMode(mode, () => tpu.tensor(x).reshape([ROWS, COLS]).softmax(-1));
    expect(misses(y.dataSync() as Float32Array, want)).toBe(0);
  });

  it('a single element, one-element rows, and a 3-d tensor', () => {
    const three = Float32Array.from(seededValues(2 * 3 * 77, 9, -150, 0));
    const [one, column, cube] = tpu.withMode(mode, () => [
      tpu.tensor([-5]).softmax(-1),
      tpu.tensor([[1], [-1e30], [7]]).softmax(1),
      tpu.tensor(three).reshape([2, 3, 77]).softmax(2),
    ]);
    expect(Array.from(one!.dataSync())).toEqual([1]);
    expect(Array.from(column!.dataSync())).toEqual([1, 1, 1]);
    expect(misses(cube!.dataSync() as Float32Array, reference(three, 77), tolerance)).toBe(0);
  });
});

it('under tpu.compile, relu(x @ w) -> softmax over wide logits', () => {
  const xs = Float32Array.from(seededValues(16 * 64, 31, 0, 1));
  const ws = Float32Array.from(seededValues(64 * 300, 32, -40, 40));
  const f = tpu.compile((a: Tensor, w: Tensor) => a.matmul(w).relu().softmax(-1));
  const y = f(tpu.tensor(xs).reshape([16, 64]), tpu.tensor(ws).reshape([64, 300])) as Tensor;
  // the logits in float64, rounded to float32 as the matmul's result is stored
  const logits = new Float32Array(16 * 300);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 300; j++) {
      let s = 0;
      for (let k = 0; k < 64; k++) s += xs[i * 64 + k]! * ws[k * 300 + j]!;
      logits[i * 300 + j] = Math.max(s, 0);
    }
  }
  // the matmul's own float32 rounding moves a logit by ~1e-5 and its exp by as much relative
  const actual = y.dataSync() as Float32Array;
  const ref = reference(logits, 300);
  const far = Array.from(ref).filter((w, i) => Math.abs(actual[i]! - w) > Math.max(1e-4 * w, 2 ** -149)).length;
  expect(far).toBe(0);
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
