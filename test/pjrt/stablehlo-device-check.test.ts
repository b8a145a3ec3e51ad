// A device check on XLA (no assert there): the StableHLO of inv returns, after the inverse,
// the check's code, which the TPU backend reads (runtime/device/pjrt/tpu-backend.ts): b·n + k
// for a zero pivot k (1-based) of batch element b, 0 for invertible matrices. Run on XLA:CPU.
import { afterAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { jaxInstalled } from '../support/jax-tpu-reference.js';
import { XlaCpu, type XlaArray } from '../support/xla-cpu.js';
import { ELEMENT_TYPE } from '../../runtime/device/stablehlo/mlir-function.js';

const available = await jaxInstalled();
if (!available) console.warn('SKIPPED test/pjrt/stablehlo-device-check.test.ts: python3 cannot import jax');

describe.skipIf(!available)('a device check lowered to StableHLO, run on XLA:CPU', () => {
  const xla = available ? XlaCpu.start() : undefined;
  afterAll(() => xla?.close());

  it('returns the first failing batch element and pivot as the code after the outputs', async () => {
    const lowered = tpu.compile((a: Tensor) => tpu.linalg.inv(a)).lower(tpu.spec([3, 2, 2], 'float32'));
    // @main's arguments: the matrices, the tensors inv made (row indices 0, 1 as int64, the 2×2 identity), the trace's scalars
    const made = (shape: readonly number[]) => (shape.length === 1 ? BigInt64Array.of(0n, 1n) : Float32Array.of(1, 0, 0, 1));
    const run = async (values: number[]) => {
      const args: XlaArray[] = lowered.inputs.map((input) => ({
        type: ELEMENT_TYPE[input.dtype], shape: input.shape,
        data: input.argument === 0 ? Float32Array.from(values) : made(input.shape),
      }));
      lowered.program.scalars.forEach((d, i) => args.push({ type: ELEMENT_TYPE[d], shape: [], data: d === 'int32' ? Int32Array.of(lowered.scalars[i]!) : Float32Array.of(lowered.scalars[i]!) }));
      const [inverse, code] = await xla!.run(lowered.stablehlo, args);
      return { inverse: Array.from(inverse!.data as Float32Array), code: (code!.data as Int32Array)[0] };
    };
    expect(lowered.inputs.map((i) => [i.dtype, i.shape, i.argument])).toEqual([['int64', [2], null], ['float32', [3, 2, 2], 0], ['float32', [2, 2], null]]);
    // identity, [[1, 2], [2, 4]] (pivot 2 is 0), zeros (pivot 1 is 0): element 1 first, 1·2 + 2
    expect((await run([1, 0, 0, 1, 1, 2, 2, 4, 0, 0, 0, 0])).code).toBe(4);
    // only the last is singular: 2·2 + 1
    expect((await run([1, 0, 0, 1, 2, 0, 0, 4, 0, 0, 0, 0])).code).toBe(5);
    const good = await run([1, 0, 0, 1, 2, 0, 0, 4, 0, 1, 1, 0]);
    expect(good.code).toBe(0);
    expect(good.inverse).toEqual([1, 0, 0, 1, 0.5, 0, 0, 0.25, 0, 1, 1, 0]);
  });
});
