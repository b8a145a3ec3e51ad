// Elementwise primitives of two operands, and where: both operands converted to one
// dtype and broadcast to the result's shape, one StableHLO op, the result converted back.
import type { DType } from '../../../dtype.js';
import { inCommon, inResult, secondWhole, type ComputeDType } from '../../binary-compute-dtype.js';
import { broadcastTo, compare, convert, select, type Direction } from './hlo.js';
import { stablehloLowerings, type StableHloLowering } from './table.js';

type Combine = (fn: Parameters<StableHloLowering>[0]['fn'], a: string, b: string) => string;

/** `compute`: the dtype both operands are converted to, from their types and the result's. */
function binaryLowering(combine: Combine, compute: ComputeDType = inResult): StableHloLowering {
  return ({ fn }, [a, b], _attrs, types) => {
    const result = types.output.dtype;
    const dtype = compute(types.inputs, result);
    const shape = types.output.shape;
    const out = combine(fn, broadcastTo(fn, convert(fn, a!, dtype), shape), broadcastTo(fn, convert(fn, b!, dtype), shape));
    return convert(fn, out, result);
  };
}

const op = (name: string): Combine => (fn, a, b) => fn.op(`stablehlo.${name}`, [a, b], fn.typeOf(a));
const comparison = (direction: Direction): Combine => (fn, a, b) => compare(fn, a, b, direction);
/**
 * NaN-propagating, as PyTorch's maximum/minimum; on a tie the first operand, as PyTorch
 * (maximum(-0, 0) is -0; XLA's own op orders -0 below +0).
 */
const extremum = (name: 'maximum' | 'minimum'): Combine => (fn, a, b) => select(fn, compare(fn, a, b, 'EQ'), a, op(name)(fn, a, b));

/** Logical ops read operands as truth values (non-zero is true). */
const asTruthValues = (): DType => 'bool';

stablehloLowerings.register({
  add: binaryLowering(op('add')),
  sub: binaryLowering(op('subtract')),
  mul: binaryLowering(op('multiply'), secondWhole),
  div: binaryLowering(op('divide'), secondWhole),
  pow: binaryLowering(op('power')),
  atan2: binaryLowering(op('atan2')),
  // C's remainder (the dividend's sign) and integer division toward zero. XLA defines x / 0
  // (-1) and x % 0 (x) instead of failing, as the ONNX backend does.
  fmod: binaryLowering(op('remainder')),
  divTruncInt: binaryLowering(op('divide')),
  maximum: binaryLowering(extremum('maximum')),
  minimum: binaryLowering(extremum('minimum')),
  gt: binaryLowering(comparison('GT'), inCommon),
  lt: binaryLowering(comparison('LT'), inCommon),
  eq: binaryLowering(comparison('EQ'), inCommon),
  ge: binaryLowering(comparison('GE'), inCommon),
  le: binaryLowering(comparison('LE'), inCommon),
  logicalAnd: binaryLowering(op('and'), asTruthValues),
  logicalOr: binaryLowering(op('or'), asTruthValues),
  logicalXor: binaryLowering(op('xor'), asTruthValues),
  where({ fn }, [c, x, y], _attrs, types) {
    const { shape, dtype } = types.output;
    const pick = (v: string) => broadcastTo(fn, convert(fn, v, dtype), shape);
    return select(fn, broadcastTo(fn, c!, shape), pick(x!), pick(y!));
  },
});
