// Objects made of tensors (a DTensor: one piece per chip, and a layout) that tpu.scope keeps
// whole when returned, and that tpu.compile takes apart and builds again as it does arrays:
// the object names its tensors, a key for compile's signature (its layout), and how to build
// the same kind of object from new tensors.
import type { Tensor } from './tensor.js';

export const TENSOR_PARTS = Symbol.for('tpu-kernel.tensorParts');

export interface TensorParts {
  readonly tensors: readonly Tensor[];
  /** What, besides the tensors' shapes and dtypes, makes a compiled function trace again. */
  readonly key: string;
  rebuild(tensors: readonly Tensor[]): unknown;
}

export function tensorPartsOf(v: unknown): TensorParts | null {
  if (v === null || typeof v !== 'object') return null;
  const parts = (v as { [TENSOR_PARTS]?: unknown })[TENSOR_PARTS];
  return typeof parts === 'function' ? (parts.call(v) as TensorParts) : null;
}
