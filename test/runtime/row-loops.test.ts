// Generated row loops (per-row sum/mean, as layerNorm and rmsNorm make) and the loops' erf:
// the kernel against float64 loops written here at row lengths 2, 7, 1025 and 1e6, NaN and inf
// rows as PyTorch gives them, rows split over threads bitwise as on one; then layerNorm -> gelu
// through the session in strict and fused mode (row lengths 1, odd, 1e6, one row, bfloat16),
// rmsNorm, and layerNorm's gradients, against float64 references.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { generateRowsC } from '../../dist/runtime/device/loopgen/generate-rows-c.js';
import { generateC } from '../../dist/runtime/device/loopgen/generate-c.js';
import { compileKernel } from '../../dist/runtime/device/loopgen/native.js';
import type { Program } from '../../dist/runtime/program/program.js';
import { erfRef, float32Ulp, seededValues } from '../support/reference.js';
import { elementwise, erfLoopWorstUlps } from '../support/erf-loop.js';

const EPS = 1e-5;
afterEach(() => tpu.mode('strict'));

/** layerNorm's program over rows of `cols` (as runtime/ops/nn/normalization.ts records it): outputs y and the mean. */
function layerNormProgram(rows: number, cols: number): Program {
  const full = { shape: [rows, cols], dtype: 'float32' as const };
  const row = { shape: [rows, 1], dtype: 'float32' as const };
  const col = { shape: [cols], dtype: 'float32' as const };
  const mean = { dims: [1], keepdim: true };
  const n = (op: string, inputs: number[], v: typeof full, attrs: object = {}) => ({ op, inputs, attrs, ...v });
  return {
    inputs: [full, col, col],
    scalars: [],
    nodes: [
      n('mean', [0], row, mean), // 3
      n('sub', [0, 3], full), // 4
      n('square', [4], full), // 5
      n('mean', [5], row, mean), // 6
      n('constant', [], { shape: [], dtype: 'float32' }, { shape: [], dtype: 'float32', values: [EPS] }), // 7
      n('add', [6, 7], row), // 8
      n('sqrt', [8], row), // 9
      n('div', [4, 9], full), // 10
      n('mul', [10, 1], full), // 11
      n('add', [11, 2], full), // 12
    ],
    outputs: [12, 3],
  };
}

/** float64 layerNorm of each row of x, with its mean. */
function layerNormRef(x: ArrayLike<number>, rows: number, cols: number, w: ArrayLike<number>, b: ArrayLike<number>) {
  const y = new Float64Array(rows * cols);
  const means = new Float64Array(rows);
  const stds = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let j = 0; j < cols; j++) m += x[r * cols + j]!;
    m /= cols;
    let v = 0;
    for (let j = 0; j < cols; j++) v += (x[r * cols + j]! - m) ** 2;
    const s = Math.sqrt(v / cols + EPS);
    for (let j = 0; j < cols; j++) y[r * cols + j] = ((x[r * cols + j]! - m) / s) * w[j]! + b[j]!;
    means[r] = m;
    stds[r] = s;
  }
  return { y, means, stds };
}

const gelu = (v: number) => 0.5 * v * (1 + erfRef(v / Math.SQRT2));

/** Worst |got - want| / max(1, |want|) over finite references; a NaN reference wants NaN. */
function worstError(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    if (Number.isNaN(want[i]!)) expect(got[i], `element ${i}`).toBeNaN();
    else worst = Math.max(worst, Math.abs(got[i]! - want[i]!) / Math.max(1, Math.abs(want[i]!)));
  }
  return worst;
}

describe('generated row loops', () => {
  it('take sums and means over the same trailing dims with keepdim, and leave the rest to ONNX Runtime', () => {
    const p = layerNormProgram(8, 16);
    expect(generateRowsC(p)?.source).toContain('tk_kernel');
    expect(generateRowsC(p)).toMatchObject({ rows: 8, cols: 16 });
    expect(generateRowsC(layerNormProgram(1, 50))).toMatchObject({ rows: 1, cols: 50 }); // one row: its values are one-value shaped
    const other = (i: number, attrs: object) => ({ ...p, nodes: p.nodes.map((n, k) => (k === i ? { ...n, attrs } : n)) });
    expect(generateRowsC(other(0, { dims: [0], keepdim: true }))).toBeUndefined(); // not the trailing dim
    expect(generateRowsC(other(3, { dims: [1], keepdim: false }))).toBeUndefined();
    expect(generateRowsC(layerNormProgram(8, 1))).toBeUndefined(); // rows of one: nothing to reduce
    expect(generateRowsC({ ...p, inputs: [{ shape: [8, 16], dtype: 'int32' }, ...p.inputs.slice(1)] })).toBeUndefined();
  });

  it('divide by a row\'s square root as a product with its reciprocal, taken once a row (PyTorch\'s rstd); other row divisors keep the division', async () => {
    const p = layerNormProgram(4, 8);
    const source = generateRowsC(p)!.source;
    expect(source).toContain('const float r9 = 1.0f / v9;');
    expect(source).toContain('const float v10 = v4 * r9;');
    expect(source).not.toContain('v4 / v9');
    // a quotient by the variance itself (no root) stays a division
    const byVariance = { ...p, nodes: p.nodes.map((n, k) => (k === 7 ? { ...n, inputs: [4, 8] } : n)) };
    expect(generateRowsC(byVariance)!.source).toContain('const float v10 = v4 / v8;');
    // eps 0 and a constant row: the root is 0, so 0 * (1/0) is NaN as 0 / 0 (PyTorch: NaN too); the other rows finite
    const noEps = { ...p, nodes: p.nodes.map((n, k) => (k === 4 ? { ...n, attrs: { ...n.attrs, values: [0] } } : n)) };
    const kernel = await compileKernel(generateRowsC(noEps)!.source);
    const x = Float32Array.from(seededValues(32, 8));
    x.fill(2.5, 8, 16);
    const y = new Float32Array(32);
    kernel!.run([x, new Float32Array(8).fill(1), new Float32Array(8)], new Float32Array(0), [y, new Float32Array(4)], 4, 1, 8);
    expect(Array.from(y.subarray(8, 16)).every(Number.isNaN)).toBe(true);
    for (const r of [0, 2, 3]) {
      const row = Array.from(x.subarray(r * 8, r * 8 + 8));
      const m = row.reduce((a, b) => a + b) / 8;
      const s = Math.sqrt(row.reduce((a, b) => a + (b - m) ** 2, 0) / 8);
      row.forEach((v, j) => expect(Math.abs(y[r * 8 + j]! - (v - m) / s), `row ${r} col ${j}`).toBeLessThan(1e-5));
    }
  });

  it.each([[300, 2], [300, 7], [40, 1025], [1, 4097], [2, 1_000_000]])('layerNorm of [%d, %d] within float32 accuracy of float64, the mean within 4e-6', async (rows, cols) => {
    const kernel = await compileKernel(generateRowsC(layerNormProgram(rows, cols))!.source);
    expect(kernel, 'gcc is on this machine, so the kernel must build').toBeDefined();
    // an offset: the mean is large against the spread, where a careless variance loses digits
    const x = Float32Array.from(seededValues(rows * cols, 3, 9, 11));
    const w = Float32Array.from(seededValues(cols, 4, 0.5, 1.5));
    const b = Float32Array.from(seededValues(cols, 5, -1, 1));
    const y = new Float32Array(rows * cols);
    const mean = new Float32Array(rows);
    kernel!.run([x, w, b], new Float32Array(0), [y, mean], rows, 2, cols);
    const ref = layerNormRef(x, rows, cols, w, b);
    ref.means.forEach((m, r) => expect(Math.abs(mean[r]! - m) / m).toBeLessThan(4e-6));
    // x - mean carries the float32 mean's rounding (a few 2^-24 |mean|), magnified by 1/std
    // where a row's values are close together (any float32 layerNorm has this)
    for (let r = 0; r < rows; r++) {
      const bound = 2e-5 + (8 * 2 ** -24 * ref.means[r]!) / ref.stds[r]!;
      const at = (k: number) => r * cols + k;
      let worst = 0;
      for (let j = 0; j < cols; j++) worst = Math.max(worst, Math.abs(y[at(j)]! - ref.y[at(j)]!) / Math.max(1, Math.abs(ref.y[at(j)]!)));
      expect(worst, `row ${r}`).toBeLessThan(bound);
    }
  });

  it('a row holding NaN or inf is NaN throughout, as in PyTorch; the other rows are untouched', async () => {
    const [rows, cols] = [6, 33];
    const kernel = await compileKernel(generateRowsC(layerNormProgram(rows, cols))!.source);
    const x = Float32Array.from(seededValues(rows * cols, 6));
    x[1 * cols + 5] = NaN;
    x[2 * cols + 32] = Infinity;
    x[3 * cols] = -Infinity;
    x.fill(Infinity, 4 * cols, 5 * cols);
    const w = new Float32Array(cols).fill(1);
    const b = new Float32Array(cols);
    const y = new Float32Array(rows * cols);
    kernel!.run([x, w, b], new Float32Array(0), [y, new Float32Array(rows)], rows, 1, cols);
    for (const r of [1, 2, 3, 4]) expect(Array.from(y.subarray(r * cols, (r + 1) * cols)).every(Number.isNaN), `row ${r}`).toBe(true);
    const ref = layerNormRef(x, rows, cols, w, b);
    for (const r of [0, 5]) expect(worstError(y.subarray(r * cols, (r + 1) * cols), ref.y.subarray(r * cols, (r + 1) * cols))).toBeLessThan(1e-5);
  });

  it('splits rows over threads: bitwise as on one thread', async () => {
    const [rows, cols] = [1001, 100];
    const kernel = await compileKernel(generateRowsC(layerNormProgram(rows, cols))!.source);
    const x = Float32Array.from(seededValues(rows * cols, 8));
    const w = new Float32Array(cols).fill(2);
    const b = new Float32Array(cols).fill(-1);
    const run = (threads: number) => {
      const out = [new Float32Array(rows * cols).fill(NaN), new Float32Array(rows).fill(NaN)];
      kernel!.run([x, w, b], new Float32Array(0), out, rows, threads, cols);
      return out;
    };
    const one = run(1);
    for (const threads of [2, 3, 8]) {
      run(threads).forEach((out, k) => expect(out.every((v, i) => Object.is(v, one[k]![i])), `output ${k} on ${threads} threads`).toBe(true));
    }
  });

  /** Values over [-6, 6] (every interval of the block erf, and the clamp) with tiny, subnormal and interval-edge ones. */
  const erfSweep = (n: number) => {
    const x = Float32Array.from({ length: n }, (_, i) => (i / n) * 12 - 6);
    x.set([1e-30, -1e-38, 2 ** -149, 0.99999994, 1, -0.25, 0.24999999, 3.75, 3.9499998, 3.95, -4, 5e37], 5);
    return x;
  };

  it('elementwise erf a block at a time, within 2 ulp of float64 (0.69 measured), keeping NaN, +-inf and -0; threads bitwise as one', async () => {
    const n = (1 << 16) + 21; // blocks of 1024 and a ragged end
    const v = { shape: [n], dtype: 'float32' as const };
    const program: Program = { inputs: [v], scalars: [], nodes: [{ op: 'identity', inputs: [0], attrs: {}, ...v }, { op: 'erf', inputs: [1], attrs: {}, ...v }], outputs: [2] };
    const source = generateC(program)!;
    expect(source).toContain('tk_erf_block(b2, i1 - i0);');
    const kernel = await compileKernel(source);
    const x = erfSweep(n);
    expect(erfLoopWorstUlps(elementwise(kernel!), x)).toBeLessThanOrEqual(2);
    const one = elementwise(kernel!)(x);
    expect(elementwise(kernel!, 3)(x).every((v, i) => Object.is(v, one[i]))).toBe(true);
  });

  it('without AVX-512 the block is the scalar tk_erf: the same loop built with AVX-512 off, within 2 ulp, other bits than the register tables', async () => {
    const n = (1 << 16) + 21;
    const v = { shape: [n], dtype: 'float32' as const };
    const program: Program = { inputs: [v], scalars: [], nodes: [{ op: 'identity', inputs: [0], attrs: {}, ...v }, { op: 'erf', inputs: [1], attrs: {}, ...v }], outputs: [2] };
    const source = generateC(program)!;
    // as gcc -march=native builds it on a CPU without AVX-512: the pragma undefines __AVX512F__
    const portable = await compileKernel(`#pragma GCC target("no-avx512f")\n${source}`);
    const x = erfSweep(n);
    expect(erfLoopWorstUlps(elementwise(portable!), x)).toBeLessThanOrEqual(2);
    const tables = elementwise((await compileKernel(source))!)(x);
    const scalar = elementwise(portable!)(x);
    expect(scalar.some((v, i) => !Object.is(v, tables[i])), 'the fallback is another polynomial: some bits differ').toBe(true);
  });

  /** erf(x) and the row means of x over [rows, cols]; with `summed`, the means are of erf(x). */
  const erfRowsProgram = (rows: number, cols: number, summed: boolean): Program => {
    const full = { shape: [rows, cols], dtype: 'float32' as const };
    const row = { shape: [rows, 1], dtype: 'float32' as const };
    return {
      inputs: [full],
      scalars: [],
      nodes: [{ op: 'identity', inputs: [0], attrs: {}, ...full }, { op: 'erf', inputs: [1], attrs: {}, ...full }, { op: 'mean', inputs: [summed ? 2 : 0], attrs: { dims: [1], keepdim: true }, ...row }],
      outputs: [2, 3],
    };
  };
  /** The row loop of `program` as a function of its input: its erf output, the rows split over `threads`. */
  const rowsErf = async (program: Program, rows: number, cols: number, threads = 1) => {
    const kernel = await compileKernel(generateRowsC(program)!.source);
    return (x: Float32Array) => {
      const out = [new Float32Array(rows * cols), new Float32Array(rows)];
      kernel!.run([x], new Float32Array(0), out, rows, threads, cols);
      return out[0]!;
    };
  };

  it('an erf of an erf, and values both loops read, go through block buffers in a row loop: against float64', async () => {
    const [rows, cols] = [5, 1000];
    const full = { shape: [rows, cols], dtype: 'float32' as const };
    const node = (op: string, inputs: number[]) => ({ op, inputs, attrs: {}, ...full });
    // y = erf(erf(s) + s) * (erf(s) + s), s = x + x; and the row means of x
    const program: Program = {
      inputs: [full],
      scalars: [],
      nodes: [node('add', [0, 0]), node('erf', [1]), node('add', [2, 1]), node('erf', [3]), node('mul', [4, 3]), { op: 'mean', inputs: [0], attrs: { dims: [1], keepdim: true }, shape: [rows, 1], dtype: 'float32' }],
      outputs: [5, 6],
    };
    const source = generateRowsC(program)!.source;
    expect(source).toContain('tk_erf_block(b2, j1 - j0);');
    expect(source).toContain('tk_erf_block(b4, j1 - j0);');
    expect(source).toContain('const float v3 = b3[j - j0];'); // computed once, in the second erf's loop
    const x = erfSweep(rows * cols).map((t) => t / 4);
    x.set([NaN, Infinity, -Infinity, 0, -0]);
    const y = (await rowsErf(program, rows, cols))(x);
    expect(Array.from(y.subarray(0, 5))).toEqual([NaN, Infinity, Infinity, 0, 0]);
    for (let i = 5; i < x.length; i++) {
      const s = 2 * x[i]!;
      const t = erfRef(s) + s;
      expect(Math.abs(y[i]! - erfRef(t) * t), `x = ${x[i]}`).toBeLessThanOrEqual(4e-7 * Math.max(1, Math.abs(t)));
    }
  });

  it('a row loop\'s output pass takes erf a block at a time: within 2 ulp of float64, keeping NaN, +-inf and -0; threads bitwise as one', async () => {
    const [rows, cols] = [40, 1041]; // a block of 1024 and one of 17 (a ragged vector) a row
    const program = erfRowsProgram(rows, cols, false);
    expect(generateRowsC(program)!.source).toContain('tk_erf_block(b2, j1 - j0);');
    const x = erfSweep(rows * cols);
    expect(erfLoopWorstUlps(await rowsErf(program, rows, cols), x)).toBeLessThanOrEqual(2);
    const one = (await rowsErf(program, rows, cols))(x);
    const three = (await rowsErf(program, rows, cols, 3))(x);
    expect(three.every((v, i) => Object.is(v, one[i]))).toBe(true);
  });

  it('an elementwise erf\'s block keeps a comparison the output loop reads out of the buffers: against float64', async () => {
    const n = 3000;
    const v = { shape: [n], dtype: 'float32' as const };
    const node = (op: string, inputs: number[], dtype: 'float32' | 'bool' = 'float32') => ({ op, inputs, attrs: {}, shape: [n], dtype });
    const zero = { op: 'constant', inputs: [], attrs: { shape: [], dtype: 'float32', values: [0] }, shape: [], dtype: 'float32' as const };
    // b = x < 0 read by both loops: m = where(b, x, x), y = where(b, erf(m), erf(m)), so y = erf(x)
    const program: Program = { inputs: [v], scalars: [], nodes: [zero, node('lt', [0, 1], 'bool'), node('where', [2, 0, 0]), node('erf', [3]), node('where', [2, 4, 4])], outputs: [5] };
    const source = generateC(program)!;
    expect(source).toContain('tk_erf_block(b4, i1 - i0);');
    expect(source).not.toContain('b2[');
    const x = erfSweep(n);
    const y = elementwise((await compileKernel(source))!)(x);
    for (let i = 5; i < n; i++) expect(Math.abs(y[i]! - erfRef(x[i]!)) / float32Ulp(erfRef(x[i]!)), `x = ${x[i]}`).toBeLessThanOrEqual(2);
  });

  it('an erf a reduction reads stays the scalar tk_erf in every pass (within 2 ulp): the mean agrees with the values output', async () => {
    const [rows, cols] = [64, 1000];
    const program = erfRowsProgram(rows, cols, true);
    expect(generateRowsC(program)!.source).not.toContain('tk_erf_block(b');
    const x = erfSweep(rows * cols);
    expect(erfLoopWorstUlps(await rowsErf(program, rows, cols), x)).toBeLessThanOrEqual(2);
    const kernel = await compileKernel(generateRowsC(program)!.source);
    const [y, means] = [new Float32Array(rows * cols), new Float32Array(rows)];
    x[0] = 0.5; // no NaN row
    kernel!.run([x], new Float32Array(0), [y, means], rows, 1, cols);
    for (let r = 0; r < rows; r++) {
      const want = y.subarray(r * cols, (r + 1) * cols).reduce((a, b) => a + b, 0) / cols;
      expect(Math.abs(means[r]! - want), `row ${r}`).toBeLessThan(1e-6);
    }
  });

  it('erf and tanh give NaN for a NaN of any payload (the exponent step of exp is built from bits)', async () => {
    const v = { shape: [8], dtype: 'float32' as const };
    const program: Program = {
      inputs: [v],
      scalars: [],
      nodes: [{ op: 'identity', inputs: [0], attrs: {}, ...v }, { op: 'erf', inputs: [1], attrs: {}, ...v }, { op: 'tanh', inputs: [1], attrs: {}, ...v }],
      outputs: [2, 3],
    };
    const kernel = await compileKernel(generateC(program)!);
    // quiet and signalling NaNs of both signs, low and high payload bits
    const bits = Uint32Array.of(0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fc00001, 0x7fffffff, 0xffffffff, 0x7fa00000);
    const [erf, tanh] = [new Float32Array(8), new Float32Array(8)];
    kernel!.run([new Float32Array(bits.buffer)], new Float32Array(0), [erf, tanh], 8);
    expect(Array.from(erf).every(Number.isNaN), `erf: ${Array.from(erf)}`).toBe(true);
    expect(Array.from(tanh).every(Number.isNaN), `tanh: ${Array.from(tanh)}`).toBe(true);
  });
});

/** Waits until the device has built more generated loops than `before` (at most 20 s); their count. */
async function loopsBuilt(before: number): Promise<number> {
  for (let i = 0; i < 400 && (await tpu.deviceStats()).generatedLoops! <= before; i++) await new Promise((r) => setTimeout(r, 50));
  return (await tpu.deviceStats()).generatedLoops!;
}

describe.each(['strict', 'fused'] as const)('norms through the session in %s mode', (mode) => {
  it.each([[16384, 1], [4096, 7], [32, 1025], [1, 20_001], [2, 1_000_000]])('layerNorm -> gelu of [%d, %d] against float64, on its generated loops', async (rows, cols) => {
    tpu.mode(mode);
    const x = tpu.tensor(Float32Array.from(seededValues(rows * cols, 11, -3, 5))).reshape([rows, cols]);
    const w = tpu.tensor(Float32Array.from(seededValues(cols, 12, 0.5, 1.5)));
    const b = tpu.tensor(Float32Array.from(seededValues(cols, 13, -1, 1)));
    await x.data(); // the reshape runs now: the program below reads x as it is
    const F = tpu.nn.functional;
    const run = () => F.gelu(F.layerNorm(x, [cols], { weight: w, bias: b })).data();
    const before = (await tpu.deviceStats()).generatedLoops!;
    await run(); // large programs get their loops built at once, in the background
    if (cols > 1) expect(await loopsBuilt(before)).toBeGreaterThan(before);
    const got = await run();
    const want = layerNormRef(x.dataSync(), rows, cols, w.dataSync(), b.dataSync()).y.map(gelu);
    expect(worstError(got, want)).toBeLessThan(1e-5);
  });

  it('rmsNorm of [4096, 9 or 11] against float64', async () => {
    tpu.mode(mode);
    // a shape of each mode's own: strict's one program is fused mode's too (one program cache)
    const [rows, cols] = [4096, mode === 'strict' ? 9 : 11];
    const xs = Float32Array.from(seededValues(rows * cols, 18, -3, 3));
    const ws = Float32Array.from(seededValues(cols, 19, 0.5, 1.5));
    const x = tpu.tensor(xs).reshape([rows, cols]);
    const w = tpu.tensor(ws);
    await x.data();
    const before = (await tpu.deviceStats()).generatedLoops!;
    await tpu.nn.functional.rmsNorm(x, [cols], { weight: w }).data();
    expect(await loopsBuilt(before)).toBeGreaterThan(before);
    const got = await tpu.nn.functional.rmsNorm(x, [cols], { weight: w }).data();
    const want = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      let ms = 0;
      for (let j = 0; j < cols; j++) ms += xs[r * cols + j]! ** 2;
      const s = Math.sqrt(ms / cols + 2 ** -23);
      for (let j = 0; j < cols; j++) want[r * cols + j] = (xs[r * cols + j]! / s) * ws[j]!;
    }
    expect(worstError(got, want)).toBeLessThan(1e-5);
  });

  it('bfloat16 input: computed in float32, rounded once', async () => {
    tpu.mode(mode);
    const [rows, cols] = [512, 40];
    const x = tpu.tensor(seededValues(rows * cols, 14), { dtype: 'bfloat16' }).reshape([rows, cols]);
    const ln = tpu.nn.functional.layerNorm(x, [cols]);
    const y = tpu.nn.functional.gelu(ln);
    expect([ln.dtype, y.dtype]).toEqual(['bfloat16', 'bfloat16']);
    const got = await ln.data();
    const want = layerNormRef(x.to('float32').dataSync(), rows, cols, new Array(cols).fill(1), new Array(cols).fill(0)).y;
    // within one bfloat16 ulp (2^-7 relative) of the float64 value: one rounding of a float32 result
    const within = (a: number, w: number) => Math.abs(a - w) <= 2 ** -7 * Math.abs(w) + 1e-6;
    want.forEach((w, i) => expect(within(got[i]!, w), `${got[i]} vs ${w}`).toBe(true));
    const g = await y.data();
    got.forEach((v, i) => expect(within(g[i]!, gelu(v)), `gelu(${v}): ${g[i]}`).toBe(true));
  });

  it("layerNorm's gradients against float64", async () => {
    tpu.mode(mode);
    const [rows, cols] = [64, 300];
    const xs = Float32Array.from(seededValues(rows * cols, 15));
    const gs = Float32Array.from(seededValues(rows * cols, 16));
    const ws = Float32Array.from(seededValues(cols, 17, 0.5, 1.5));
    const x = tpu.tensor(xs, { requiresGrad: true });
    const w = tpu.tensor(ws, { requiresGrad: true });
    const b = tpu.zeros([cols], { requiresGrad: true });
    for (let i = 0; i < 3; i++) {
      // again: the last passes run on the loops the first one's programs built (in the background)
      [x, w, b].forEach((t) => (t.grad = null));
      tpu.nn.functional.layerNorm(x.reshape([rows, cols]), [cols], { weight: w, bias: b }).mul(tpu.tensor(gs).reshape([rows, cols])).sum().backward();
      await tpu.sync();
      await new Promise((r) => setTimeout(r, 500));
    }
    const dx = new Float64Array(rows * cols);
    const dw = new Float64Array(cols);
    const db = new Float64Array(cols);
    for (let r = 0; r < rows; r++) {
      const row = Array.from(xs.subarray(r * cols, (r + 1) * cols));
      const m = row.reduce((a, v) => a + v, 0) / cols;
      const s = Math.sqrt(row.reduce((a, v) => a + (v - m) ** 2, 0) / cols + EPS);
      const xhat = row.map((v) => (v - m) / s);
      const gw = xhat.map((_, j) => gs[r * cols + j]! * ws[j]!);
      const meanGw = gw.reduce((a, v) => a + v, 0) / cols;
      const meanGwX = gw.reduce((a, v, j) => a + v * xhat[j]!, 0) / cols;
      xhat.forEach((xh, j) => {
        dx[r * cols + j] = (gw[j]! - meanGw - xh * meanGwX) / s;
        dw[j] = dw[j]! + gs[r * cols + j]! * xh;
        db[j] = db[j]! + gs[r * cols + j]!;
      });
    }
    expect(worstError(await x.grad!.data(), dx)).toBeLessThan(2e-5);
    expect(worstError(await w.grad!.data(), dw)).toBeLessThan(2e-5);
    expect(worstError(await b.grad!.data(), db)).toBeLessThan(2e-5);
  });
});
