// A float32 where in a program that runs on ONNX Runtime is one tpu_kernel.Select node
// (native/select-op.cc) when each operand has the output's shape or one value: every result
// bit for bit the operand the condition picks (a -0, infinities and a NaN's payload kept),
// against the selection done here element by element, in strict and fused mode and under
// tpu.compile, over sizes that split into several blocks of the pool; the lowering takes only
// those shapes. Generated loops off: a program of elementwise ops alone would run as one (the
// node serves the programs that run on ONNX Runtime, a training step's relu gradient).
process.env.TPU_KERNEL_LOOPGEN = '0';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

// 2 blocks of 64K and a part: the pool's tasks, the last one short
const N = 2 * 65536 + 77;
const xs = Float32Array.from(seededValues(N, 31, -4, 4));
const ys = Float32Array.from(seededValues(N, 32, -4, 4));
const cs = Float32Array.from(seededValues(N, 33, -1, 1));
const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
// the special values, picked and passed over, somewhere in each block
const NAN_PAYLOAD = 0x7fa00001;
[[-0, 0], [0, -0], [-0, -0], [Infinity, -Infinity], [NaN, 1], [1, NaN]].forEach(([x, y], k) => {
  for (const c of [1, -1]) {
    const i = k * 21011 + (c > 0 ? 0 : 1);
    [xs[i], ys[i], cs[i]] = [x!, y!, c];
  }
});
bits(xs)[5] = NAN_PAYLOAD;
cs[5] = 1;
bits(ys)[70001] = NAN_PAYLOAD;
cs[70001] = -1;

/** c > 0 ? x : y, element by element; a one-value operand is read for every element. */
function want(c: ArrayLike<number>, x: Float32Array, y: Float32Array): Uint32Array {
  const [xb, yb] = [bits(x), bits(y)];
  const pick = (a: Uint32Array, i: number) => a[a.length === 1 ? 0 : i]!;
  return Uint32Array.from({ length: N }, (_, i) => (c[c.length === 1 ? 0 : i]! > 0 ? pick(xb, i) : pick(yb, i)));
}

function expectBits(actual: Tensor, expected: Uint32Array): void {
  const got = bits(actual.dataSync() as Float32Array);
  expect(got.length).toBe(expected.length);
  let mismatches = 0;
  for (let i = 0; i < got.length; i++) if (got[i] !== expected[i]) mismatches++;
  expect(mismatches).toBe(0);
}

describe.each(['strict', 'fused'] as const)('%s mode', (mode) => {
  it('where(c, x, y), where(c, x, one value) and where(one value, x, y): the picked operand, bit for bit', () => {
    const [c, x, y] = [tpu.tensor(cs).gt(0), tpu.tensor(xs), tpu.tensor(ys)];
    const minusZero = Float32Array.of(-0);
    const [all, scalarY, scalarC] = tpu.withMode(mode, () => [
      tpu.where(c, x, y),
      tpu.where(c, x, tpu.tensor(minusZero)),
      tpu.where(tpu.tensor([[-1]]).gt(0).reshape([1]), x, y),
    ]);
    expectBits(all!, want(cs, xs, ys));
    expectBits(scalarY!, want(cs, xs, minusZero));
    expectBits(scalarC!, want([-1], xs, ys));
  });
});

it('under tpu.compile, a relu gradient: where(h <= 0, 0, g)', () => {
  const f = tpu.compile((h: Tensor, g: Tensor) => tpu.where(h.le(0), 0, g));
  const expected = want(Float32Array.from(cs, (v) => (v <= 0 ? 1 : -1)), Float32Array.of(0), ys);
  expectBits(f(tpu.tensor(cs), tpu.tensor(ys)) as Tensor, expected);
});

describe('the lowering', () => {
  const v = (shape: number[], dtype = 'float32') => ({ shape, dtype }) as const;
  // inputs c (bool), x, y: one where node of the output's shape
  const program = (shapes: [number[], number[], number[]], out: number[]) => ({
    inputs: [v(shapes[0], 'bool'), v(shapes[1]), v(shapes[2])],
    scalars: [],
    nodes: [{ op: 'where', inputs: [0, 1, 2], attrs: {}, shape: out, dtype: 'float32' }],
    outputs: [3],
  });
  const text = (p: object, select = true) => lowerToOnnx(p as never, { select }).text;

  it('makes a where of full and one-value operands one Select node, and nothing without the ortc addon', () => {
    expect(text(program([[4, 5], [4, 5], [4, 5]], [4, 5]))).toMatch(/= tpu_kernel\.Select\(in0, in1, in2\)/);
    expect(text(program([[4, 5], [], [1, 1]], [4, 5]))).toMatch(/= tpu_kernel\.Select\(in0, in1, in2\)/);
    expect(text(program([[1], [4, 5], [4, 5]], [4, 5]))).toMatch(/Select/);
    expect(text(program([[4, 5], [4, 5], [4, 5]], [4, 5]), false)).not.toMatch(/Select/);
  });

  it('leaves a broadcast along some dims and an empty output to Where and Max', () => {
    expect(text(program([[4, 1], [4, 5], [4, 5]], [4, 5]))).not.toMatch(/Select/);
    expect(text(program([[4, 5], [5], [4, 5]], [4, 5]))).not.toMatch(/Select/);
    expect(text(program([[0, 5], [], [0, 5]], [0, 5]))).not.toMatch(/Select/);
  });
});
