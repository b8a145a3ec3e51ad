// Comparisons: bool results.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary, boolValued } from './elementwise.js';
import type { Operand } from './op.js';

export const gt = binary('gt', boolValued);
export const lt = binary('lt', boolValued);
export const eq = binary('eq', boolValued);

declare module '../tensor.js' {
  interface Tensor {
    gt(other: Operand): Tensor;
    lt(other: Operand): Tensor;
    eq(other: Operand): Tensor;
  }
}
Tensor.prototype.gt = function (other) { return apply(gt, [this, other], {}); };
Tensor.prototype.lt = function (other) { return apply(lt, [this, other], {}); };
Tensor.prototype.eq = function (other) { return apply(eq, [this, other], {}); };
