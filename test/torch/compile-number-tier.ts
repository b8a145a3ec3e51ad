// The table test of a tpu.compile number argument that an op, a layer or a function reads: each
// case with two values called a, b, a on one compiled function (a trace kept for one value and
// replayed for the other would give the first value's answer), against eager execution and
// PyTorch 2.13 in every mode; then a, b, a, b against eager execution with the number of traces
// that takes (one per value where the trace is specialized on it, one in all where the number
// stays a program input), with no warning (the number was given to an op, not used in JS
// arithmetic).
import { describe, expect, it, vi } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, type InputSpec, type Output, type TorchCase } from './torch-tier.js';

export interface NumberArgumentCase {
  readonly name: string;
  readonly inputs: readonly InputSpec[];
  /** Two values of the number (of one kind, integer or not): called a, b, a on the compiled function. */
  readonly values: readonly [number, number];
  readonly js: (v: number, ...xs: Tensor[]) => Output;
  /** PyTorch's spelling over x0, x1, ... for the value v. */
  readonly py: (v: number) => string;
  /** A program input (a row position, an operand): one trace serves every value. */
  readonly fed?: boolean;
  /** Traces for a, b, a, b when neither 2 nor (fed) 1: a body that cannot be replayed runs each call. */
  readonly traces?: number;
  readonly rtol?: number;
  readonly atol?: number;
}

export const made = (spec: InputSpec) => tpu.tensor(spec.values as number[], { dtype: spec.dtype }).reshape([...spec.shape]);

/** An output's values as nested arrays, pairs as [values, indices]. */
export async function arrays(o: Output): Promise<unknown> {
  if (Array.isArray(o)) return Promise.all(o.map((t: Tensor) => t.array()));
  return 'indices' in o && !('shape' in o) ? [await o.values.array(), await o.indices.array()] : (o as Tensor).array();
}

/** Nested arrays of equal structure whose numbers agree within the case's tolerance (a program's sums may round otherwise than eager ops'). */
function expectClose(got: unknown, want: unknown, c: NumberArgumentCase, what: string): void {
  const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(flat) : [v]);
  expect(JSON.stringify(got).replace(/[-\d.e]+/g, '0'), `${what}: structure`).toBe(JSON.stringify(want).replace(/[-\d.e]+/g, '0'));
  const [g, w] = [flat(got) as number[], flat(want) as number[]];
  g.forEach((x, i) => expect(Math.abs(x - w[i]!), `${what}: element ${i}`).toBeLessThanOrEqual((c.atol ?? 0) + (c.rtol ?? 0) * Math.abs(w[i]!)));
}

export function numberArgumentTier(title: string, cases: readonly NumberArgumentCase[]): void {
  /** One compiled function per case, shared by every mode's calls: a stale trace shows as a wrong answer. */
  const compiled = new Map(cases.map((c) => [c, tpu.compile((v: number, ...xs: Tensor[]) => c.js(v, ...xs), { name: c.name })]));
  const torchCases: TorchCase[] = cases.flatMap((c) => {
    const [a, b] = c.values;
    const tolerance = { rtol: c.rtol, atol: c.atol };
    const eager = [a, b].map((v): TorchCase => ({ name: `${c.name} with ${v}, eagerly`, inputs: c.inputs, js: (...xs) => c.js(v, ...xs), py: c.py(v), ...tolerance }));
    const traced = [a, b, a].map((v, k): TorchCase => ({ name: `${c.name} with ${v}, compiled (call ${k + 1})`, inputs: c.inputs, js: (...xs) => compiled.get(c)!(v, ...xs), py: c.py(v), ...tolerance }));
    return [...eager, ...traced];
  });
  torchTier(title, torchCases);

  describe(`${title}: traces`, () => {
    it.each(cases)('$name: the eager answer for each value, in one trace per value (one in all for a program input), no warning', async (c) => {
      // an op reading the number is no JS arithmetic of the user's: nothing to warn about
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const f = tpu.compile((v: number, ...xs: Tensor[]) => c.js(v, ...xs));
      const [a, b] = c.values;
      for (const v of [a, b, a, b]) {
        const got = await arrays(f(v, ...c.inputs.map(made)));
        const want = await arrays(c.js(v, ...c.inputs.map(made)));
        if (c.atol === undefined && c.rtol === undefined) expect(got, `${c.name} with ${v}`).toEqual(want);
        else expectClose(got, want, c, `${c.name} with ${v}`);
      }
      expect(f.stats().traces).toBe(c.traces ?? (c.fed ? 1 : 2));
      expect(warn).not.toHaveBeenCalled();
      warn.mockRestore();
    });
  });
}
