// Every primitive in every dtype: its StableHLO run on XLA:CPU (jaxlib) gives the ONNX
// backend's numbers for the same program and inputs (tolerances in stablehlo-cases.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { registeredOps } from '../../runtime/ops/index.js';
import { lowerToStableHlo } from '../../runtime/device/stablehlo/index.js';
import { jaxInstalled } from '../support/jax-tpu-reference.js';
import { XlaCpu } from '../support/xla-cpu.js';
import { operandData, PRIMITIVE_CASES, programOf } from './stablehlo-cases.js';
import { firstMismatch, runBoth } from './stablehlo-reference.js';

const available = await jaxInstalled();
if (!available) console.warn('SKIPPED test/pjrt/stablehlo-numbers.test.ts: python3 cannot import jax');

it('has a case for every primitive', () => {
  expect(new Set(PRIMITIVE_CASES.map((c) => c.op))).toEqual(new Set(registeredOps().map((op) => op.name)));
});

describe.skipIf(!available)('StableHLO on XLA:CPU against the ONNX backend', () => {
  const xla = available ? XlaCpu.start() : undefined;
  afterAll(() => xla?.close());

  /** The cases whose StableHLO result departs from the reference, described. */
  async function disagreements(int64: boolean): Promise<string[]> {
    const failures: string[] = [];
    for (const [i, c] of PRIMITIVE_CASES.entries()) {
      if (c.operands.some((o) => o.dtype === 'int64') !== int64) continue;
      const tensors = c.operands.filter((o) => o.scalar === undefined).map((o, j) => operandData(o, i * 31 + j).storage);
      const scalars = c.operands.filter((o) => o.scalar !== undefined).map((o) => o.scalar!);
      try {
        const program = programOf(c);
        const { onnx, xla: got, dtypes } = await runBoth(xla!, program, tensors, scalars);
        const why = firstMismatch(c.pytorch ?? onnx[0]!, got[0]!, dtypes[0]!, c.tolerance, c.pytorch ? 'PyTorch' : 'ONNX');
        if (why) failures.push(`${c.label}: ${why}`);
      } catch (e) {
        failures.push(`${c.label}: ${(e as Error).message.split('\n').slice(0, 3).join(' ')}`);
      }
    }
    return failures;
  }

  it('agrees on every primitive and dtype', async () => {
    expect(await disagreements(false)).toEqual([]);
  }, 300_000);

  // apart: the int64 cases alone (wrapping products and casts included) in their own time budget
  it('agrees on every primitive with int64 operands', async () => {
    expect(await disagreements(true)).toEqual([]);
  }, 300_000);

  it('takes a scalar as a parameter: one executable, a new value each run', async () => {
    const { text } = lowerToStableHlo({
      inputs: [{ shape: [3], dtype: 'float32' }], scalars: ['float32'],
      nodes: [{ op: 'mul', inputs: [0, 1], attrs: {}, shape: [3], dtype: 'float32' }], outputs: [2],
    });
    const x = { type: 'f32', shape: [3], data: Float32Array.of(1, -2, 3) } as const;
    for (const lr of [0.5, 0.001]) {
      const [out] = await xla!.run(text, [x, { type: 'f32', shape: [], data: Float32Array.of(lr) }]);
      expect(Array.from(out!.data)).toEqual([1, -2, 3].map((v) => Math.fround(v * Math.fround(lr))));
    }
  });
});
