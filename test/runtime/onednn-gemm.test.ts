// Large float32 matmuls run as tpu_kernel.Sgemm (oneDNN's GEMM inside the ONNX Runtime session)
// when the system has libdnnl.so.2: every operand layout the lowering sends there (a matrix, a
// transposed matrix, a batch of rows, a batch of matrices) matches a float64 product in every
// mode and under tpu.compile, within float32's error bound for a K-term dot product, and IEEE
// special values propagate as in any float32 GEMM.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { refOf, type Ref } from '../support/reference.js';
import { expectWithin, product, systemHasOneDnn } from '../support/gemm-reference.js';

const t = (r: Ref) => tpu.tensor(Float32Array.from(r.data)).reshape(r.shape);

// 256x512 @ 512x512: 2^26 multiply-adds, the smallest product the lowering gives oneDNN (K 512, N 512).
const A = refOf([256, 512], 11, -1, 1);
const B = refOf([512, 512], 12, -1, 1);
const W = refOf([512, 512], 13, -1, 1); // a Linear weight: x @ W.T

/** Runs `body` in a child Node (own environment `env`) with the operands' values as `a` and `b`; its last stdout line, parsed. */
function runWithOperands(body: string, a: Ref, b: Ref, env: Record<string, string>): unknown {
  const script = `
    const { tpu } = await import('tpu-kernel/runtime');
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    const { a, b } = JSON.parse(Buffer.concat(chunks).toString());
    ${body}`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    input: JSON.stringify({ a: a.data, b: b.data }),
    env: { ...process.env, ...env },
    maxBuffer: 256 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('matrix times matrix', () => {
    const y = tpu.withMode(mode, () => t(A).matmul(t(B)));
    expectWithin(y.dataSync() as Float32Array, product(A, B));
  });

  it('a transposed left operand (x.T @ y) and a transposed right operand (x @ W.T)', () => {
    const [left, right] = tpu.withMode(mode, () => [t(B).T.matmul(t(B)), t(A).matmul(t(W).T)]);
    expectWithin(left!.dataSync() as Float32Array, product(B, B, true, false));
    expectWithin(right!.dataSync() as Float32Array, product(A, W, false, true));
  });

  it('a batch of rows times a matrix, and a batch of matrices times a batch of matrices', () => {
    const A3 = refOf([2, 128, 512], 14, -1, 1);
    const B3 = refOf([2, 512, 512], 15, -1, 1);
    const [rows, batched] = tpu.withMode(mode, () => [t(A3).matmul(t(B)), t(A3).matmul(t(B3))]);
    expect(rows!.shape).toEqual([2, 128, 512]);
    expect(batched!.shape).toEqual([2, 128, 512]);
    expectWithin(rows!.dataSync() as Float32Array, product({ shape: [256, 512], data: A3.data }, B));
    const r = batched!.dataSync() as Float32Array;
    for (const g of [0, 1]) {
      const a = { shape: [128, 512], data: A3.data.slice(g * 65536, (g + 1) * 65536) };
      const b = { shape: [512, 512], data: B3.data.slice(g * 262144, (g + 1) * 262144) };
      expectWithin(r.subarray(g * 65536, (g + 1) * 65536), product(a, b));
    }
  });
});

// Shapes the node's split over two threads (the caller and its crew's helper) cuts unevenly (by rows in blocks of whole
// 16-row tiles, 40 rows: 32 and 8; by columns when there are fewer rows than two tiles), run
// here through the split (the default) and by oneDNN's OpenMP team in a child process with
// OMP_WAIT_POLICY=passive ('which GEMM runs', below).
describe.each(['debug', 'strict', 'fused'] as const)('%s mode, a product split over the threads', (mode) => {
  it('40 rows in two uneven blocks', () => {
    const a = refOf([40, 2048], 16, -1, 1);
    const b = refOf([2048, 1024], 17, -1, 1);
    expectWithin(tpu.withMode(mode, () => t(a).matmul(t(b))).dataSync() as Float32Array, product(a, b));
  });

  it('sizes off the 16-wide tiles: 67 rows (blocks of 48 and 19), K 1031, N 999, and the same with A transposed', () => {
    const a = refOf([67, 1031], 20, -1, 1);
    const at = refOf([1031, 67], 21, -1, 1);
    const b = refOf([1031, 999], 22, -1, 1);
    const [y, yt] = tpu.withMode(mode, () => [t(a).matmul(t(b)), t(at).T.matmul(t(b))]);
    expectWithin(y!.dataSync() as Float32Array, product(a, b));
    expectWithin(yt!.dataSync() as Float32Array, product(at, b, true, false));
  });

  it('20 rows, split by columns', () => {
    const a = refOf([20, 1024], 18, -1, 1);
    const b = refOf([1024, 4096], 19, -1, 1);
    expectWithin(tpu.withMode(mode, () => t(a).matmul(t(b))).dataSync() as Float32Array, product(a, b));
  });
});

// Debug mode refuses NaN and infinite values where they are made, so these run in the other two.
describe.each(['strict', 'fused'] as const)('%s mode', (mode) => {
  it('NaN and infinity propagate: a NaN row is NaN, inf times 0 is NaN, inf times finite is a signed inf', () => {
    const a = { shape: [...A.shape], data: [...A.data] };
    a.data[3 * 512 + 5] = NaN;
    a.data[7 * 512] = Infinity; // row 7, k = 0
    const b = { shape: [...B.shape], data: [...B.data] };
    for (let j = 0; j < 512; j += 2) b.data[j] = 0; // B[0, even j] = 0
    const y = tpu.withMode(mode, () => t(a).matmul(t(b))).dataSync() as Float32Array;
    for (let j = 0; j < 512; j++) {
      expect(y[3 * 512 + j]).toBeNaN();
      if (j % 2 === 0) expect(y[7 * 512 + j]).toBeNaN();
      else expect(y[7 * 512 + j]).toBe(b.data[j]! > 0 ? Infinity : -Infinity);
    }
  });
});

it('under tpu.compile, a matmul and its relu', () => {
  const f = tpu.compile((x: Tensor, w: Tensor) => x.matmul(w).relu());
  const y = f(t(A), t(B)) as Tensor;
  const want = product(A, B);
  const relu = { value: want.value.map((v) => Math.max(v, 0)), bound: want.bound };
  expectWithin(y.dataSync() as Float32Array, relu);
});

describe('the lowering', () => {
  const program = (a: number[], b: number[], transposeB: boolean) => {
    const f = { shape: a, dtype: 'float32' } as const;
    const g = { shape: b, dtype: 'float32' } as const;
    const bt = transposeB ? [b[1]!, b[0]!] : b;
    const out = [a[0]!, bt[1]!];
    const nodes = transposeB
      ? [{ op: 'permute', inputs: [1], attrs: { perm: [1, 0] }, shape: bt, dtype: 'float32' }, { op: 'matmul', inputs: [0, 2], attrs: { precision: 'highest' }, shape: out, dtype: 'float32' }]
      : [{ op: 'matmul', inputs: [0, 1], attrs: { precision: 'highest' }, shape: out, dtype: 'float32' }];
    return { inputs: [f, g], scalars: [], nodes, outputs: [nodes.length + 1] };
  };

  it('gives oneDNN products of 2^26 multiply-adds and more', () => {
    expect(lowerToOnnx(program([256, 512], [512, 512], false) as never, { sgemm: true }).text).toContain('tpu_kernel.Sgemm(in0, in1, transA=0)');
  });

  it('leaves x @ W.T to MatMul, which reads W transposed in place', () => {
    const text = lowerToOnnx(program([256, 512], [512, 512], true) as never, { sgemm: true }).text;
    expect(text).not.toContain('Sgemm');
    expect(text).toMatch(/= MatMul\(in0, v\d+\)/);
  });

  it('keeps smaller products, those of K < 512 or N < 256, and every product without oneDNN, on ONNX MatMul', () => {
    const matmul = /= MatMul\(in0, in1\)/;
    expect(lowerToOnnx(program([255, 512], [512, 512], false) as never, { sgemm: true }).text).toMatch(matmul); // < 2^26
    expect(lowerToOnnx(program([1024, 256], [256, 1024], false) as never, { sgemm: true }).text).toMatch(matmul); // K < 512
    expect(lowerToOnnx(program([4096, 512], [512, 128], false) as never, { sgemm: true }).text).toMatch(matmul); // N < 256
    expect(lowerToOnnx(program([256, 512], [512, 512], false) as never, { sgemm: false }).text).toMatch(matmul);
  });
});

describe('which GEMM runs', () => {
  it('oneDNN when the system has libdnnl.so.2, on its OpenMP team when the user has OpenMP\'s idle threads sleep, named in deviceStats().binding', async () => {
    const binding = (await tpu.deviceStats()).binding;
    const team = /^passive$/i.test(process.env.OMP_WAIT_POLICY ?? '');
    const threading = team ? 'OpenMP team' : "split over the node's threads";
    if (systemHasOneDnn()) expect(binding).toMatch(new RegExp(`; matmul GEMM: oneDNN \\d+\\.\\d+\\.\\d+, ${threading}\\)$`));
    else expect(binding).toMatch(/; matmul GEMM: not loaded \(.*libdnnl\.so\.2.*\): matmuls run on ONNX Runtime's MLAS\)$/);
  });

  it('with OMP_WAIT_POLICY=passive, products run on oneDNN\'s OpenMP team: the split\'s uneven shapes, odd sizes, A transposed, a batch', () => {
    // [A's shape, B's shape, A transposed (A is stored [K, M])]
    const cases: [number[], number[], boolean][] = [
      [[40, 2048], [2048, 1024], false], // rows in blocks of 32 and 8
      [[20, 1024], [1024, 4096], false], // fewer rows than two tiles: by columns
      [[67, 1031], [1031, 999], false],
      [[1031, 67], [1031, 999], true],
      [[2, 128, 512], [2, 512, 512], false], // a batch of matrices: a block per batch and thread
    ];
    const refs = cases.map(([sa, sb], i) => [refOf(sa, 30 + i, -1, 1), refOf(sb, 40 + i, -1, 1)] as const);
    const dir = mkdtempSync(join(tmpdir(), 'sgemm-split-'));
    writeFileSync(join(dir, 'in.bin'), Buffer.from(Float32Array.from(refs.flatMap(([a, b]) => [...a.data, ...b.data])).buffer));
    const script = `
      const { readFileSync, writeFileSync } = await import('node:fs');
      const { tpu } = await import('tpu-kernel/runtime');
      const [dir, cases] = JSON.parse(process.argv[1]);
      const data = new Float32Array(readFileSync(dir + '/in.bin').buffer.slice(0));
      let at = 0;
      const take = (shape) => { const n = shape.reduce((x, y) => x * y, 1); const t = tpu.tensor(data.slice(at, at + n)).reshape(shape); at += n; return t; };
      const outs = cases.map(([sa, sb, ta]) => { const a = take(sa), b = take(sb); return Array.from((ta ? a.T : a).matmul(b).dataSync()); });
      writeFileSync(dir + '/out.json', JSON.stringify({ binding: (await tpu.deviceStats()).binding, outs }));
      process.exit(0);`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([dir, cases])], { env: { ...process.env, OMP_WAIT_POLICY: 'passive' } });
    const { binding, outs } = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { binding: string; outs: number[][] };
    rmSync(dir, { recursive: true });
    if (systemHasOneDnn()) expect(binding).toMatch(/; matmul GEMM: oneDNN \d+\.\d+\.\d+, OpenMP team\)$/);
    cases.forEach(([sa, sb, ta], i) => {
      const [a, b] = refs[i]!;
      if (sa.length === 2) return expectWithin(outs[i]!, product(a, b, ta, false));
      const [g, m, k] = sa as [number, number, number];
      const n = sb[2]!;
      for (let j = 0; j < g; j++) {
        const aj = { shape: [m, k], data: a.data.slice(j * m * k, (j + 1) * m * k) };
        const bj = { shape: [k, n], data: b.data.slice(j * k * n, (j + 1) * k * n) };
        expectWithin(outs[i]!.slice(j * m * n, (j + 1) * m * n), product(aj, bj));
      }
    });
  });

  it('without a policy of the user\'s, products split over the node\'s threads and the runtime sets no OMP_WAIT_POLICY', () => {
    const script = `
      const { tpu } = await import('tpu-kernel/runtime');
      const y = tpu.ones([256, 512]).matmul(tpu.ones([512, 512]));
      const json = JSON.stringify({ binding: (await tpu.deviceStats()).binding, y: y.dataSync()[0], policy: process.env.OMP_WAIT_POLICY ?? null });
      process.stdout.write(json + '\\n', () => process.exit(0));`;
    const env = { ...process.env };
    delete env.OMP_WAIT_POLICY;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env }).trim().split('\n').pop()!);
    if (systemHasOneDnn()) expect(out.binding).toMatch(/; matmul GEMM: oneDNN \d+\.\d+\.\d+, split over the node's threads\)$/);
    expect(out.y).toBe(512);
    expect(out.policy).toBeNull();
  });

  it('two chips multiplying at once (the node\'s crew takes one product at a time, another goes over ONNX Runtime\'s pool): every product right', () => {
    const a = refOf([96, 1024], 50, -1, 1); // 2^26.6 multiply-adds: two blocks of 48 rows
    const b = refOf([1024, 1024], 51, -1, 1);
    const outs = runWithOperands(
      `const on = [0, 1].map((chip) => [tpu.tensor(Float32Array.from(a), { chip }).reshape([96, 1024]), tpu.tensor(Float32Array.from(b), { chip }).reshape([1024, 1024])]);
      const ys = [];
      for (let i = 0; i < 8; i++) for (const [x, w] of on) ys.push(x.matmul(w));
      const outs = await Promise.all(ys.map(async (y) => Array.from(await y.data())));
      process.stdout.write(JSON.stringify(outs) + '\\n', () => process.exit(0));`,
      a, b, { TPU_KERNEL_CHIPS: '2' },
    ) as number[][];
    const want = product(a, b);
    expect(outs).toHaveLength(16);
    for (const y of outs) expectWithin(y, want);
  });

  it('TPU_KERNEL_DNNL=0 keeps ONNX Runtime\'s own MatMul, with the same answers', () => {
    const out = runWithOperands(
      `const y = tpu.tensor(a).reshape([256, 512]).matmul(tpu.tensor(b).reshape([512, 512]));
      const json = JSON.stringify({ binding: (await tpu.deviceStats()).binding, y: Array.from(y.dataSync()) });
      process.stdout.write(json + '\\n', () => process.exit(0));`,
      A, B, { TPU_KERNEL_DNNL: '0' },
    ) as { binding: string; y: number[] };
    expect(out.binding).toMatch(/; matmul GEMM: turned off \(TPU_KERNEL_DNNL=0\)\)$/);
    expectWithin(out.y, product(A, B));
  });
});
