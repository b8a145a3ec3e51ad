// floor ceil round trunc: integer inputs are returned as they are (PyTorch); round is
// half-to-even like torch.round. Their gradient is zero almost everywhere.
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import type { OnnxGraph } from '../device/onnx/onnx-graph.js';
import { unary } from './elementwise.js';
import { zerosLike } from './like.js';

function rounding(name: string, lowerFloat: (g: OnnxGraph, x: string) => string) {
  return unary(name, {
    rejects: ['bool'],
    lower: (g, x, dtype) => (dtype === 'int32' ? g.node('Identity', [x]) : lowerFloat(g, x)),
    grad: (grad) => [zerosLike(grad)],
  });
}

export const floor = rounding('floor', (g, x) => g.node('Floor', [x]));
export const ceil = rounding('ceil', (g, x) => g.node('Ceil', [x]));
export const round = rounding('round', (g, x) => g.node('Round', [x]));
export const trunc = rounding('trunc', (g, x) =>
  g.node('Where', [g.node('Less', [x, g.constant('float32', [], [0])]), g.node('Ceil', [x]), g.node('Floor', [x])]),
);

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
