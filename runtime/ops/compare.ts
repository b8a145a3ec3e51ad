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
    gt(other: Operand): Tensor;
    lt(other: Operand): Tensor;
    eq(other: Operand): Tensor;
  }
}
installMethods({
  gt(other) { return apply(gt, [this, other], {}); },
  lt(other) { return apply(lt, [this, other], {}); },
  eq(other) { return apply(eq, [this, other], {}); },
});
