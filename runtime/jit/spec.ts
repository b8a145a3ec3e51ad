// tpu.spec(shape, dtype): a placeholder argument for ahead-of-time lowering (JAX's
// ShapeDtypeStruct). Lowering traces with a tensor over a placeholder buffer that the memory
// account never sees, so a model far larger than this machine's memory lowers and compiles
// without allocating anything.
import { assertDType, type DType } from '../dtype.js';
import { checkShape, formatShape, type Shape } from '../shape.js';
import { DeviceBuffer } from '../device/memory.js';
import { Tensor } from '../tensor.js';
import { isPlainObject } from '../plain-object.js';
import { readOptions } from '../options.js';
import { checkChip } from '../creation-options.js';

export class Spec {
  constructor(readonly shape: Shape, readonly dtype: DType, readonly chip = 0) {}

  toString(): string {
    return `spec(${formatShape(this.shape)} ${this.dtype})`;
  }
}

/**
 * A placeholder argument for `tpu.compile(fn).lower(...)`: a shape and dtype with no memory
 * (jax.ShapeDtypeStruct), so a model far larger than this machine lowers and compiles.
 * @example await tpu.compile((a: Tensor) => a.matmul(a)).lower(tpu.spec([8192, 8192], 'bfloat16')).compile({ topology: 'v5p:2x2x1' })
 */
export function spec(shape: readonly number[], dtype: DType = 'float32', opts?: { chip?: number }): Spec {
  const o = readOptions<{ chip: number }>('tpu.spec', opts, ['chip']);
  return new Spec(checkShape('tpu.spec', shape), assertDType(dtype, 'tpu.spec'), o.chip === undefined ? 0 : checkChip('tpu.spec', o.chip));
}

/** A tensor over a placeholder buffer: no device memory, never materialized, never freed. */
function placeholder(s: Spec): Tensor {
  const t = new Tensor(null, s.shape, s.dtype, s.chip);
  const buffer = new DeviceBuffer(-1, s.dtype, s.shape, 0, 'tpu.spec', s.chip);
  // Pinned for good: a dispose() inside the traced body never reaches the memory account.
  buffer.pins = 1;
  t._buf = buffer;
  return t;
}

/** The arguments with each Spec (anywhere in arrays and plain objects) replaced by a placeholder tensor. */
export function withPlaceholders(args: readonly unknown[]): { args: unknown[]; placeholders: Set<Tensor> } {
  const placeholders = new Set<Tensor>();
  const swap = (v: unknown): unknown => {
    if (v instanceof Spec) {
      const t = placeholder(v);
      placeholders.add(t);
      return t;
    }
    if (Array.isArray(v)) return v.map(swap);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  return { args: args.map(swap), placeholders };
}
