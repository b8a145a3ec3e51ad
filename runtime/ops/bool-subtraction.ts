// PyTorch refuses a bool operand of sub, a bool tensor and a Python bool alike. The sub
// primitive refuses bool tensors by dtype; a JS boolean reaches it as a weak scalar of the
// other operand's dtype, so the sub method and tpu.sub refuse it here, by value.
export const BOOL_SUBTRACTION = "subtraction with a bool tensor is not supported (as in PyTorch); use logicalNot()/logicalXor() for masks, or cast first with .to('int64')";

/** Throws when `v`, the operand `arg` of `op`, is a JS boolean. */
export function rejectBoolSubtrahend(op: string, v: unknown, arg = 'other'): void {
  if (typeof v === 'boolean') throw new TypeError(`${op}: ${BOOL_SUBTRACTION}; got ${arg} ${v}`);
}
