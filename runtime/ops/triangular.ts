// tril / triu (ONNX Trilu) on the last two dims, with PyTorch's `diagonal` offset.
import { isOptions, readOptions } from '../options.js';
import { formatShape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type OpDef } from './op.js';
import { installMethods } from '../install-methods.js';
import { specialized } from '../jit/live-number.js';

export interface TriluAttrs {
  readonly upper: boolean;
  readonly diagonal: number;
}

export const triluOp: OpDef<TriluAttrs> = defineOp<TriluAttrs>({
  name: 'trilu',
  infer([x], { upper }) {
    if (x!.shape.length < 2) throw new RangeError(`${upper ? 'triu' : 'tril'}: input must have at least 2 dims; got ${formatShape(x!.shape)}`);
    return { shape: x!.shape, dtype: x!.dtype };
  },
  grad: (g, _x, _out, attrs) => [apply(triluOp, [g], attrs)],
});

/** The diagonal offset k of tril, triu and diag: k or { diagonal: k } (0 by default). */
export function diagonalOffset(op: string, diagonal: number | { diagonal?: number } | undefined): number {
  const d = specialized(isOptions(diagonal) ? readOptions<{ diagonal: number }>(op, diagonal, ['diagonal']).diagonal ?? 0 : diagonal ?? 0);
  if (!Number.isInteger(d)) throw new TypeError(`${op}: diagonal must be an integer; got ${JSON.stringify(d)}`);
  return d;
}

/**
 * Lower triangle: elements above diagonal k set to zero (torch.tril).
 * @example tpu.tril(tpu.ones([3, 3]))
 */
export function tril(x: Tensor, diagonal?: number | { diagonal?: number }): Tensor {
  return apply(triluOp, [x], { upper: false, diagonal: diagonalOffset('tril', diagonal) });
}
/**
 * Upper triangle: elements below diagonal k set to zero (torch.triu).
 * @example tpu.triu(x, 1)
 */
export function triu(x: Tensor, diagonal?: number | { diagonal?: number }): Tensor {
  return apply(triluOp, [x], { upper: true, diagonal: diagonalOffset('triu', diagonal) });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Lower triangle: elements above diagonal k set to zero (torch.tril).
     * @example x.tril()
     */
    tril(diagonal?: number | { diagonal?: number }): Tensor;
    /**
     * Upper triangle: elements below diagonal k set to zero (torch.triu).
     * @example x.triu(1)
     */
    triu(diagonal?: number | { diagonal?: number }): Tensor;
  }
}
installMethods({
  tril(diagonal) { return tril(this, diagonal); },
  triu(diagonal) { return triu(this, diagonal); },
});
