// The dtype a binary primitive's operands are cast to before its op, on every backend (the
// compute rule each lowering of add, mul, lt, ... is given): one answer for ONNX and StableHLO.
import { promoteOperands, readsSecondWhole, type DType } from '../dtype.js';
import type { Abstract } from '../ops/op.js';

export type ComputeDType = (inputs: readonly Abstract[], result: DType) => DType;

/** Arithmetic: in the result's dtype, bool as int32. */
export const inResult: ComputeDType = (_inputs, result) => (result === 'bool' ? 'int32' : result);

/** mul and div: in float32 when a bfloat16 result reads its second operand unrounded (dtype.ts readsSecondWhole). */
export const secondWhole: ComputeDType = (inputs, result) => (readsSecondWhole(inputs[1]!, result) ? 'float32' : inResult(inputs, result));

/**
 * Comparisons: in the operands' common dtype, PyTorch's promotion with its rule for 0-d
 * operands (a bfloat16 tensor meets a 0-d float32 one in bfloat16).
 */
export const inCommon: ComputeDType = ([a, b]) => promoteOperands(a!, b!);
