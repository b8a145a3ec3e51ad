// Bitwise primitives of integer and bool tensors: StableHLO's and/or/xor/not take both
// (i1 for bools). Counts out of range are mapped explicitly to PyTorch's answers (0 to the
// left, the sign to the right) rather than left to each compiler's reading of the spec.
import type { MlirFunction } from '../mlir-function.js';
import { broadcastTo, compare, convert, same, select, splat } from './hlo.js';
import { stablehloLowerings, type StableHloLowering } from './table.js';

type Combine = (fn: MlirFunction, a: string, b: string) => string;

/** Both operands converted to the result's dtype and broadcast to its shape. */
const binaryLowering = (combine: Combine): StableHloLowering => ({ fn }, [a, b], _attrs, types) => {
  const { shape, dtype } = types.output;
  return combine(fn, broadcastTo(fn, convert(fn, a!, dtype), shape), broadcastTo(fn, convert(fn, b!, dtype), shape));
};

const like = (fn: MlirFunction, x: string, value: number) => splat(fn, value, fn.typeOf(x).shape, fn.typeOf(x).element);
const width = (fn: MlirFunction, x: string) => (fn.typeOf(x).element === 'i64' ? 64 : 32);
const outOfRange = (fn: MlirFunction, n: string) =>
  same(fn, 'or', compare(fn, n, like(fn, n, 0), 'LT'), compare(fn, n, like(fn, n, width(fn, n)), 'GE'));

stablehloLowerings.register({
  bitwiseAnd: binaryLowering((fn, a, b) => same(fn, 'and', a, b)),
  bitwiseOr: binaryLowering((fn, a, b) => same(fn, 'or', a, b)),
  bitwiseXor: binaryLowering((fn, a, b) => same(fn, 'xor', a, b)),
  bitwiseLeftShift: binaryLowering((fn, x, n) => select(fn, outOfRange(fn, n), like(fn, x, 0), same(fn, 'shift_left', x, n))),
  bitwiseRightShift: binaryLowering((fn, x, n) =>
    same(fn, 'shift_right_arithmetic', x, select(fn, outOfRange(fn, n), like(fn, n, width(fn, n) - 1), n))),
  bitwiseNot: ({ fn }, [x]) => same(fn, 'not', x!),
});
