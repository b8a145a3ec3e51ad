// Composed ops in fused mode: their intermediates are not program outputs (one output for
// layerNorm → gelu), yet still readable later through their recipes.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu, composite, type Tensor } from 'tpu-kernel/runtime';
import { expectClose, seededValues } from '../support/reference.js';

afterEach(() => tpu.mode('strict'));

describe('composite() in fused mode', () => {
  it('layerNorm → gelu: only the two results are program outputs, none of their internals', () => {
    tpu.mode('fused');
    const x = tpu.tensor(seededValues(24, 4), { dtype: 'float32' }).reshape([3, 8]);
    const w = tpu.ones([8]);
    tpu.syncBlocking();
    const y = tpu.nn.functional.gelu(tpu.nn.functional.layerNorm(x, [8], { weight: w, bias: w }));
    y.dataSync();
    // layerNorm's result is kept (gelu reads it twice, and the caller might too)
    const program = tpu.stats().lastProgram!.program;
    expect(program.nodes.length).toBeGreaterThan(15);
    expect(program.outputs.length).toBe(2);
  });

  it('an intermediate used twice is not an output, and reads back right when asked later', () => {
    tpu.mode('fused');
    const xs = seededValues(24, 5).map(Math.fround);
    const x = tpu.tensor(xs, { dtype: 'float32' }).reshape([3, 8]);
    tpu.syncBlocking();
    let centered: Tensor | undefined;
    const y = composite(() => {
      centered = x.sub(x.mean(-1, true));
      return centered.mul(centered).sum(-1);
    });
    y.dataSync();
    expect(tpu.stats().lastProgram!.program.outputs.length).toBe(1);
    const rows = [0, 1, 2].map((r) => xs.slice(r * 8, r * 8 + 8));
    const want = rows.flatMap((row) => row.map((v) => v - row.reduce((p, q) => p + q, 0) / 8));
    expectClose(centered!.dataSync(), want, 1e-6, 1e-6);
  });
});
