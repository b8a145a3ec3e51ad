// Composed ops in fused mode: their intermediates are not program outputs (one output for
// layerNorm → gelu), yet still readable later through their recipes.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, composite, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

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
