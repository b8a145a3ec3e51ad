// .to(dtype): float -> int truncates toward zero, to bfloat16 rounds to nearest even,
// anything -> bool is "non-zero".
import { isOptions, readOptions } from '../options.js';
import { assertDType, isFloating, type DType } from '../dtype.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { installMethods } from '../install-methods.js';

export const cast = defineOp<{ dtype: DType }>({
  name: 'cast',
  infer: ([x], { dtype }) => ({ shape: x!.shape, dtype }),
  grad: (g, [x]) => {
    const from = (x as Tensor).dtype;
    return [isFloating(from) && isFloating(g.dtype) ? g.to(from) : null];
  },
  gradReads: 'none',
});

declare module '../tensor.js' {
  interface Tensor {
    /**
     * A copy in another dtype (torch.Tensor.to(dtype)).
     * @example x.to('bfloat16')
     */
    to(dtype: DType | { dtype: DType }): Tensor;
  }
}
installMethods({
  to(target) {
    const dtype = assertDType(isOptions(target) ? readOptions<{ dtype: DType }>('to', target, ['dtype']).dtype : target, 'to');
    return dtype === this.dtype ? this : apply(cast, [this], { dtype });
  },
});
