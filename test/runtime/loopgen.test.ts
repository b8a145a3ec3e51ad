// Generated C loops for elementwise programs: the kernel against float64 references (IEEE ops
// rounded once per op, bitwise; tanh within 2 ulp), IEEE special values, which programs
// qualify, and a fused chain run through the backend beside strict mode's ONNX Runtime ops.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { generateC } from '../../dist/runtime/device/loopgen/generate-c.js';
import { compileKernel } from '../../dist/runtime/device/loopgen/native.js';
import type { Program } from '../../dist/runtime/program/program.js';
import { float32Ulp } from '../support/reference.js';

const f32 = Math.fround;
const N = 1 << 16;
const value = (shape: number[]) => ({ shape, dtype: 'float32' as const });
const node = (op: string, inputs: number[], shape = [N]) => ({ op, inputs, attrs: {}, ...value(shape) });

/** x * s, + 0.5 (a constant), tanh, * x, - x, abs, sqrt, / x, neg: outputs the last and the tanh. */
const chain: Program = {
  inputs: [value([N])],
  scalars: ['float32'],
  nodes: [
    node('mul', [0, 1]),
    { op: 'constant', inputs: [], attrs: { shape: [], dtype: 'float32', values: [0.5] }, ...value([]) },
    node('add', [2, 3]),
    node('tanh', [4]),
    node('mul', [5, 0]),
    node('sub', [6, 0]),
    node('abs', [7]),
    node('sqrt', [8]),
    node('div', [9, 0]),
    node('neg', [10]),
  ],
  outputs: [11, 5],
};

function inputs(): Float32Array {
  const x = new Float32Array(N);
  const special = [NaN, Infinity, -Infinity, 0, -0, 1e-30, -1e-30, 3e38, -3e38, 0.55, -0.55, 9, -9, 1e-45];
  special.forEach((v, i) => (x[i] = v));
  let seed = 7;
  for (let i = special.length; i < N; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    x[i] = ((seed / 2 ** 31) * 2 - 1) * 10 ** ((i % 7) - 3); // magnitudes 1e-3 .. 1e3, both signs
  }
  return x;
}

describe('generated elementwise loops', () => {
  const source = generateC(chain);
  let kernel: Awaited<ReturnType<typeof compileKernel>>;
  beforeAll(async () => {
    kernel = source === undefined ? undefined : await compileKernel(source);
  });

  it('takes elementwise float32 programs and leaves the rest to ONNX Runtime', () => {
    expect(source).toContain('tk_kernel');
    expect(generateC({ ...chain, nodes: [node('matmul', [0, 0]), node('tanh', [2])], outputs: [3] })).toBeUndefined();
    expect(generateC({ ...chain, scalars: ['int32'] })).toBeUndefined();
    const broadcast = { ...chain, inputs: [value([8]), value([2, 8])], scalars: [], nodes: [node('add', [0, 1], [2, 8]), node('tanh', [2], [2, 8])], outputs: [3] };
    expect(generateC(broadcast)).toBeUndefined(); // an operand read with a stride
    // one op alone (strict mode): only ops rounded once, whose bits ONNX Runtime gives too
    expect(generateC({ ...chain, nodes: [node('mul', [0, 1])], outputs: [2] })).toContain('tk_kernel');
    expect(generateC({ ...chain, nodes: [node('tanh', [0])], outputs: [2] })).toBeUndefined();
  });

  it('strict mode: one large exactly rounded op gets its loop; its values are float32 division, before and after', async () => {
    const x = tpu.tensor(inputs());
    const before = (await tpu.deviceStats()).generatedLoops!;
    const run = () => tpu.withMode('strict', () => x.div(0.3).data());
    const check = (got: Float32Array | Int32Array | Uint8Array | Uint16Array) =>
      x.dataSync().forEach((v, j) => {
        const expected = f32(v / f32(0.3));
        if (Number.isNaN(expected)) expect(got[j]).toBeNaN();
        else if (!Object.is(got[j], expected)) expect(`${v} / 0.3 = ${got[j]}`).toBe(`${v} / 0.3 = ${expected}`);
      });
    check(await run()); // ONNX Runtime's, unless the loop (built at once for this size) came first
    for (let i = 0; i < 200 && (await tpu.deviceStats()).generatedLoops === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await tpu.deviceStats()).generatedLoops).toBeGreaterThan(before);
    check(await run());
  });

  it('computes each IEEE op rounded once (bitwise) and tanh within 2 ulp of float64', () => {
    expect(kernel, 'gcc is on this machine, so the kernel must build').toBeDefined();
    const x = inputs();
    const out = new Float32Array(N);
    const tanhOut = new Float32Array(N);
    kernel!.run([x], Float32Array.of(1.5), [out, tanhOut], N);
    let worst = 0;
    for (let i = 0; i < N; i++) {
      const xi = x[i]!;
      const pre = f32(f32(xi * 1.5) + 0.5);
      const ref = Math.tanh(pre);
      const t = tanhOut[i]!;
      if (Number.isNaN(ref)) expect(t).toBeNaN();
      else {
        worst = Math.max(worst, Math.abs(t - ref) / float32Ulp(ref));
        if (ref === 0) expect(Object.is(t, ref)).toBe(true); // -0 stays -0
      }
      // the rest from the kernel's own tanh, each op rounded to float32 once
      const expected = f32(-f32(f32(Math.sqrt(Math.abs(f32(f32(t * xi) - xi)))) / xi));
      if (Number.isNaN(expected)) expect(out[i]).toBeNaN();
      else expect(Object.is(out[i], expected), `x=${xi}: ${out[i]} vs ${expected}`).toBe(true);
    }
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('splits a run over threads: every element computed once, bitwise as on one thread', () => {
    const n = 3 * 32768 * 2 + 37; // several chunks per thread and a ragged end
    const x = new Float32Array(n).map((_, i) => Math.sin(i) * 4);
    const one = [new Float32Array(n), new Float32Array(n)];
    kernel!.run([x], Float32Array.of(1.5), one, n, 1);
    for (const threads of [2, 3, 8]) {
      const many = [new Float32Array(n).fill(NaN), new Float32Array(n).fill(NaN)];
      for (let repeat = 0; repeat < 3; repeat++) kernel!.run([x], Float32Array.of(1.5), many, n, threads);
      for (let k = 0; k < 2; k++) {
        const same = many[k]!.every((v, i) => Object.is(v, one[k]![i]));
        expect(same, `output ${k} on ${threads} threads`).toBe(true);
      }
    }
    // the first n elements only: the rest of a longer array is left alone
    const longer = new Float32Array(n + 16).fill(7);
    kernel!.run([new Float32Array(n + 16)], Float32Array.of(1.5), [longer, new Float32Array(n + 16)], n, 2);
    expect(Array.from(longer.subarray(n))).toEqual(new Array(16).fill(7));
  });

  it('keeps tanh special values: NaN, +-Inf, -0, saturation', async () => {
    const x = Float32Array.from([NaN, Infinity, -Infinity, -0, 0, 20, -20, 1e-30]);
    const out = new Float32Array(N);
    const tanhOut = new Float32Array(N);
    const padded = new Float32Array(N);
    padded.set(x);
    // mul by 1 and add 0.5 shift the input: run tanh alone through a two-node program instead
    const tanhOnly: Program = { inputs: [value([N])], scalars: ['float32'], nodes: [node('mul', [0, 1]), node('tanh', [2])], outputs: [3, 2] };
    (await compileKernel(generateC(tanhOnly)!))!.run([padded], Float32Array.of(1), [tanhOut, out], N);
    expect(Array.from(tanhOut.subarray(0, 8))).toEqual([NaN, 1, -1, -0, 0, 1, -1, f32(1e-30)]);
    expect(Object.is(tanhOut[3], -0)).toBe(true);
  });

  it('a small program run again and again gets its loop too, with the values of float64 loops', async () => {
    const x = tpu.tensor([1, -2, 0.5, 3, -0, 7, 1e-3, -4]);
    const before = (await tpu.deviceStats()).generatedLoops;
    const run = () => tpu.withMode('fused', () => x.mul(3).add(x).sub(0.25).abs().sqrt()).data();
    for (let i = 0; i < 4; i++) await run(); // hot: compiled in the background
    for (let i = 0; i < 200 && (await tpu.deviceStats()).generatedLoops === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await tpu.deviceStats()).generatedLoops).toBeGreaterThan(before);
    const got = await run();
    x.dataSync().forEach((v, i) => {
      const expected = f32(Math.sqrt(Math.abs(f32(f32(f32(v * 3) + v) - 0.25))));
      expect(Object.is(got[i], expected), `x=${v}: ${got[i]} vs ${expected}`).toBe(true);
    });
  });

  it('a fused elementwise chain matches strict mode (ONNX Runtime op by op)', async () => {
    const data = inputs().map((v) => (Number.isFinite(v) ? v : 0.25));
    const x = tpu.tensor(data);
    const run = (mode: 'strict' | 'fused') =>
      // no subtraction: a cancellation would magnify the two tanh's ulps without bound
      tpu.withMode(mode, () => x.mul(1.5).add(0.5).tanh().mul(x).abs().sqrt().neg()).data();
    await run('fused'); // compiled for ONNX Runtime; its loop builds in the background
    for (let i = 0; i < 200 && !(await tpu.deviceStats()).generatedLoops; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await tpu.deviceStats()).generatedLoops).toBeGreaterThan(0);
    const fused = await run('fused');
    const strict = await run('strict');
    let worst = 0;
    for (let i = 0; i < N; i++) worst = Math.max(worst, Math.abs(fused[i]! - strict[i]!) / float32Ulp(strict[i]!));
    // two tanh implementations (each a few ulp from float64), then mul/abs/sqrt/neg
    expect(worst).toBeLessThan(6);
  });
});
