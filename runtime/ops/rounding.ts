// floor ceil round trunc: integer inputs are returned as they are (PyTorch); round is
// half-to-even like torch.round. Their gradient is zero almost everywhere.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { unary } from './elementwise.js';
import { zerosLike } from './like.js';
import { installMethods } from '../install-methods.js';

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
installMethods(Object.fromEntries([floor, ceil, round, trunc].map((op) => [op.name, function (this: Tensor) { return apply(op, [this], {}); }])));
