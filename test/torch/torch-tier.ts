// The PyTorch reference tier: each case runs through the runtime in debug, strict and fused
// mode and through PyTorch 2.13 CPU (torch_reference.py, one process per test file), and the
// values, dtypes, shapes and errors are compared. Known differences live in known-failures.ts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { KNOWN_FAILURES } from './known-failures.js';
import { mulberry32 } from '../support/seeded-random.js';

type DType = 'float32' | 'bfloat16' | 'int32' | 'int64' | 'bool';
/** Non-finite numbers and -0 as JSON can carry them; int64 values as exact decimal strings. */
type Wire = number | boolean | string;
type Nested = number | boolean | bigint | Nested[];

export interface InputSpec {
  readonly values: readonly (number | boolean | bigint)[];
  readonly shape: readonly number[];
  readonly dtype: DType;
}

export type Output = Tensor | readonly Tensor[] | { values: Tensor; indices: Tensor };

export interface TorchCase {
  readonly name: string;
  readonly inputs: readonly InputSpec[];
  /** The runtime's spelling, over the inputs. */
  readonly js: (...xs: Tensor[]) => Output;
  /** PyTorch's spelling: a Python expression over x0, x1, ..., torch and F (or lines that set `result`). */
  readonly py: string;
  readonly rtol?: number;
  readonly atol?: number;
  /** false: a zero's sign is not compared (gradients, whose zeros' signs follow each library's order of operations). */
  readonly signedZeros?: boolean;
}

interface Result {
  outputs?: { shape: number[]; dtype: string; values: Wire[] }[];
  error?: string;
  /** A case's statements set `nonfinite_on_the_way`: some step made a NaN or Inf that later steps hid. */
  nonFiniteOnTheWay?: boolean;
}

function spec(dtype: DType, data: Nested): InputSpec {
  const shape: number[] = [];
  for (let v = data; Array.isArray(v); v = v[0]!) shape.push(v.length);
  return { values: [data].flat(Infinity as 1) as (number | boolean | bigint)[], shape, dtype };
}
export const f32 = (data: Nested) => spec('float32', data);
export const bf16 = (data: Nested) => spec('bfloat16', data);
export const i32 = (data: Nested) => spec('int32', data);
/** int64 inputs: numbers, or bigints beyond 2^53. */
export const i64 = (data: Nested) => spec('int64', data);
export const bool = (data: Nested) => spec('bool', data);
/** Indices: int64, as PyTorch's (one_hot and cross_entropy take Long only). */
export const ids = (data: Nested): InputSpec => spec('int64', data);
/**
 * The gradient of Σ w·f(x) with respect to x on both sides, `weights` w a float32 tensor
 * broadcast against f(x) (weights that differ per element catch a gradient spread wrongly).
 */
export function weightedGrad(name: string, input: InputSpec, js: (x: Tensor) => Tensor, py: string, weights: number[] | number[][], tolerance: { rtol?: number; atol?: number } = {}): TorchCase {
  return {
    name,
    inputs: [input],
    js: (x) => { x.requiresGrad_(); js(x).mul(tpu.tensor(weights)).sum().backward(); return x.grad!; },
    py: weightedGradPy(py, weights),
    ...tolerance,
  };
}


/** PyTorch's side of weightedGrad: the gradient of Σ w·f(x0) with respect to x0, f the expression `py` over x. */
export function weightedGradPy(py: string, weights: number[] | number[][]): string {
  return `x = x0.requires_grad_()\n((${py}) * torch.tensor(${JSON.stringify(weights)}, dtype=torch.float32)).sum().backward()\nresult = x.grad`;
}

/**
 * The gradients of Σ w·f(x, y, ...) for the inputs listed in `wrt`, on both sides, w = 1, 2, 3,
 * ... over f's elements (weights that differ per element catch a gradient spread wrongly).
 */
export const gradsOf = (name: string, inputs: TorchCase['inputs'], wrt: readonly number[], js: (...xs: Tensor[]) => Tensor, py: string, tolerance: { rtol?: number; atol?: number } = {}): TorchCase => ({
  name,
  inputs,
  ...tolerance,
  js: (...xs) => { wrt.forEach((i) => xs[i]!.requiresGrad_()); const y = js(...xs); y.mul(tpu.arange(y.numel()).reshape([...y.shape]).add(1).to('float32')).sum().backward(); return wrt.map((i) => xs[i]!.grad!); },
  py: `${wrt.map((i) => `x${i}.requires_grad_()`).join('\n')}\ny = ${py}\n(y * (torch.arange(y.numel()) + 1).reshape(y.shape).float()).sum().backward()\nresult = [${wrt.map((i) => `x${i}.grad`).join(', ')}]`,
});

/** gradsOf every input. */
export const grads = (name: string, inputs: TorchCase['inputs'], js: (...xs: Tensor[]) => Tensor, py: string, tolerance: { rtol?: number; atol?: number } = {}): TorchCase =>
  gradsOf(name, inputs, inputs.map((_, i) => i), js, py, tolerance);

/** Seeded float32 values uniform in [lo, hi) of a shape: the same on every run (weights for both sides). */
export function uniform(shape: readonly number[], seed: number, lo = -1, hi = 1): InputSpec {
  const rand = mulberry32(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  return { values: Array.from({ length: n }, () => lo + (hi - lo) * rand()), shape, dtype: 'float32' };
}

/** A tensor of a given shape holding 0, 1, 2, ... scaled (deterministic, exact in float32). */
export function seq(dtype: DType, shape: readonly number[], scale = 1, offset = 0): InputSpec {
  const n = shape.reduce((a, b) => a * b, 1);
  return { values: Array.from({ length: n }, (_, i) => (i + offset) * scale), shape, dtype };
}

const toWire = (v: number | boolean | bigint): Wire =>
  typeof v === 'bigint' ? String(v) : typeof v === 'boolean' ? v : Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : Object.is(v, -0) ? '-0' : v;
const fromWire = (v: Wire): number | boolean =>
  v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === '-0' ? -0 : typeof v === 'string' ? Number(v) : v;

/** A tensor made from a case's input values (int64 through a BigInt64Array: exact beyond 2^53). */
function inputTensor(s: InputSpec): Tensor {
  const made = s.dtype === 'int64'
    ? tpu.tensor(BigInt64Array.from(s.values, (v) => BigInt(v as number | bigint)))
    : tpu.tensor(s.values as number[], { dtype: s.dtype });
  return made.reshape([...s.shape]);
}

/** PyTorch's answers to every case, from one Python process. */
function torchAnswers(cases: readonly TorchCase[]): Result[] {
  const helper = fileURLToPath(new URL('./torch_reference.py', import.meta.url));
  const payload = cases.map((c) => ({ name: c.name, py: c.py, inputs: c.inputs.map((s) => ({ ...s, values: s.values.map(toWire) })) }));
  const run = spawnSync('python3', [helper], { input: JSON.stringify(payload), maxBuffer: 1 << 28, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`torch_reference.py failed (status ${run.status}, signal ${run.signal}; python3 -m pip install torch==2.13.0+cpu): ${run.stderr}`);
  return JSON.parse(run.stdout) as Result[];
}

type Mode = 'debug' | 'strict' | 'fused' | 'compile';

async function runtimeAnswer(c: TorchCase, mode: Mode): Promise<Result & { nonFinite?: boolean }> {
  // inputs are made outside the mode under test (debug mode would reject NaN inputs as they are made)
  const xs = c.inputs.map(inputTensor);
  // 'compile': the case's body traced by tpu.compile (in strict mode) and run as one program
  tpu.mode(mode === 'compile' ? 'strict' : mode);
  try {
    const out = mode === 'compile' ? tpu.compile((...as: Tensor[]) => c.js(...as) as Tensor | Tensor[])(...xs) : c.js(...xs);
    const list: readonly Tensor[] = Array.isArray(out) ? out : 'indices' in (out as object) && !('shape' in (out as object))
      ? [(out as { values: Tensor }).values, (out as { indices: Tensor }).indices] : [out as Tensor];
    const outputs = [];
    for (const t of list) outputs.push({ shape: [...t.shape], dtype: t.dtype as string, values: Array.from(await t.data() as ArrayLike<number | bigint>).map((v) => toWire(t.dtype === 'bool' ? v !== 0 : v)) });
    await tpu.sync();
    return { outputs };
  } catch (e) {
    // later failing ops of the same case may still be queued: their errors are this case's
    await tpu.sync().catch(() => undefined);
    return { error: `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`, nonFinite: (e as Error).name === 'NonFiniteError' };
  } finally {
    tpu.mode('strict');
  }
}

function compare(c: TorchCase, mode: string, want: Result, got: Result & { nonFinite?: boolean }): void {
  const where = `${c.name} (${mode}); PyTorch: ${c.py}`;
  if (want.error !== undefined) {
    expect(got.error, `${where}: PyTorch raises "${want.error}" but the runtime gave a value`).toBeDefined();
    return;
  }
  const torchNonFinite = want.outputs!.some((o) => o.values.some((v) => v === 'nan' || v === 'inf' || v === '-inf'));
  if (got.error !== undefined && mode === 'debug' && got.nonFinite && (torchNonFinite || want.nonFiniteOnTheWay)) return; // debug mode's NaN/Inf check, by design
  expect(got.error, `${where}: the runtime raised but PyTorch gave a value`).toBeUndefined();
  expect(got.outputs!.length, `${where}: number of outputs`).toBe(want.outputs!.length);
  want.outputs!.forEach((w, k) => {
    const g = got.outputs![k]!;
    expect(g.dtype, `${where}: dtype of output ${k}`).toBe(w.dtype);
    expect(g.shape, `${where}: shape of output ${k}`).toEqual(w.shape);
    const bf = w.dtype === 'bfloat16';
    const exact = w.dtype === 'int32' || w.dtype === 'int64' || w.dtype === 'bool';
    const rtol = exact ? 0 : c.rtol ?? (bf ? 1e-3 : 1e-5);
    const atol = exact ? 0 : c.atol ?? (bf ? 1e-3 : 1e-6);
    w.values.forEach((wv, i) => {
      if (w.dtype === 'int64') { // exact decimal strings on both sides
        if (g.values[i] !== wv) expect.fail(`${where}: output ${k} [${i}] is ${g.values[i]} but PyTorch gives ${wv}`);
        return;
      }
      const a = fromWire(g.values[i]!);
      const b = fromWire(wv);
      const same = typeof b === 'boolean' || typeof a === 'boolean' ? a === b
        : Number.isNaN(b) ? Number.isNaN(a)
          : !Number.isFinite(b) ? a === b
            : a === 0 && b === 0 ? Object.is(a, b) || c.signedZeros === false // the sign of zero counts, as in PyTorch
              : Math.abs(a - b) <= atol + rtol * Math.abs(b);
      if (!same) expect.fail(`${where}: output ${k} [${i}] is ${g.values[i]} but PyTorch gives ${wv}\n  runtime: ${JSON.stringify(g.values.slice(0, 16))}\n  PyTorch: ${JSON.stringify(w.values.slice(0, 16))}`);
    });
  });
}

const MODES: readonly Mode[] = ['debug', 'strict', 'fused'];

/**
 * Declares the tests of one table: one per case and mode (and under tpu.compile with
 * { compile: true }); known failures run as it.fails.
 */
export function torchTier(title: string, cases: readonly TorchCase[], options: { compile?: boolean } = {}): void {
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`torch tier: duplicate case name ${c.name}`);
    names.add(c.name);
  }
  describe(title, () => {
    let answers: Result[] = [];
    beforeAll(() => {
      answers = torchAnswers(cases);
    });
    describe.each(options.compile ? [...MODES, 'compile' as const] : MODES)('%s', (mode) => {
      cases.forEach((c, i) => {
        const known = KNOWN_FAILURES[`${c.name} @${mode}`] ?? KNOWN_FAILURES[c.name];
        const test = known === undefined ? it : it.fails;
        test(known === undefined ? c.name : `${c.name} [known failure: ${known}]`, async () => {
          compare(c, mode, answers[i]!, await runtimeAnswer(c, mode));
        });
      });
    });
  });
}
