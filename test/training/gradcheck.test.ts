// Generic gradient check: for EVERY differentiable op of the registry, the gradient from
// backward() against central finite differences of the op's forward values, accumulated
// in float64 here. An op without a case below fails the test, so new ops must add one.
import { afterAll, describe, expect, it } from 'vitest';
import { tpu, ops, addApplyHook, Tensor } from 'tpu-kernel/runtime';
import { seededValues } from '../support/reference.js';
import { GRAD_CASES, type GradCase, type InputSpec } from './grad-cases.js';

/** Ops whose gradient is a clear error (not implemented): backward through them must throw it. */
const GRADIENT_IS_AN_ERROR: Record<string, { backward: () => void; error: RegExp }> = {
  trigamma: { backward: () => tpu.tensor([0.5], { requiresGrad: true }).polygamma(1).sum().backward(), error: /needs polygamma\(2, x\), which is not implemented/ },
};
const differentiable = ops.registeredOps().filter((op) => op.grad !== 'not-differentiable' && !(op.name in GRADIENT_IS_AN_ERROR)).map((op) => op.name);

function inputValues(spec: InputSpec, seed: number): number[] {
  if (spec.values) return spec.values;
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const [lo, hi] = spec.range ?? [-2, 2];
  // Kinks (relu, abs, max ties) are kept at least 0.05 away from every sample.
  return seededValues(n, seed, lo, hi).map((v) => (spec.awayFromZero && Math.abs(v) < 0.05 ? v + 0.3 : v));
}

function makeInput(spec: InputSpec, values: readonly number[]): Tensor {
  const dtype = spec.dtype ?? 'float32';
  const flat = dtype === 'int32' ? tpu.tensor(Int32Array.from(values)) : tpu.tensor(Float32Array.from(values), { dtype });
  return flat.reshape([...spec.shape]);
}

function forward(c: GradCase, values: readonly number[][]): Float32Array {
  return tpu.scope(() => Float32Array.from(c.call(...c.inputs.map((s, i) => makeInput(s, values[i]!))).dataSync()));
}

/** Σ_k w_k y_k in float64. */
const weighted = (y: ArrayLike<number>, w: readonly number[]) => w.reduce((s, wk, k) => s + wk * y[k]!, 0);

function check(opName: string, c: GradCase, seed: number): void {
  const values = c.inputs.map((s, i) => inputValues(s, seed + 17 * i));
  const probe = tpu.scope(() => c.call(...c.inputs.map((s, i) => makeInput(s, values[i]!))));
  const w = seededValues(probe.numel(), seed + 99, -1, 1).map(Math.fround);
  const outShape = [...probe.shape];
  probe.dispose();

  // backward with seed gradient w
  const seen = new Set<string>();
  const stop = addApplyHook((op) => seen.add(op.name));
  const leaves = c.inputs.map((s, i) => {
    const t = makeInput(s, values[i]!);
    return s.dtype === 'int32' || s.noGrad ? t : t.requiresGrad_();
  });
  const y = c.call(...leaves);
  stop();
  expect(seen.has(opName), `the case for '${opName}' does not call it (called: ${[...seen].join(', ')})`).toBe(true);
  y.backward(tpu.tensor(Float32Array.from(w)).reshape(outShape).to(y.dtype));

  const h = c.step ?? 1e-2;
  c.inputs.forEach((spec, i) => {
    if (spec.dtype === 'int32' || spec.noGrad) return;
    // No gradient at all (only non-differentiable uses) must mean zero finite differences.
    const g = leaves[i]!.grad;
    const got = g ? g.dataSync() : new Float32Array(values[i]!.length);
    for (let j = 0; j < values[i]!.length; j++) {
      const plus = values.map((v) => [...v]);
      const minus = values.map((v) => [...v]);
      plus[i]![j] = Math.fround(values[i]![j]! + h);
      minus[i]![j] = Math.fround(values[i]![j]! - h);
      const fd = (weighted(forward(c, plus), w) - weighted(forward(c, minus), w)) / (plus[i]![j]! - minus[i]![j]!);
      const tol = (c.atol ?? 2e-3) + (c.rtol ?? 1e-2) * Math.abs(fd);
      if (!(Math.abs(got[j]! - fd) <= tol)) {
        throw new Error(`${opName} (${c.label ?? 'case'}): d/d input ${i}[${j}]: backward ${got[j]}, finite differences ${fd}`);
      }
    }
  });
  for (const t of [...leaves, y]) t.dispose();
}

describe('gradient check of every differentiable op (central finite differences)', () => {
  afterAll(() => tpu.mode('strict'));

  it('every differentiable op in the registry has a gradient check case', () => {
    const missing = differentiable.filter((name) => !GRAD_CASES[name]?.length);
    expect(missing, 'add a case to test/training/grad-cases.ts').toEqual([]);
  });

  for (const [name, { backward, error }] of Object.entries(GRADIENT_IS_AN_ERROR)) {
    it(`${name}: its gradient is a clear error`, () => expect(backward).toThrow(error));
  }

  for (const name of differentiable) {
    it(`${name}`, () => {
      tpu.mode('strict');
      const cases = GRAD_CASES[name];
      if (!cases?.length) throw new Error(`no gradient check case for op '${name}' in test/training/grad-cases.ts`);
      cases.forEach((c, k) => check(name, c, 1000 + 31 * k));
    });
  }
});
