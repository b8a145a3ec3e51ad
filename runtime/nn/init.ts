// Parameter initialization (PyTorch's defaults), from the tpu.manualSeed generator.
// Parameters are materialized at once: a recipe would be recomputed by every program.
import type { DType } from '../dtype.js';
import { full, rand, randn } from '../creation.js';
import { noGrad } from '../autograd/grad-mode.js';
import { materialize } from '../modes/materialize.js';
import type { Tensor } from '../tensor.js';

/** A leaf parameter uniform in [-bound, bound). */
export function uniformParameter(shape: number[], bound: number, dtype: DType): Tensor {
  const t = noGrad(() => rand(shape).mul(2 * bound).sub(bound).to(dtype));
  materialize(t, 'parameter initialization');
  return t.requiresGrad_();
}

/** A leaf parameter ~ N(0, std²). */
export function normalParameter(shape: number[], dtype: DType, std = 1): Tensor {
  if (std === 1) return randn(shape, { dtype }).requiresGrad_();
  const t = noGrad(() => randn(shape).mul(std).to(dtype));
  materialize(t, 'parameter initialization');
  return t.requiresGrad_();
}

export function constantParameter(shape: number[], value: number, dtype: DType): Tensor {
  return full(shape, value, { dtype }).requiresGrad_();
}
