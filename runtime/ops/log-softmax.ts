// logSoftmax of float32 as one primitive, as PyTorch's log_softmax: its gradient reads its
// result, g - exp(out)·Σg. Composed of amax, sub, exp, sum, log and sub, it recorded six ops
// forward and seven backward in every step of a classifier's loss (W6's crossEntropy). ONNX
// lowers it to its LogSoftmax node, StableHLO as that composition (device/composed-lowerings.ts).
import { formatShape } from '../shape.js';
import { defineOp } from './op.js';

export interface LogSoftmaxAttrs {
  /** The normalized dim the rows run along. */
  readonly dim: number;
}

export const logSoftmaxOp = defineOp<LogSoftmaxAttrs>({
  name: 'logSoftmax',
  infer: ([x], { dim }) => {
    if (x!.dtype !== 'float32') throw new TypeError(`logSoftmax: the primitive takes float32; got ${x!.dtype}`);
    if (!(dim >= 0 && dim < Math.max(x!.shape.length, 1))) throw new RangeError(`logSoftmax: dim ${dim} is out of range for shape ${formatShape(x!.shape)}`);
    return { shape: x!.shape, dtype: 'float32' };
  },
  grad: (g, _x, out, { dim }) => [g.sub(out.exp().mul(g.sum(dim, true)))],
  gradReads: 'output',
});
