// Values made inside a program, with no upload: `constant` bakes small host-computed data
// (index tables, the 0.5 of gelu) into the program, where ONNX Runtime's optimizer sees it
// as an initializer; `fill` broadcasts a scalar fed at run time (zerosLike, fullLike).
import { assertDType, type DType } from '../dtype.js';
import { checkShape, formatShape, numel, type Shape } from '../shape.js';
import { apply, applyOnChip } from '../modes/dispatch.js';
import type { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { numberValue } from '../jit/live-number.js';

export interface ConstantAttrs {
  readonly shape: Shape;
  readonly dtype: DType;
  readonly values: readonly number[];
}

export const constant = defineOp<ConstantAttrs>({
  name: 'constant',
  infer: (_inputs, { shape, dtype }) => ({ shape, dtype }),
  grad: () => [],
});

/** A tensor of host-computed values baked into the program (part of its cache key: keep it small). */
export function constantTensor(values: readonly number[], shape: Shape, dtype: DType): Tensor {
  if (values.length !== numel(shape)) throw new RangeError(`constant: ${values.length} values do not fill shape ${formatShape(shape)}`);
  return apply(constant, [], { shape: [...shape], dtype, values: [...values] });
}

/** A 0-d constant: for the fixed numbers of composed ops (never for user values). */
export function scalarConstant(value: number, dtype: DType): Tensor {
  return constantTensor([value], [], dtype);
}

export const fill = defineOp<{ shape: Shape; dtype: DType }>({
  name: 'fill',
  infer: (_inputs, { shape, dtype }) => ({ shape, dtype }),
  grad: () => [null],
});

/** A tensor of `shape` filled on the device (chip 0 unless given) with `value` (a run-time scalar: no recompile per value). */
export function filled(op: string, shape: readonly number[], value: number | boolean, dtype: DType, chip = 0): Tensor {
  checkShape(op, shape);
  assertDType(dtype, op);
  // a live number (a tpu.compile argument) stays a program input, read at each call
  const given = numberValue(value);
  if (typeof given !== 'number' && typeof given !== 'boolean') throw new TypeError(`${op}: value must be a number or a boolean; got ${typeof given}`);
  return applyOnChip(chip, fill, [value], { shape: [...shape], dtype });
}
