// The op definition framework: every primitive is ONE object holding its backend-neutral
// rules (shape/dtype, gradient), so a primitive without either is a type error. Lowerings
// live with each backend, keyed by the primitive's name (device/onnx/lowerings/).
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import type { LiveNumber } from '../jit/live-number.js';
import type { Primitive } from '../primitive.js';

/** What a shape/dtype rule sees of each operand: scalars appear as 0-d values. */
export interface Abstract {
  readonly shape: Shape;
  readonly dtype: DType;
}

/**
 * An operand of an op call: a tensor or a JS scalar (a "weak" scalar, as in PyTorch), possibly
 * a live number (re-read on each tpu.compile replay).
 */
export type Operand = Tensor | number | boolean | LiveNumber;

/**
 * A gradient rule is data about the op: it builds the input gradients out of other ops
 * (never a custom kernel), so the backward pass is dispatched, traced and fused like any
 * forward op. Return null for inputs that get no gradient (scalars, integer inputs).
 */
export type GradRule<A> = (
  grad: Tensor,
  inputs: readonly Operand[],
  output: Tensor,
  attrs: A,
) => readonly (Tensor | null)[];

/** The indices of the operands a gradient rule reads, given the operands it was recorded with. */
export type GradReadsOperands = (operands: readonly Operand[]) => readonly number[];

export interface OpDef<A = Record<string, never>> extends Primitive<A> {
  /** Host-side rule: output shape and dtype; throws naming the op, the argument and the shapes. */
  readonly infer: (inputs: readonly Abstract[], attrs: A) => Abstract;
  /** Gradient rule, or 'not-differentiable' said explicitly. */
  readonly grad: GradRule<A> | 'not-differentiable';
  /**
   * The values its gradient rule reads besides the incoming gradient (shapes and dtypes are
   * always there): its operands and its output (the default), its operands only, its output
   * only (exp), none (add), or the indices of the operands it reads given the recorded
   * operands (mul reads b only when a requires grad). Strict mode's one program of a composed
   * op writes out only the intermediates a rule reads: each is an output, a buffer and a
   * handle per call (W6's crossEntropy wrote 15 where its backward read 6).
   */
  readonly gradReads?: 'operands' | 'none' | 'output' | GradReadsOperands;
  /** Dispatch emits the profiler's `matmul` event with its operands (the padding warning reads them). */
  readonly profilesAsMatmul?: boolean;
  /**
   * mul and div: a bfloat16 result reads a second operand of one value unrounded (dtype.ts
   * readsSecondWhole), so a JS number there is fed in float32, not rounded to bfloat16.
   */
  readonly readsSecondWhole?: boolean;
  /**
   * Its JS number operands are element positions (slice's row starts): fed as int32 whatever
   * the tensor's dtype, so one program serves every position.
   */
  readonly positionScalars?: boolean;
}

const registry = new Map<string, OpDef<any>>();

export function defineOp<A = Record<string, never>>(def: OpDef<A>): OpDef<A> {
  if (registry.has(def.name)) throw new Error(`defineOp: an op named '${def.name}' is already defined`);
  // One shape for every op (its fields first, in one order, then any others): dispatch reads
  // op.name, op.infer, op.grad ... at every call, and an object literal per kind of op (their
  // fields in their own order) made those reads megamorphic.
  const op: OpDef<A> = Object.assign({
    name: def.name, infer: def.infer, grad: def.grad, attrKey: def.attrKey, gradReads: def.gradReads,
    profilesAsMatmul: def.profilesAsMatmul, readsDeviceIndices: def.readsDeviceIndices, readsSecondWhole: def.readsSecondWhole,
    positionScalars: def.positionScalars,
  }, def);
  registry.set(op.name, op);
  return op;
}

/** Every registered op (the gradient check and the lowering coverage test iterate it). */
export function registeredOps(): OpDef<any>[] {
  return [...registry.values()];
}
