// relu and its gradient (where(out <= 0, 0, g), PyTorch's threshold_backward) as generated
// C loops: strict mode runs each as one program, ONNX Runtime's until the loop is built, and
// both must give the same bits: NaN and -0 pass relu, a NaN output passes its gradient on.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { generateC } from '../../dist/runtime/device/loopgen/generate-c.js';
import { compileKernel } from '../../dist/runtime/device/loopgen/native.js';
import type { Program } from '../../dist/runtime/program/program.js';

const N = 1 << 15;
const SPECIAL = [NaN, -0, 0, Infinity, -Infinity, -1e-45, 1e-45, -3, 3];

function values(seed: number): Float32Array {
  const x = new Float32Array(N);
  SPECIAL.forEach((v, i) => (x[i] = v));
  for (let i = SPECIAL.length; i < N; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    x[i] = (seed / 2 ** 31) * 2 - 1;
  }
  return x;
}

// references written out: PyTorch's relu keeps NaN and -0; its gradient is out <= 0 ? 0 : g
const reluOf = (v: number) => (v < 0 ? 0 : v);
const reluGradOf = (out: number, g: number) => (out <= 0 ? 0 : g);

function expectBits(got: ArrayLike<number>, expected: (i: number) => number, what: string): void {
  for (let i = 0; i < N; i++) {
    const e = expected(i);
    if (!Object.is(got[i], e)) expect(`${what}[${i}] = ${got[i]}`).toBe(`${what}[${i}] = ${e}`);
  }
}

async function loopsBuilt(before: number): Promise<void> {
  for (let i = 0; i < 200 && (await tpu.deviceStats()).generatedLoops! <= before; i++) await new Promise((r) => setTimeout(r, 50));
  expect((await tpu.deviceStats()).generatedLoops).toBeGreaterThan(before);
}

const value = (dtype: 'float32' | 'bool' = 'float32') => ({ shape: [N], dtype });
/** where(out <= s, s, g): relu's gradient as strict mode records it (inputs out and g, scalar 0). */
const reluGrad: Program = {
  inputs: [value(), value()],
  scalars: ['float32'],
  nodes: [
    { op: 'le', inputs: [0, 2], attrs: {}, ...value('bool') },
    { op: 'where', inputs: [3, 2, 1], attrs: {}, ...value() },
  ],
  outputs: [4],
};

describe('relu and its gradient as generated loops', () => {
  it('a comparison feeding a where is one loop; a bool output or input is not', () => {
    expect(generateC(reluGrad)).toContain('tk_kernel');
    expect(generateC({ ...reluGrad, outputs: [3] })).toBeUndefined();
    expect(generateC({ ...reluGrad, inputs: [value('bool'), value()], nodes: [{ op: 'where', inputs: [0, 2, 1], attrs: {}, ...value() }], outputs: [3] })).toBeUndefined();
    expect(generateC({ inputs: [value()], scalars: [], nodes: [{ op: 'relu', inputs: [0], attrs: {}, ...value() }], outputs: [1] })).toContain('tk_kernel');
  });

  it('the gradient loop selects bitwise as a float64 reference, NaN and -0 included', async () => {
    const kernel = await compileKernel(generateC(reluGrad)!);
    expect(kernel, 'gcc is on this machine, so the kernel must build').toBeDefined();
    const out = values(3).map(reluOf);
    const g = values(5);
    g[1] = NaN; // a NaN gradient where out <= 0 gives 0
    const dx = new Float32Array(N);
    kernel!.run([out, g], Float32Array.of(0), [dx], N, 2);
    expectBits(dx, (i) => reluGradOf(out[i]!, g[i]!), 'dx');
  });

  it('strict relu and its backward give the same bits before and after their loops are built', async () => {
    const data = values(11);
    const seed = values(13);
    const before = (await tpu.deviceStats()).generatedLoops!;
    const step = async () => {
      const x = tpu.tensor(data, { requiresGrad: true });
      const y = x.relu();
      y.backward(tpu.tensor(seed));
      return [await y.data(), await x.grad!.data()] as const;
    };
    const check = ([y, dx]: readonly [ArrayLike<number>, ArrayLike<number>]) => {
      expectBits(y, (i) => reluOf(Math.fround(data[i]!)), 'relu');
      expectBits(dx, (i) => reluGradOf(reluOf(data[i]!), seed[i]!), 'grad');
    };
    check(await tpu.withMode('strict', step)); // ONNX Runtime's, unless a loop came first
    await loopsBuilt(before + 1);
    check(await tpu.withMode('strict', step));
  });
});
