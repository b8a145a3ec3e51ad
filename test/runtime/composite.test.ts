// Composed ops in fused mode: their intermediates are not program outputs (one output for
// layerNorm → gelu), yet still readable later through their recipes. In strict mode each
// composed op is one program.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, composite, type Tensor } from 'tpu-kernel/runtime';
import { erfRef, expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

describe('composite() in fused mode', () => {
  it('layerNorm → gelu runs as one program with one output (gelu reads its input once: ownInput)', () => {
    tpu.mode('fused');
    const x = tpu.tensor(seededValues(24, 4), { dtype: 'float32' }).reshape([3, 8]);
    const w = tpu.ones([8]);
    tpu.syncBlocking();
    const y = tpu.nn.functional.gelu(tpu.nn.functional.layerNorm(x, [8], { weight: w, bias: w }));
    y.dataSync();
    const program = tpu.stats().lastProgram!.program;
    expect(program.nodes.length).toBeGreaterThan(15);
    expect(program.outputs.length).toBe(1);
  });

  it('an intermediate used twice is not an output, and reads back right when asked later', () => {
    tpu.mode('fused');
    const xs = seededValues(24, 5).map(Math.fround);
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 8]);
    tpu.syncBlocking();
    let centered: Tensor | undefined;
    const y = composite('test', () => {
      centered = x.sub(x.mean(-1, true));
      return centered.mul(centered).sum(-1);
    });
    y.dataSync();
    expect(tpu.stats().lastProgram!.program.outputs.length).toBe(1);
    const rows = [0, 1, 2].map((r) => xs.slice(r * 8, r * 8 + 8));
    const want = rows.flatMap((row) => row.map((v) => v - row.reduce((p, q) => p + q, 0) / 8));
    expectClose(centered!.dataSync(), want, 1e-6, 1e-6);
  });

  it('in debug and strict mode the internals are freed at once unless autograd needs them', () => {
    for (const mode of ['debug', 'strict'] as const) {
      tpu.mode(mode);
      const x = tpu.randn([4, 8]);
      const before = tpu.memory().liveTensors;
      const y = tpu.nn.functional.layerNorm(x, [8]);
      expect(tpu.memory().liveTensors).toBe(before + 1);
      y.dispose();
      const p = tpu.randn([4, 8], { requiresGrad: true });
      const z = tpu.nn.functional.layerNorm(p, [8]);
      expect(tpu.memory().liveTensors).toBeGreaterThan(before + 3);
      z.sum().backward();
      expect(p.grad!.shape).toEqual([4, 8]);
    }
  });
});

describe('composite() in strict mode', () => {
  const launches = () => tpu.stats().cacheHits + tpu.stats().cacheMisses;
  const xs = seededValues(24, 7).map(Math.fround);
  // float64 layerNorm (no affine) then exact gelu, row by row.
  const want = [0, 1, 2].flatMap((r) => {
    const row = xs.slice(r * 8, r * 8 + 8);
    const mean = row.reduce((p, q) => p + q, 0) / 8;
    const variance = row.reduce((p, q) => p + (q - mean) ** 2, 0) / 8;
    return row.map((v) => (v - mean) / Math.sqrt(variance + 1e-5)).map((v) => 0.5 * v * (1 + erfRef(v / Math.SQRT2)));
  });

  it('runs each composed op as one program of several primitives', () => {
    tpu.mode('strict');
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 8]);
    const before = launches();
    const ln = tpu.nn.functional.layerNorm(x, [8]);
    expect(launches() - before).toBe(1);
    expect(tpu.stats().lastProgram!.program.nodes.length).toBeGreaterThan(5);
    const y = tpu.nn.functional.gelu(ln);
    expect(launches() - before).toBe(2);
    expectClose(y.dataSync(), want, 1e-5, 1e-6);
  });

  it('with autograd recording, the same program writes the values backward reads: gradients match debug mode', () => {
    const grads = (['debug', 'strict'] as const).map((mode) => tpu.withMode(mode, () => {
      const p = tpu.tensor(xs, { dtype: 'float32', requiresGrad: true });
      const before = launches();
      const y = tpu.nn.functional.gelu(tpu.nn.functional.layerNorm(p.reshape([3, 8]), [8]));
      if (mode === 'strict') expect(launches() - before).toBe(3); // reshape, layerNorm, gelu
      expectClose(y.dataSync(), want, 1e-5, 1e-6);
      y.mul(tpu.tensor(seededValues(24, 8)).reshape([3, 8])).sum().backward();
      return Array.from(p.grad!.dataSync());
    }));
    expectClose(grads[1]!, grads[0]!, 1e-5, 1e-6);
  });

  it('an error inside a composed op leaves nothing pending and the session working', () => {
    tpu.mode('strict');
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 8]);
    expect(() => tpu.nn.functional.layerNorm(x, [8], { weight: tpu.ones([4]) })).toThrow(/weight must be a tensor of shape \[8\]/);
    expect(tpu.stats().pendingOps).toBe(0);
    expectClose(tpu.nn.functional.gelu(tpu.nn.functional.layerNorm(x, [8])).dataSync(), want, 1e-5, 1e-6);
  });
});
