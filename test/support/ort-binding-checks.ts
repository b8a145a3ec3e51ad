// Ops whose programs run as ONNX Runtime sessions (matmuls and reductions: no tiny kernel or
// generated loop takes them), in every dtype the binding passes, against float64 references.
// Shared by the tests of our ortc binding and of the onnxruntime-node fallback.
import { expect, it } from 'vitest';
import type { tpu as Tpu } from 'tpu-kernel/runtime';
import { bf16, expectClose, matmulRef, refOf } from './reference.js';

export function sessionOpChecks(tpu: typeof Tpu): void {
  const T = (r: { data: number[]; shape: number[] }, dtype: 'float32' | 'bfloat16' = 'float32') =>
    tpu.tensor(dtype === 'bfloat16' ? r.data.map(bf16) : r.data, { dtype }).reshape(r.shape);

  it('float32 matmul on the shared pool (large) and on the calling thread (small) match float64 loops', () => {
    for (const [m, k, n] of [[96, 128, 80], [3, 4, 2]] as const) {
      const a = refOf([m, k], m + 1);
      const b = refOf([k, n], n + 2);
      const y = T(a).matmul(T(b));
      expect(y.shape).toEqual([m, n]);
      expectClose(y.dataSync(), matmulRef(a, b).data, 1e-5, 1e-4);
    }
  });

  it('bfloat16 matmul runs widened to float32 and comes back as bfloat16', () => {
    const a = refOf([40, 64], 7);
    const b = refOf([64, 24], 8);
    const y = T(a, 'bfloat16').matmul(T(b, 'bfloat16'));
    expect(y.dtype).toBe('bfloat16');
    const want = matmulRef({ ...a, data: a.data.map(bf16) }, { ...b, data: b.data.map(bf16) }).data.map(bf16);
    expectClose(y.dataSync(), want, 1e-2, 1e-2);
  });

  it('int32 products summed along a row are exact (int64, as PyTorch); bool comparisons give 0/1', () => {
    const rows = 300;
    const cols = 200;
    const x = Array.from({ length: rows * cols }, (_, i) => (i % 97) - 48);
    const w = Array.from({ length: rows * cols }, (_, i) => (i % 13) - 6);
    const xs = tpu.tensor(x, { dtype: 'int32' }).reshape([rows, cols]);
    const ws = tpu.tensor(w, { dtype: 'int32' }).reshape([rows, cols]);
    const s = xs.mul(ws).sum(1);
    expect(s.dtype).toBe('int64');
    const want = Array.from({ length: rows }, (_, r) => {
      let t = 0;
      for (let c = 0; c < cols; c++) t += x[r * cols + c]! * w[r * cols + c]!;
      return t;
    });
    expect(Array.from(s.dataSync(), Number)).toEqual(want);
    const gt = xs.gt(ws);
    expect(gt.dtype).toBe('bool');
    expect(Array.from(gt.dataSync(), Number)).toEqual(x.map((v, i) => (v > w[i]! ? 1 : 0)));
  });
}
