// Factories for elementwise primitives. The broadcast rule and the dtype rule live here
// once; an op file only says what differs (its dtype policy, its gradient).
import { isFloating, promoteOperands, promoteTypes, type DType } from '../dtype.js';
import { broadcastShapes } from '../shape.js';
import { defineOp, type GradRule, type OpDef } from './op.js';

export type NoAttrs = Record<string, never>;

/** Options of comparisons and logical ops: a bool result, no gradient. */
export const boolValued = { result: (): DType => 'bool', grad: 'not-differentiable' as const };

export interface UnaryOptions {
  /** Integer and bool inputs compute in float32 (exp, log, ...), as PyTorch does. */
  readonly promotesToFloat?: boolean;
  /** Dtypes the op refuses, with PyTorch's reason. */
  readonly rejects?: readonly DType[];
  readonly grad: GradRule<NoAttrs> | 'not-differentiable';
  readonly gradReads?: OpDef['gradReads'];
}

export function unary(name: string, o: UnaryOptions): OpDef<NoAttrs> {
  return defineOp<NoAttrs>({
    name,
    infer([x]) {
      if (o.rejects?.includes(x!.dtype)) throw new TypeError(`${name}: input of dtype ${x!.dtype} is not supported`);
      return { shape: x!.shape, dtype: o.promotesToFloat && !isFloating(x!.dtype) ? 'float32' : x!.dtype };
    },
    grad: o.grad,
    gradReads: o.gradReads,
  });
}

export interface BinaryOptions {
  /** Result dtype from the promoted operand dtype (default: the promoted dtype). */
  readonly result?: (promoted: DType) => DType;
  readonly rejects?: (a: DType, b: DType) => string | undefined;
  readonly grad: GradRule<NoAttrs> | 'not-differentiable';
  readonly gradReads?: OpDef['gradReads'];
  readonly readsSecondWhole?: boolean;
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
    grad: o.grad,
    gradReads: o.gradReads,
    readsSecondWhole: o.readsSecondWhole,
  });
}
