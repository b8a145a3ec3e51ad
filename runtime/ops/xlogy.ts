// xlogy: a primitive, as PyTorch's, so its gradient is PyTorch's at x = 0 (log y for y > 0:
// a composition selecting 0 there gave x none); each backend lowers it by parts
// (device/composed-lowerings.ts).
import { isFloating } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { binary } from './elementwise.js';
import { gradFor } from './grad-helpers.js';
import type { Operand } from './op.js';
import { where } from './where.js';
import { promotedDType } from './float-compute.js';

/** x · log(y), 0 where x is 0 unless y is NaN; integers and bools give float32. */
export const xlogyOp = binary('xlogy', {
  result: (p) => (isFloating(p) ? p : 'float32'),
  grad: (g, [x, y]) => [
    // PyTorch's: xlogy(g, y), 0 where x is 0 and y <= 0; and g·x / y
    gradFor(x!, () => where((x as Tensor).eq(0).logicalAnd(y instanceof Tensor ? y.le(0) : +y! <= 0), 0, apply(xlogyOp, [g, y!], {}))),
    gradFor(y!, () => g.mul(x!).div(y!)),
  ],
  gradReads: 'operands',
});

/**
 * x · log(y), 0 where x is 0 unless y is NaN (torch.xlogy); either may be a JS number.
 * @example tpu.xlogy(tpu.tensor([0, 2]), tpu.tensor([0, Math.E])) // [0, 2]
 */
export function xlogy(x: Operand, y: Operand): Tensor {
  promotedDType('xlogy', ['input', 'other'], [x, y]);
  return apply(xlogyOp, [x, y], {});
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x · log(other), 0 where x is 0 (torch.xlogy).
     * @example tpu.tensor([0, 2]).xlogy(tpu.tensor([0, 1])) // [0, 0]
     */
    xlogy(other: Operand): Tensor;
  }
}
installMethods({
  xlogy(other) { return xlogy(this, other); },
});
