// The differential check of one random program: the runtime in debug, strict, fused and
// tpu.compile (replayed), with full garbage collections between steps, against the float64
// reference; float programs also compare gradients with central differences of the reference.
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { type Ref } from '../reference.js';
import { gc } from '../settle-gc.js';
import { generate, programText, refStep, runStep, type Program } from './program.js';

/** Tolerances per dtype: float32 rounds like the reference up to transcendental ulps; bfloat16
 * roundings after each op may differ by one bf16 ulp and cascade over the steps; int32 is exact. */
function tolerance(p: Program, expected: Ref): { rel: number; abs: number } {
  const scale = 1 + Math.max(0, ...expected.data.map(Math.abs));
  if (p.dtype === 'int32') return { rel: 0, abs: 0 };
  if (p.dtype === 'bfloat16') return { rel: 1e-2 * p.steps.length, abs: 1e-2 * p.steps.length * scale };
  return { rel: 1e-5, abs: 1e-5 * scale };
}

export function reference(p: Program, input: Ref = p.input, dtype: Program['dtype'] | 'float64' = p.dtype): Ref {
  return p.steps.reduce((x, s) => refStep(s, x, dtype), input);
}

function forward(p: Program, x: Tensor, collect: boolean): Tensor {
  let t = x;
  for (const s of p.steps) {
    t = runStep(s, t, p.dtype);
    if (collect) gc();
  }
  return t;
}

const input = (p: Program) => tpu.tensor(p.input.data, { dtype: p.dtype }).reshape(p.input.shape);

/** An int32 program turns int64 at its first sum, as PyTorch's int32 sums are int64. */
const resultDType = (p: Program) => (p.dtype === 'int32' && p.steps.some((s) => s.op === 'sum') ? 'int64' : p.dtype);

function compare(where: string, p: Program, got: Tensor, expected: Ref, tol = tolerance(p, expected)): string | null {
  if (got.shape.join() !== expected.shape.join()) return `${where}: shape [${got.shape}], expected [${expected.shape}]`;
  if (got.dtype !== resultDType(p)) return `${where}: dtype ${got.dtype}, expected ${resultDType(p)}`;
  const data = got.dataSync();
  for (let i = 0; i < expected.data.length; i++) {
    const a = Number(data[i]);
    const e = expected.data[i]!;
    if (!(Math.abs(a - e) <= tol.abs + tol.rel * Math.abs(e))) return `${where}: element ${i} is ${a}, expected ${e}`;
  }
  return null;
}

/** Central differences of sum(program(x)) over the float64 reference. */
function numericGrad(p: Program): number[] {
  const h = 1e-4;
  return p.input.data.map((_, i) => {
    const at = (d: number) => {
      const data = [...p.input.data];
      data[i] = data[i]! + d;
      return reference(p, { shape: p.input.shape, data }, 'float64').data.reduce((a, b) => a + b, 0);
    };
    return (at(h) - at(-h)) / (2 * h);
  });
}

/** The first disagreement of program `seed` in any mode, or null. */
export function checkProgram(seed: number): { failure: string; text: string } | null {
  const p = generate(seed);
  const expected = reference(p);
  const fail = (failure: string) => ({ failure: `seed ${seed}: ${failure}`, text: programText(p) });
  try {
    for (const mode of ['debug', 'strict', 'fused'] as const) {
      const got = tpu.withMode(mode, () => { gc(); return forward(p, input(p), true); });
      const bad = compare(mode, p, got, expected);
      if (bad) return fail(bad);
    }
    const compiled = tpu.compile((x: Tensor) => forward(p, x, false));
    for (let call = 0; call < 3; call++) {
      const got = compiled(input(p));
      gc();
      const bad = compare(`tpu.compile call ${call + 1}`, p, got, expected);
      if (bad) return fail(bad);
    }
    // PyTorch refuses add_ on a view of a leaf that requires grad: in-place programs have no gradient to compare
    if (p.dtype === 'float32' && !p.steps.some((s) => s.op === 'addInPlace')) {
      const grad = tpu.grad((x: Tensor) => forward(p, x, true).sum())(input(p));
      const want = numericGrad(p);
      const bad = compare('grad', { ...p, steps: [] } as Program, grad, { shape: p.input.shape, data: want },
        { rel: 1e-3, abs: 1e-3 * (1 + Math.max(...want.map(Math.abs))) });
      if (bad) return fail(bad);
    }
  } catch (e) {
    return fail(`threw ${(e as Error).message}`);
  } finally {
    tpu.mode('strict');
  }
  return null;
}

/** Checks `count` programs from `seed` on; every failure with its reproducing program. */
export function fuzz(seed: number, count: number): { failure: string; text: string }[] {
  const failures = [];
  for (let s = seed; s < seed + count; s++) {
    const f = checkProgram(s);
    if (f) failures.push(f);
  }
  return failures;
}


