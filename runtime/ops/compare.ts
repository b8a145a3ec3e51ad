// Comparisons: bool results.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
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
    gt(other: Operand): BoolTensor;
    /**
     * x < other, elementwise, as a bool tensor (cells rewrite `<`).
     * @example x.lt(0)
     */
    lt(other: Operand): BoolTensor;
    /**
     * x == other, elementwise, as a bool tensor (torch.eq).
     * @example x.eq(y)
     */
    eq(other: Operand): BoolTensor;
  }
}
installMethods({
  gt(other) { return asBoolTensor(apply(gt, [this, other], {})); },
  lt(other) { return asBoolTensor(apply(lt, [this, other], {})); },
  eq(other) { return asBoolTensor(apply(eq, [this, other], {})); },
});
