// The primitives whose lowerings (ONNX and StableHLO) handle int64 operands and results.
// Every other primitive refuses int64 at the call with an error naming the op, in every
// mode: a dtype some lowering would silently mishandle is never let through.
import type { Abstract } from './op.js';

const INT64_PRIMITIVES: ReadonlySet<string> = new Set([
  'constant', 'fill', 'identity', 'cast', 'reshape', 'permute', 'expand', 'slice', 'concat', 'embedSlice',
  'add', 'sub', 'mul', 'div', 'divTruncInt', 'fmod', 'pow', 'neg', 'abs', 'sign', 'maximum', 'minimum', 'where',
  'gt', 'lt', 'eq', 'ge', 'le', 'isnan', 'isinf', 'isfinite',
  'logicalAnd', 'logicalOr', 'logicalXor', 'logicalNot', 'relu',
  'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'bitwiseNot', 'bitwiseLeftShift', 'bitwiseRightShift', 'square', 'floor', 'ceil', 'round', 'trunc',
  // float results of integer inputs (the input cast to float32 first, as PyTorch)
  'exp', 'log', 'tanh', 'sqrt', 'rsqrt', 'reciprocal', 'sin', 'cos', 'sigmoid', 'erf', 'log1p', 'expm1',
  'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'atan2', 'log2', 'log10', 'xlogy', 'lgamma', 'digamma', 'trigamma', 'erfinv',
  'sum', 'prod', 'amax', 'amin', 'any', 'all', 'cumsum', 'argmax', 'argmin', 'topkValues', 'topkIndices',
  'indexSelect', 'gather', 'scatterAdd', 'scatter', 'scatterReduce', 'pad', 'trilu', 'matmul',
  // collectives move int64 values as they are; their sums wrap as int64 (device/ici/collective-step.ts)
  'all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'collective_permute', 'collective_broadcast',
]);

/** Throws when `op` meets an int64 operand or result it has no int64 lowering for. */
export function checkInt64Support(op: string, inputs: readonly Abstract[], out: Abstract): void {
  if (out.dtype !== 'int64' && !inputs.some((a) => a.dtype === 'int64')) return;
  if (INT64_PRIMITIVES.has(op)) return;
  throw new TypeError(`${op}: int64 tensors are not supported by this op yet; convert first with .to('int32') (values within int32) or .to('float32')`);
}
