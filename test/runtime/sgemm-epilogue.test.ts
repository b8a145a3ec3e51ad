// A relu or a last-axis softmax of a large float32 product that nothing else reads runs inside
// the tpu_kernel.Sgemm node that makes the product (its epilogue, native/sgemm-op.cc): each
// thread's block of C goes through it while in cache. Checked here: the lowering folds exactly
// those (and nothing read twice); the values against float64 products (relu: within the
// product's bound; softmax: within the bound's effect on exp plus float32 rounding), with NaN
// and infinite entries; and bit for bit against strict mode, which runs the product, the Relu
// and the tpu_kernel.Softmax node as programs of their own. Shapes the node splits unevenly,
// by columns (a softmax then takes whole rows), a batch, and oneDNN's OpenMP team.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { refOf, type Ref } from '../support/reference.js';
import { expectWithin, product, systemHasOneDnn } from '../support/gemm-reference.js';

const t = (r: Ref) => tpu.tensor(Float32Array.from(r.data)).reshape(r.shape);
const relu = (x: Tensor) => x.relu();
const softmax = (x: Tensor) => x.softmax(-1);

/** The lowered graph of the last program fused mode ran, with the ortc addon's custom nodes. */
function lastGraph(): string {
  return lowerToOnnx(tpu.stats().lastProgram!.program, { sgemm: true, softmax: true }).text;
}

/** relu of the float64 product: relu moves no value by more than the product's own error. */
function reluWant(a: Ref, b: Ref) {
  const p = product(a, b);
  return { value: p.value.map((v) => (v < 0 ? 0 : v)), bound: p.bound };
}

/**
 * Each float64 softmax row of the product, against the float32 result: a product entry off by
 * at most its bound e changes exp by e^±e and the row sum likewise, so the result is within a
 * factor e^(2 max e) of the float64 one, plus the node's float32 rounding (a few ulps of 2^-24).
 */
function expectSoftmaxOf(got: ArrayLike<number>, a: Ref, b: Ref): void {
  const { value, bound } = product(a, b);
  const n = b.shape[1]!;
  let worst = 0;
  for (let r = 0; r < value.length / n; r++) {
    const row = value.subarray(r * n, (r + 1) * n);
    const max = Math.max(...row);
    const sum = row.reduce((s, v) => s + Math.exp(v - max), 0);
    const e = Math.max(...bound.subarray(r * n, (r + 1) * n));
    const rel = Math.expm1(2 * e) + 64 * 2 ** -24;
    for (let j = 0; j < n; j++) {
      const want = Math.exp(row[j]! - max) / sum;
      worst = Math.max(worst, Math.abs(got[r * n + j]! - want) / (rel * want + 2 ** -149));
    }
  }
  expect(worst).toBeLessThanOrEqual(1);
}

/** The same function in fused mode (folded) and in strict mode (separate programs): the bits must agree. */
function fusedAndStrict(f: () => Tensor): Float32Array {
  const fused = tpu.withMode('fused', f).dataSync() as Float32Array;
  const strict = tpu.withMode('strict', f).dataSync() as Float32Array;
  expect(new Uint32Array(fused.buffer, fused.byteOffset, fused.length)).toEqual(new Uint32Array(strict.buffer, strict.byteOffset, strict.length));
  return fused;
}

// 256x512 @ 512x512: the smallest product the lowering gives oneDNN (2^26 multiply-adds)
const A = refOf([256, 512], 51, -1, 1);
const B = refOf([512, 512], 52, -1, 1);

describe('the lowering', () => {
  it('folds a relu and a last-axis softmax into the Sgemm nodes that make their inputs: W4\'s forward is two nodes', () => {
    tpu.withMode('fused', () => t(A).matmul(t(B)).relu().matmul(t(B)).softmax(-1)).dataSync();
    const text = lastGraph();
    // (the softmax reads the product through an identity, ops/identity.ts, which ONNX Runtime prunes unread)
    expect(text).toMatch(/(v\d+) = tpu_kernel\.Sgemm\(v\d+, v\d+, transA=0, epilogue=1\)\n.*\n(v\d+) = tpu_kernel\.Sgemm\(\1, v\d+, transA=0, epilogue=2\)\n(.*\n)?outputs: \2:/);
    expect(text).not.toMatch(/Relu|Softmax/);
  });

  it('leaves a product that something else reads too, a softmax over another axis, and a product MatMul makes, as they were', () => {
    const [a, b] = [t(A), t(B)];
    tpu.withMode('fused', () => {
      const y = a.matmul(b);
      return [y.relu(), y.mul(2)];
    }).forEach((x) => x.dataSync());
    expect(lastGraph()).not.toContain('epilogue');
    tpu.withMode('fused', () => a.matmul(b).softmax(0)).dataSync();
    expect(lastGraph()).not.toContain('epilogue');
    tpu.withMode('fused', () => a.matmul(b.T).relu()).dataSync(); // x @ W.T stays on MatMul
    expect(lastGraph()).toMatch(/= MatMul\(in0, v\d+\)\nv\d+ = Relu\(/);
  });
});

describe('values', () => {
  it('relu and softmax of a product, against float64 and bit for bit against strict mode', () => {
    expectWithin(fusedAndStrict(() => relu(t(A).matmul(t(B)))), reluWant(A, B));
    expectSoftmaxOf(fusedAndStrict(() => softmax(t(A).matmul(t(B)))), A, B);
  });

  it('NaN and infinity: a NaN row stays NaN through relu and softmax, an infinite entry as PyTorch takes it', () => {
    const a = { shape: [...A.shape], data: Float32Array.from(A.data) };
    a.data[3 * 512 + 5] = NaN; // row 3 of the product: all NaN
    a.data[7 * 512] = Infinity; // row 7: ±inf where B[0, j] is ∓/±, NaN where it is 0
    const b = { shape: [...B.shape], data: Float32Array.from(B.data) };
    b.data[1] = 0;
    const r = fusedAndStrict(() => relu(t(a).matmul(t(b))));
    const s = fusedAndStrict(() => softmax(t(a).matmul(t(b))));
    for (let j = 0; j < 512; j++) {
      expect(r[3 * 512 + j]).toBeNaN();
      expect(s[3 * 512 + j]).toBeNaN();
      const inf = b.data[j]! === 0 ? NaN : b.data[j]! > 0 ? Infinity : 0;
      expect(r[7 * 512 + j]).toBe(inf);
      expect(s[7 * 512 + j]).toBeNaN(); // a row holding +inf or NaN is NaN, as PyTorch's softmax gives
    }
  });

  it.each([
    ['40 rows: blocks of 32 and 8', [40, 2048], [2048, 1024]],
    ['67 rows, K 1031, N 999: sizes off the 16-wide tiles', [67, 1031], [1031, 999]],
    ['20 rows, a product split by columns (a softmax takes whole rows)', [20, 1024], [1024, 4096]],
  ])('%s', (_, sa, sb) => {
    const a = refOf(sa, 53, -1, 1);
    const b = refOf(sb, 54, -1, 1);
    expectWithin(fusedAndStrict(() => relu(t(a).matmul(t(b)))), reluWant(a, b));
    expectSoftmaxOf(fusedAndStrict(() => softmax(t(a).matmul(t(b)))), a, b);
  });

  it('A transposed (x.T @ y, read in place by the node)', () => {
    const at = refOf([1031, 67], 59, -1, 1);
    const b = refOf([1031, 999], 60, -1, 1);
    tpu.withMode('fused', () => softmax(t(at).T.matmul(t(b)))).dataSync(); // compiled here: the last program
    expect(lastGraph()).toContain('transA=1, epilogue=2');
    const [r, s] = [relu, softmax].map((f) => fusedAndStrict(() => f(t(at).T.matmul(t(b)))));
    const p = product(at, b, true, false);
    expectWithin(r!, { value: p.value.map((v) => (v < 0 ? 0 : v)), bound: p.bound });
    const a = { shape: [67, 1031], data: Float32Array.from({ length: 67 * 1031 }, (_, i) => at.data[(i % 1031) * 67 + Math.floor(i / 1031)]!) };
    expectSoftmaxOf(s!, a, b);
  });

  it('a batch of matrices times a batch of matrices', () => {
    const a = refOf([2, 128, 512], 55, -1, 1);
    const b = refOf([2, 512, 512], 56, -1, 1);
    const r = fusedAndStrict(() => relu(t(a).matmul(t(b))));
    const s = fusedAndStrict(() => softmax(t(a).matmul(t(b))));
    for (const g of [0, 1]) {
      const ag = { shape: [128, 512], data: a.data.slice(g * 65536, (g + 1) * 65536) };
      const bg = { shape: [512, 512], data: b.data.slice(g * 262144, (g + 1) * 262144) };
      expectWithin(r.subarray(g * 65536, (g + 1) * 65536), reluWant(ag, bg));
      expectSoftmaxOf(s.subarray(g * 65536, (g + 1) * 65536), ag, bg);
    }
  });

  it('on oneDNN\'s OpenMP team (OMP_WAIT_POLICY=passive, a child process): the epilogue runs over the pool after the product', () => {
    const script = `
      const { tpu } = await import('tpu-kernel/runtime');
      const chunks = [];
      for await (const c of process.stdin) chunks.push(c);
      const [a, b] = JSON.parse(Buffer.concat(chunks).toString()).map((r) => tpu.tensor(r.data).reshape(r.shape));
      tpu.mode('fused');
      const outs = [a.matmul(b).relu(), a.matmul(b).softmax(-1)].map((y) => Array.from(y.dataSync()));
      const json = JSON.stringify({ binding: (await tpu.deviceStats()).binding, outs });
      process.stdout.write(json + '\\n', () => process.exit(0));`;
    const a = refOf([40, 1024], 57, -1, 1);
    const b = refOf([1024, 2048], 58, -1, 1);
    const input = JSON.stringify([a, b].map((r) => ({ shape: r.shape, data: Array.from(r.data) })));
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8', input, env: { ...process.env, OMP_WAIT_POLICY: 'passive' }, maxBuffer: 64 << 20,
      }).trim().split('\n').pop()!,
    ) as { binding: string; outs: number[][] };
    if (systemHasOneDnn()) expect(out.binding).toMatch(/OpenMP team\)$/);
    expectWithin(out.outs[0]!, reluWant(a, b));
    expectSoftmaxOf(out.outs[1]!, a, b);
  });
});
