// Layout ops that change nothing (a reshape or expand to the operand's own shape, an identity
// permute: autograd makes many) lower to no ONNX node; values in every mode equal the
// hand-computed ones, also when such a value is a program output beside its own operand.
import { afterEach, describe, expect, it } from 'vitest';
import { lowerToOnnx, tpu } from 'tpu-kernel/runtime';

afterEach(() => tpu.mode('strict'));

const X = [[1, -2, 0.5], [-0, 4, -1.5]];
/** x * 2 + 1, by hand. */
const Y = [[3, -3, 2], [1, 9, -2]];

describe('layout ops that change nothing', () => {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    it(`${mode}: reshape, permute and expand to the same shape give the operand's values; outputs beside their operand`, async () => {
      tpu.mode(mode);
      const x = tpu.tensor(X);
      const y = x.mul(2).add(1);
      const r = y.reshape([2, 3]);
      const p = y.permute([0, 1]);
      const e = y.expand([2, 3]);
      const s = r.add(p).sub(e); // = y
      expect(await y.array()).toEqual(Y);
      expect(await r.array()).toEqual(Y);
      expect(await p.array()).toEqual(Y);
      expect(await e.array()).toEqual(Y);
      expect(await s.array()).toEqual(Y);
      // an unchanged reshape of an input, written out: its own buffer, the input's values
      const direct = x.reshape([2, 3]);
      expect(Object.is((await direct.data())[3], -0)).toBe(true);
      expect(await direct.array()).toEqual(X);
    });
  }

  it('a fused program of them holds no Reshape, Transpose or Expand node', async () => {
    tpu.mode('fused');
    const x = tpu.tensor(X);
    const out = x.mul(3).reshape([2, 3]).permute([0, 1]).expand([2, 3]).add(x.reshape([2, 3]));
    expect(await out.array()).toEqual(X.map((row) => row.map((v) => v * 3 + v)));
    const graph = lowerToOnnx(tpu.stats().lastProgram!.program).text;
    expect(graph).not.toMatch(/= (Reshape|Transpose|Expand)\(/);
  });
});
