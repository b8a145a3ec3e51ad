// where(condition, input, other): the one ternary primitive; maskedFill is built on it.
import { promoteOperands } from '../dtype.js';
import { broadcastShapes, formatShape, shapesEqual } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type Operand } from './op.js';
import { gradFor } from './grad-helpers.js';
import { installMethods } from '../install-methods.js';
import { rowMajor } from '../views/result-layout.js';
import { tensorArg } from './tensor-arg.js';
import { nonzeroColumns } from './nonzero.js';

export const whereOp = defineOp({
  name: 'where',
  infer([c, x, y]) {
    if (c!.dtype !== 'bool') throw new TypeError(`where: condition must be a bool tensor; got ${c!.dtype}`);
    const shape = broadcastShapes('where', broadcastShapes('where', c!.shape, x!.shape), y!.shape);
    return { shape, dtype: promoteOperands(x!, y!) };
  },
  // zeros as a scalar operand, not a zeros tensor: one op less in each backward program
  grad: (g, [c, x, y]) => [null, gradFor(x!, () => where(c as Tensor, g, 0)), gradFor(y!, () => where(c as Tensor, 0, g))],
  gradReads: () => CONDITION,
});
const CONDITION = [0];

/**
 * Elements of input where condition is true, else of other (numbers allowed for both). With
 * the condition alone, torch.where(condition): the indices of its nonzero values, one 1-D int64
 * tensor per dim (nonzero(condition, { asTuple: true }): a sync).
 * @example tpu.where(tpu.tensor([true, false]), 1, -1) // [1, -1]
 * @example tpu.where(tpu.tensor([0, 2, 3])) // [[1, 2]]
 */
export function where(condition: Tensor): Tensor[];
export function where(condition: Tensor, input: Operand, other: Operand): Tensor;
export function where(condition: Tensor, input?: Operand, other?: Operand): Tensor | Tensor[] {
  if (input === undefined && other === undefined) return nonzeroColumns(tensorArg('where', 'condition', condition));
  if (!(condition instanceof Tensor)) throw new TypeError(`where: condition must be a bool tensor; got ${typeof condition}`);
  if (input === undefined || other === undefined) {
    throw new TypeError(`where: expected where(condition, input, other), or where(condition) for the indices of its nonzero values; got no ${input === undefined ? 'input' : 'other'}`);
  }
  return apply(whereOp, [condition, input, other], {});
}

/**
 * input with `value` where mask is true (mask broadcasts to input).
 * @example tpu.maskedFill(tpu.tensor([1, 2]), tpu.tensor([false, true]), 0) // [1, 0]
 */
export function maskedFill(x: Tensor, mask: Tensor, value: Operand): Tensor {
  tensorArg('maskedFill', 'input', x);
  if (!(mask instanceof Tensor) || mask.dtype !== 'bool') {
    throw new TypeError(`maskedFill: mask must be a bool tensor; got ${mask instanceof Tensor ? mask.dtype : typeof mask}`);
  }
  const joint = broadcastShapes('maskedFill', x.shape, mask.shape);
  if (!shapesEqual(joint, x.shape)) {
    throw new RangeError(`maskedFill: mask ${formatShape(mask.shape)} must broadcast to the input's shape ${formatShape(x.shape)}`);
  }
  const out = where(mask, value, x);
  // PyTorch fills a row-major clone of x
  return rowMajor(out.dtype === x.dtype ? out : out.to(x.dtype));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x.where(condition, other): x where condition holds, else other (torch.Tensor.where).
     * @example tpu.tensor([1, 2, 3]).where(tpu.tensor([true, false, true]), 0) // [1, 0, 3]
     */
    where(condition: Tensor, other: Operand): Tensor;
    /**
     * value where mask is true, x elsewhere (torch.masked_fill).
     * @example scores.maskedFill(mask, -Infinity)
     */
    maskedFill(mask: Tensor, value: Operand): Tensor;
  }
}
installMethods({
  where(condition, other) { return where(condition, this, other); },
  maskedFill(mask, value) { return maskedFill(this, mask, value); },
});
