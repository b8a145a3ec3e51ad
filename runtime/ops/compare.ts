// Comparisons: bool results, operands compared in their promoted dtype.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { binary } from './elementwise.js';
import type { Operand } from './op.js';
import type { DType } from '../dtype.js';

const boolResult = {
  result: (): DType => 'bool',
  compute: (promoted: DType): DType => (promoted === 'bool' ? 'int32' : promoted),
};

export const gt = binary('gt', { onnx: 'Greater', ...boolResult, grad: 'not-differentiable' });
export const lt = binary('lt', { onnx: 'Less', ...boolResult, grad: 'not-differentiable' });
export const eq = binary('eq', { onnx: 'Equal', ...boolResult, grad: 'not-differentiable' });

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
