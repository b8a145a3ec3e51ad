// A float32 sum of at most 128 values over a non-last axis (a bias gradient: the batch of a
// [64, 256] gradient) lowers to a MatMul by a row of ones: ONNX Runtime's ReduceSum over such
// an axis took ~4x as long. Values against float64 sums done here, IEEE specials included (a
// sum of -0s is +0 as PyTorch's; NaN and inf - inf give NaN), in strict and fused mode and
// under tpu.compile; last-axis sums and longer ones keep ReduceSum. Generated loops off: a
// sum alone may run as one (the lowering serves the programs that run on ONNX Runtime).
process.env.TPU_KERNEL_LOOPGEN = '0';
import { describe, expect, it } from 'vitest';
import { lowerToOnnx, tpu, type Tensor } from 'tpu-kernel/runtime';
import { expectRef, refOf, sumRef, type Ref } from '../support/reference.js';

const T = (r: Ref): Tensor => tpu.tensor(r.data, { dtype: 'float32' }).reshape(r.shape);

/** [64, 256] seeded, with columns of specials: all -0, a NaN, inf and -inf, inf. */
function gradient(): Ref {
  const g = refOf([64, 256], 51);
  const column = (c: number, f: (r: number) => number) => {
    for (let r = 0; r < 64; r++) g.data[r * 256 + c] = f(r);
  };
  column(3, () => -0);
  column(7, (r) => (r === 40 ? NaN : g.data[r * 256 + 7]!));
  column(9, (r) => (r === 0 ? Infinity : r === 63 ? -Infinity : 1));
  column(11, (r) => (r === 5 ? Infinity : -2));
  return g;
}

describe.each(['strict', 'fused'] as const)('%s mode', (mode) => {
  it('sums over the leading and a middle axis', () => {
    const g = gradient();
    const m = refOf([3, 40, 5], 52);
    const [lead, middle] = tpu.withMode(mode, () => [T(g).sum(0), T(m).sum(1, true)]);
    expectRef(lead!, sumRef(g, [0], false), 1e-5, 1e-5);
    expectRef(middle!, sumRef(m, [1], true), 1e-5, 1e-5);
    const values = lead!.dataSync() as Float32Array;
    expect(Object.is(values[3], 0)).toBe(true); // +0, not -0
    expect([values[7], values[9], values[11]]).toEqual([NaN, NaN, Infinity]);
  });
});

it('under tpu.compile, a bias gradient beside its weight gradient', () => {
  const [g, x] = [gradient(), refOf([64, 30], 53)];
  const f = tpu.compile((a: Tensor, b: Tensor) => [a.sum(0), a.T.matmul(b)]);
  const [bias] = f(T(g), T(x)) as Tensor[];
  expectRef(bias!, sumRef(g, [0], false), 1e-5, 1e-5);
});

describe('the lowering', () => {
  const program = (shape: number[], dims: number[], out: number[]) => ({
    inputs: [{ shape, dtype: 'float32' }],
    scalars: [],
    nodes: [{ op: 'sum', inputs: [0], attrs: { dims, keepdim: false }, shape: out, dtype: 'float32' }],
    outputs: [1],
  });
  const text = (shape: number[], dims: number[], out: number[]) => lowerToOnnx(program(shape, dims, out) as never).text;

  it('a short sum over the leading or a middle axis is a MatMul, with no ReduceSum', () => {
    for (const t of [text([64, 256], [0], [256]), text([3, 40, 5], [1], [3, 5]), text([4, 8, 6], [0, 1], [6])]) {
      expect(t).toMatch(/= MatMul\(c\d+, /);
      expect(t).not.toMatch(/ReduceSum/);
    }
  });

  it('a last-axis sum and a sum of more than 128 values keep ReduceSum', () => {
    expect(text([64, 256], [1], [64])).toMatch(/ReduceSum/);
    expect(text([300, 8], [0], [8])).toMatch(/ReduceSum/);
    expect(text([300, 8], [0], [8])).not.toMatch(/MatMul/);
  });
});
