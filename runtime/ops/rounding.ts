// floor ceil round trunc: integer inputs are returned as they are (PyTorch); round is
// half-to-even like torch.round. Their gradient is zero almost everywhere.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { unary } from './elementwise.js';
import { zerosLike } from './like.js';

function rounding(name: string) {
  return unary(name, {
    rejects: ['bool'],
    grad: (grad) => [zerosLike(grad)],
  });
}

export const floor = rounding('floor');
export const ceil = rounding('ceil');
export const round = rounding('round');
export const trunc = rounding('trunc');

declare module '../tensor.js' {
  interface Tensor {
    floor(): Tensor;
    ceil(): Tensor;
    round(): Tensor;
    trunc(): Tensor;
  }
}
for (const op of [floor, ceil, round, trunc]) {
  (Tensor.prototype as unknown as Record<string, () => Tensor>)[op.name] = function (this: Tensor) {
    return apply(op, [this], {});
  };
}
