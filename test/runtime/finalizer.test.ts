// The FinalizationRegistry safety net frees tensors that are garbage-collected.
import { expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it('frees device memory of unreachable tensors', async () => {
  await tpu.sync();
  const before = tpu.memory().liveBytes;
  (() => {
    for (let i = 0; i < 10; i++) tpu.zeros([1000]);
  })();
  expect(tpu.memory().liveBytes).toBe(before + 40_000);
  for (let i = 0; i < 20 && tpu.memory().liveBytes > before; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(tpu.memory().liveBytes).toBe(before);
});

it('fused: a recipe reading a garbage-collected tensor stays computable (reshape of an upload)', async () => {
  const N = 8;
  const host = new Float32Array(N * N).map((_, i) => (i % 7) - 3);
  const bHost = new Float32Array(N * N).map((_, i) => ((i * 5) % 11) / 4);
  const ref = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < N; k++) s += host[i * N + k]! * bHost[k * N + j]!;
      ref[i * N + j] = s;
    }
  }
  const check = (c: Float32Array) => c.forEach((v, i) => expect(v).toBeCloseTo(ref[i]!, 4));
  await tpu.withMode('fused', async () => {
    const a = tpu.tensor(host).reshape([N, N]); // the uploaded tensor is unreachable at once
    const b = tpu.tensor(bHost).reshape([N, N]);
    const twice = tpu.tensor(host).mul(2).reshape([N, N]).mul(0.5); // a chain of recipes
    check((await a.matmul(b).data()) as Float32Array);
    check((await twice.matmul(b).data()) as Float32Array);
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    check((await a.matmul(b).data()) as Float32Array);
    check((await twice.matmul(b).data()) as Float32Array);
    check((await a.matmul(b).data()) as Float32Array);
  });
});

it('fused: a pending region reading a garbage-collected tensor still runs', async () => {
  const host = new Float32Array([1, -2, 3, -4, 5, -6]);
  await tpu.withMode('fused', async () => {
    const y = tpu.tensor(host).reshape([2, 3]).mul(2); // not run yet; the upload is unreachable
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await y.array()).toEqual([[2, -4, 6], [-8, 10, -12]]);
  });
});
