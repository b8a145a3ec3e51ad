// Factories for elementwise primitives. The broadcast rule and the dtype rule live here
// once; an op file only says what differs (its ONNX op, its dtype policy, its gradient).
import { isFloating, promoteOperands, promoteTypes, type DType } from '../dtype.js';
import { broadcastShapes } from '../shape.js';
import type { OnnxGraph } from '../device/onnx/onnx-graph.js';
import { defineOp, type GradRule, type OpDef } from './op.js';

export type NoAttrs = Record<string, never>;

export interface UnaryOptions {
  /** Integer and bool inputs compute in float32 (exp, log, ...), as PyTorch does. */
  readonly promotesToFloat?: boolean;
  /** Dtypes the op refuses, with PyTorch's reason. */
  readonly rejects?: readonly DType[];
  readonly lower: (graph: OnnxGraph, x: string, dtype: DType) => string;
  readonly grad: GradRule<NoAttrs> | 'not-differentiable';
}

export function unary(name: string, o: UnaryOptions): OpDef<NoAttrs> {
  return defineOp<NoAttrs>({
    name,
    infer([x]) {
      if (o.rejects?.includes(x!.dtype)) throw new TypeError(`${name}: input of dtype ${x!.dtype} is not supported`);
      return { shape: x!.shape, dtype: o.promotesToFloat && !isFloating(x!.dtype) ? 'float32' : x!.dtype };
    },
    lower(ctx, [x], _attrs, types) {
      const dtype = types.output.dtype;
      return o.lower(ctx.graph, ctx.cast(x!, types.inputs[0]!.dtype, dtype), dtype);
    },
    grad: o.grad,
  });
}

export interface BinaryOptions {
  /** The ONNX op applied to both operands cast to the compute dtype. */
  readonly onnx: string;
  /** Result dtype from the promoted operand dtype (default: the promoted dtype). */
  readonly result?: (promoted: DType) => DType;
  /** Dtype both operands are cast to before the op (default: the result; bool computes as int32). */
  readonly compute?: (promoted: DType, result: DType) => DType;
  readonly rejects?: (a: DType, b: DType) => string | undefined;
  readonly grad: GradRule<NoAttrs> | 'not-differentiable';
}

export function binary(name: string, o: BinaryOptions): OpDef<NoAttrs> {
  return defineOp<NoAttrs>({
    name,
    infer([a, b]) {
      const why = o.rejects?.(a!.dtype, b!.dtype);
      if (why) throw new TypeError(`${name}: ${why} (input ${a!.dtype}, other ${b!.dtype})`);
      const promoted = promoteOperands(a!, b!);
      return { shape: broadcastShapes(name, a!.shape, b!.shape), dtype: o.result ? o.result(promoted) : promoted };
    },
    lower(ctx, [a, b], _attrs, types) {
      const [ta, tb] = types.inputs;
      const promoted = promoteTypes(ta!.dtype, tb!.dtype);
      const result = types.output.dtype;
      const compute = o.compute ? o.compute(promoted, result) : result === 'bool' ? 'int32' : result;
      const out = ctx.graph.node(o.onnx, [ctx.cast(a!, ta!.dtype, compute), ctx.cast(b!, tb!.dtype, compute)]);
      return ctx.cast(out, compute, result);
    },
    grad: o.grad,
  });
}
