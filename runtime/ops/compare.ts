// Comparisons: bool results.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary, boolValued } from './elementwise.js';
import type { Operand } from './op.js';
import { installMethods } from '../install-methods.js';

export const gt = binary('gt', boolValued);
export const lt = binary('lt', boolValued);
export const eq = binary('eq', boolValued);

declare module '../tensor.js' {
  interface Tensor {
    /**
     * x > other, elementwise, as a bool tensor (cells rewrite `>`).
     * @example x.gt(0)
     */
    gt(other: Operand): Tensor;
    /**
     * x < other, elementwise, as a bool tensor (cells rewrite `<`).
     * @example x.lt(0)
     */
    lt(other: Operand): Tensor;
    /**
     * x == other, elementwise, as a bool tensor (torch.eq).
     * @example x.eq(y)
     */
    eq(other: Operand): Tensor;
  }
}
installMethods({
  gt(other) { return apply(gt, [this, other], {}); },
  lt(other) { return apply(lt, [this, other], {}); },
  eq(other) { return apply(eq, [this, other], {}); },
});
