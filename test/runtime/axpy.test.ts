// x - g·s and x + g·s (an optimizer's update) run as one tpu_kernel.Axpy node through the ortc
// addon: each element bitwise as ONNX's Mul then Sub/Add round it (the product rounded to
// float32, then the sum), IEEE special values included, in every mode and under tpu.compile,
// over sizes that split into several blocks of the pool; the lowering takes only that shape.
// Generated loops off: a program of elementwise ops alone would run as one (the node serves
// the programs that run on ONNX Runtime, a training step's, which holds matmuls).
process.env.TPU_KERNEL_LOOPGEN = '0';
import { describe, expect, it } from 'vitest';
import { tpu, lowerToOnnx, type Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';

const f32 = Math.fround;
// 3 blocks of 64K and a part: the pool's tasks, the last one short
const N = 3 * 65536 + 123;
const xs = Float32Array.from(seededValues(N, 21, -4, 4));
const gs = Float32Array.from(seededValues(N, 22, -4, 4));
// the special values, somewhere in each block
const specials: [number, number][] = [[NaN, 1], [1, NaN], [Infinity, 1], [1, Infinity], [-0, 0], [0, -0], [-0, -0], [3e38, -3e38], [1e-45, 1e-45]];
specials.forEach(([x, g], k) => {
  xs[k * 20011] = x;
  gs[k * 20011] = g;
});
const s = 0.7;

const want = (op: 'sub' | 'add') => Float32Array.from(xs, (x, i) => (op === 'sub' ? f32(x - f32(gs[i]! * f32(s))) : f32(x + f32(gs[i]! * f32(s)))));

function expectBits(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  const bits = (a: Float32Array) => new Int32Array(a.buffer, a.byteOffset, a.length);
  const [ab, eb] = [bits(actual), bits(expected)];
  let mismatches = 0;
  for (let i = 0; i < ab.length; i++) if (ab[i] !== eb[i] && !(Number.isNaN(actual[i]) && Number.isNaN(expected[i]))) mismatches++;
  expect(mismatches).toBe(0);
}

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('x - g·s and g·s + x, bitwise as a Mul then a Sub or Add', () => {
    const [x, g] = [tpu.tensor(xs), tpu.tensor(gs)];
    const [down, up] = tpu.withMode(mode, () => [x.sub(g.mul(s)), g.mul(s).add(x)]);
    expectBits(down!.dataSync() as Float32Array, want('sub'));
    expectBits(up!.dataSync() as Float32Array, want('add'));
  });
});

it('under tpu.compile, an SGD-like update of two tensors', () => {
  const f = tpu.compile((x: Tensor, g: Tensor, lr: number) => [x.sub(g.mul(lr)), x.add(g.mul(lr))]);
  const [down, up] = f(tpu.tensor(xs), tpu.tensor(gs), s) as Tensor[];
  expectBits(down!.dataSync() as Float32Array, want('sub'));
  expectBits(up!.dataSync() as Float32Array, want('add'));
});

describe('the lowering', () => {
  const v = (shape: number[]) => ({ shape, dtype: 'float32' }) as const;
  // inputs x, g; scalar s; nodes: mul(g, s), then `op`(x, mul) or op(mul, x)
  const program = (op: 'sub' | 'add', shapes: [number[], number[]], productFirst = false, alsoOutputProduct = false) => {
    const out = shapes[0];
    const nodes = [
      { op: 'mul', inputs: [1, 2], attrs: {}, shape: shapes[1], dtype: 'float32' },
      { op, inputs: productFirst ? [3, 0] : [0, 3], attrs: {}, shape: out, dtype: 'float32' },
    ];
    return { inputs: [v(shapes[0]), v(shapes[1])], scalars: ['float32'], nodes, outputs: alsoOutputProduct ? [4, 3] : [4] };
  };
  const text = (p: object) => lowerToOnnx(p as never, { axpy: true }).text;

  it('makes x - g·s and g·s + x one Axpy node, and nothing without the ortc addon', () => {
    expect(text(program('sub', [[4, 5], [4, 5]]))).toMatch(/= tpu_kernel\.Axpy\(in0, in1, s0, subtract=1\)/);
    expect(text(program('add', [[4, 5], [4, 5]], true))).toMatch(/= tpu_kernel\.Axpy\(in0, in1, s0, subtract=0\)/);
    expect(text(program('sub', [[4, 5], [4, 5]]))).not.toMatch(/Mul/);
    expect(lowerToOnnx(program('sub', [[4, 5], [4, 5]]) as never, {}).text).toMatch(/Sub\(in0, v\d+\)/);
  });

  it('leaves g·s - x, a broadcast, and a product read elsewhere to Mul and Sub', () => {
    expect(text(program('sub', [[4, 5], [4, 5]], true))).not.toMatch(/Axpy/);
    expect(text(program('sub', [[4, 5], [5]]))).not.toMatch(/Axpy/);
    expect(text(program('sub', [[4, 5], [4, 5]], false, true))).not.toMatch(/Axpy/);
  });
});
