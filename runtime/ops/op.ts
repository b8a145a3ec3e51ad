// The op definition framework: every primitive is ONE object holding all its rules, so a
// primitive without a shape rule, a lowering or a gradient rule is a type error.
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';
import type { OnnxGraph } from '../device/onnx/onnx-graph.js';
import type { Tensor } from '../tensor.js';
import type { LiveNumber } from '../compile/live-number.js';
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

/** Context handed to a lowering: the graph plus helpers that keep dtype semantics in one place. */
export interface LowerContext {
  readonly graph: OnnxGraph;
  /** Casts a value between dtypes (values are held in their compute type: bfloat16 as float32). */
  cast(value: string, from: DType, to: DType): string;
}

/** Shapes and dtypes of one node, as inferred on the host. */
export interface NodeTypes {
  readonly inputs: readonly Abstract[];
  readonly output: Abstract;
}

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

export interface OpDef<A = Record<string, never>> extends Primitive<A> {
  /** Host-side rule: output shape and dtype; throws naming the op, the argument and the shapes. */
  readonly infer: (inputs: readonly Abstract[], attrs: A) => Abstract;
  /** Lowering to an ONNX subgraph; inputs arrive in their compute types; returns the output. */
  readonly lower: (ctx: LowerContext, inputs: readonly string[], attrs: A, types: NodeTypes) => string;
  /** Gradient rule, or 'not-differentiable' said explicitly. */
  readonly grad: GradRule<A> | 'not-differentiable';
  /** Dispatch emits the profiler's `matmul` event with its operands (the padding warning reads them). */
  readonly profilesAsMatmul?: boolean;
}

const registry = new Map<string, OpDef<any>>();

export function defineOp<A = Record<string, never>>(def: OpDef<A>): OpDef<A> {
  if (registry.has(def.name)) throw new Error(`defineOp: an op named '${def.name}' is already defined`);
  registry.set(def.name, def);
  return def;
}

/** Looks an op up by name (the device thread lowers programs it receives by op name). */
export function opByName(name: string): OpDef<any> {
  const op = registry.get(name);
  if (!op) throw new Error(`unknown op '${name}'`);
  return op;
}

/** Every registered op (the gradient check iterates it). */
export function registeredOps(): OpDef<any>[] {
  return [...registry.values()];
}
