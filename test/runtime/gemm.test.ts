// Our float32 GEMM (device/loopgen/gemm-c.ts): the kernel against float64 loops written here
// (every shape with ragged row blocks, column panels and K slices), IEEE special values, the
// split over threads, which programs it takes, and a strict-mode matmul that runs on it.
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { GEMM_C, GEMM_ROWS } from '../../dist/runtime/device/loopgen/gemm-c.js';
import { gemmCall } from '../../dist/runtime/device/loopgen/gemm-kernel.js';
import { compileKernel } from '../../dist/runtime/device/loopgen/native.js';
import type { Program } from '../../dist/runtime/program/program.js';

function randomMatrix(rows: number, cols: number, seed: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out[i] = (seed / 2 ** 31) * 2 - 1;
  }
  return out;
}

/** C = A·B in float64, and the float32 error bound of each entry: K·2^-24·Σ|a||b| (γ_K, fused multiply-adds). */
function reference(a: Float32Array, b: Float32Array, m: number, k: number, n: number) {
  const c = new Float64Array(m * n);
  const bound = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      let abs = 0;
      for (let q = 0; q < k; q++) {
        s += a[i * k + q]! * b[q * n + j]!;
        abs += Math.abs(a[i * k + q]! * b[q * n + j]!);
      }
      c[i * n + j] = s;
      bound[i * n + j] = (k + 1) * 2 ** -24 * abs;
    }
  }
  return { c, bound };
}

const value = (shape: number[], dtype = 'float32' as const) => ({ shape, dtype });
function matmulProgram(m: number, k: number, n: number, attrs: object = { precision: 'highest' }): Program {
  return { inputs: [value([m, k]), value([k, n])], scalars: [], nodes: [{ op: 'matmul', inputs: [0, 1], attrs, ...value([m, n]) }], outputs: [2] };
}

describe('our float32 GEMM', () => {
  let kernel: Awaited<ReturnType<typeof compileKernel>>;
  beforeAll(async () => {
    kernel = await compileKernel(GEMM_C);
  });

  const run = (a: Float32Array, b: Float32Array, m: number, k: number, n: number, threads = 1) => {
    const c = new Float32Array(m * n).fill(NaN); // every entry must be written
    kernel!.run([a, b], Float32Array.of(m, k, n), [c], Math.ceil(m / GEMM_ROWS), threads, GEMM_ROWS * k * n);
    return c;
  };

  // 1x1x1; row tails (13, 25, 7 rows); column tails inside the first and second 16 lanes; K over one 256 slice (300, 513).
  it.each([
    [1, 1, 1], [12, 256, 32], [13, 300, 33], [25, 513, 47], [7, 1, 100], [64, 784, 20], [36, 64, 16], [5, 3, 9],
  ])('%i x %i x %i within the float32 error bound of a float64 loop', (m, k, n) => {
    expect(kernel, 'gcc is on this machine, so the kernel must build').toBeDefined();
    const a = randomMatrix(m, k, m * 31 + k);
    const b = randomMatrix(k, n, n * 17 + k);
    const got = run(a, b, m, k, n);
    const { c, bound } = reference(a, b, m, k, n);
    for (let i = 0; i < m * n; i++) {
      if (!(Math.abs(got[i]! - c[i]!) <= bound[i]!)) expect(`C[${Math.floor(i / n)}, ${i % n}] = ${got[i]}`).toBe(`${c[i]} ± ${bound[i]}`);
    }
  });

  it('keeps IEEE special values where they belong: NaN and Inf reach their row and column only', () => {
    const [m, k, n] = [14, 5, 18];
    const a = new Float32Array(m * k).fill(1);
    const b = new Float32Array(k * n).fill(1);
    a[13 * k + 2] = NaN; // the tail block's last row
    b[1 * n + 17] = Infinity; // the last column (a masked lane)
    a[0 * k + 1] = -2;
    const got = run(a, b, m, k, n);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        const v = got[i * n + j]!;
        if (i === 13) expect(v).toBeNaN();
        else if (j === 17) expect(v).toBe(i === 0 ? -Infinity : Infinity);
        else expect(v).toBe(i === 0 ? 2 : 5);
      }
    }
  });

  it('splits row blocks over threads: every entry computed once, bitwise as on one thread', () => {
    const [m, k, n] = [301, 130, 70];
    const a = randomMatrix(m, k, 3);
    const b = randomMatrix(k, n, 4);
    const one = run(a, b, m, k, n, 1);
    for (const threads of [2, 3, 8]) expect(run(a, b, m, k, n, threads)).toEqual(one);
  });

  it('takes one float32 2-D matmul at precision highest with K <= 256 and B in L2, nothing else', () => {
    expect(gemmCall(matmulProgram(784, 64, 256))).toMatchObject({ operands: [0, 1], blocks: 66, unit: GEMM_ROWS * 64 * 256 });
    expect(gemmCall(matmulProgram(784, 64, 256, { precision: 'default' }))).toBeUndefined(); // bfloat16 passes
    expect(gemmCall(matmulProgram(64, 784, 256))).toBeUndefined(); // K over one slice: ONNX Runtime
    expect(gemmCall(matmulProgram(64, 256, 1025))).toBeUndefined(); // B over 1 MiB: ONNX Runtime packs it
    const bf16 = matmulProgram(4, 4, 4);
    expect(gemmCall({ ...bf16, inputs: [value([4, 4]), { shape: [4, 4], dtype: 'bfloat16' }] as Program['inputs'] })).toBeUndefined();
    const batched: Program = { inputs: [value([2, 4, 4]), value([2, 4, 4])], scalars: [], nodes: [{ op: 'matmul', inputs: [0, 1], attrs: {}, ...value([2, 4, 4]) }], outputs: [2] };
    expect(gemmCall(batched)).toBeUndefined();
    const withRelu = matmulProgram(4, 4, 4);
    expect(gemmCall({ ...withRelu, nodes: [...withRelu.nodes, { op: 'relu', inputs: [2], attrs: {}, ...value([4, 4]) }], outputs: [3] })).toBeUndefined();
    const square: Program = { inputs: [value([6, 6])], scalars: [], nodes: [{ op: 'matmul', inputs: [0, 0], attrs: {}, ...value([6, 6]) }], outputs: [1] };
    expect(gemmCall(square)).toMatchObject({ operands: [0, 0] });
  });

  it('runs a strict-mode matmul from its first run, with the same bits every run', async () => {
    const [m, k, n] = [70, 200, 90];
    const a = randomMatrix(m, k, 11);
    const b = randomMatrix(k, n, 12);
    // The device thread loads the kernel in the background: until then new programs stay on ONNX Runtime.
    const warm = tpu.ones([2, 2]);
    for (let i = 1; i < 200 && !(await tpu.deviceStats()).gemmPrograms; i++) {
      await tpu.withMode('strict', () => warm.matmul(tpu.ones([2, i])).data());
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = (await tpu.deviceStats()).gemmPrograms!;
    expect(before, 'gcc is on this machine, so the kernel must load').toBeGreaterThan(0);
    const [ta, tb] = [tpu.tensor(Array.from(a)).reshape([m, k]), tpu.tensor(Array.from(b)).reshape([k, n])];
    const first = await tpu.withMode('strict', () => ta.matmul(tb).data());
    expect((await tpu.deviceStats()).gemmPrograms).toBeGreaterThan(before);
    const { c, bound } = reference(a, b, m, k, n);
    for (let i = 0; i < m * n; i++) expect(Math.abs(first[i]! - c[i]!)).toBeLessThanOrEqual(bound[i]!);
    for (let r = 0; r < 4; r++) expect(await tpu.withMode('strict', () => ta.matmul(tb).data())).toEqual(first);
  });
});
