// Generated loops compute an erf of x / c (c a constant, the quotient read by nothing else:
// gelu's erf(x / √2)) as erf(x · (1/c)), as PyTorch's gelu kernel does, without a division:
// a dense sweep over [-10, 10] and the special values against float64 erf(x / √2).
import { describe, expect, it } from 'vitest';
import { erfQuotients, generateC } from '../../dist/runtime/device/loopgen/generate-c.js';
import { compileKernel } from '../../dist/runtime/device/loopgen/native.js';
import type { Program } from '../../dist/runtime/program/program.js';
import { elementwise, erfLoopWorstUlps } from '../support/erf-loop.js';

const n = 1 << 20;
const v = { shape: [n], dtype: 'float32' as const };
const sqrt2 = { op: 'constant', inputs: [], attrs: { shape: [], dtype: 'float32', values: [Math.SQRT2] }, shape: [], dtype: 'float32' as const };
/** erf(x / √2), and with `alsoOutput` the quotient itself as a second output. */
const program = (alsoOutput: boolean): Program => ({
  inputs: [v],
  scalars: [],
  nodes: [sqrt2, { op: 'div', inputs: [0, 1], attrs: {}, ...v }, { op: 'erf', inputs: [2], attrs: {}, ...v }],
  outputs: alsoOutput ? [3, 2] : [3],
});

describe('erf of a quotient by a constant in generated loops', () => {
  it('multiplies by the float32 reciprocal only when erf alone reads the quotient', () => {
    expect([...erfQuotients(program(false))]).toEqual([[2, `(float)${(1 / Math.fround(Math.SQRT2)).toPrecision(17)}`]]);
    expect(Math.fround(1 / Math.fround(Math.SQRT2))).toBe(Math.fround(Math.SQRT1_2)); // PyTorch's M_SQRT1_2 in float32
    expect(generateC(program(false))).toContain('const float v2 = in0[i] * (float)0.70710679328816484;') // rounds to float32 M_SQRT1_2;
    // an output quotient is the division's own correctly rounded value
    expect(erfQuotients(program(true)).size).toBe(0);
    expect(generateC(program(true))).toContain('in0[i] / (float)1.4142135623730951');
    // no normal float32 reciprocal: the division stays
    const by = (c: number) => ({ ...program(false), nodes: [{ ...sqrt2, attrs: { ...sqrt2.attrs, values: [c] } }, ...program(false).nodes.slice(1)] });
    for (const c of [0, 2 ** -140, 3e38]) expect(erfQuotients(by(c)).size, `c = ${c}`).toBe(0);
    expect(erfQuotients(by(-4)).get(2)).toBe('(float)-0.25000000000000000');
  });

  it('within 2 ulp (1.39 measured) of float64 erf(x / √2) over [-10, 10], keeping NaN, +-inf and -0', async () => {
    const kernel = await compileKernel(generateC(program(false))!);
    expect(kernel, 'gcc is on this machine, so the kernel must build').toBeDefined();
    const x = Float32Array.from({ length: n }, (_, i) => (i / n) * 20 - 10);
    x.set([1e-30, -1e-38, 2 ** -149, 1.4142135, -1.4142137], 5);
    const worst = erfLoopWorstUlps(elementwise(kernel!), x, (v) => v / Math.SQRT2);
    expect(worst).toBeLessThanOrEqual(2);
  });
});
