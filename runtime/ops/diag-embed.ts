// diagEmbed: each last-dim vector of the input on a diagonal of a new matrix over two dims of
// the result (torch.diag_embed), composed as diag's: the vector padded to the matrix side,
// kept where column - row is the offset, the two matrix dims then moved to dim1 and dim2.
import { normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions } from '../options.js';
import { composite } from '../modes/composite.js';
import { filled } from './constant.js';
import { where } from './where.js';
import { pad } from './pad.js';
import { movedim } from './shape-ops.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface DiagEmbedOptions {
  /** Which diagonal: 0 the main one (the default), > 0 above it, < 0 below. */
  offset?: number;
  /** The result's dim of the matrix rows (-2 by default). */
  dim1?: number;
  /** The result's dim of the matrix columns (-1 by default). */
  dim2?: number;
}

/**
 * A result with one more dim: each vector along x's last dim on diagonal `offset` of a matrix
 * over the result's dims dim1 and dim2, zeros elsewhere (torch.diag_embed); positionally
 * (offset, dim1, dim2) as PyTorch's, or { offset, dim1, dim2 }.
 * @example tpu.diagEmbed(tpu.tensor([[1, 2], [3, 4]])) // [[[1, 0], [0, 2]], [[3, 0], [0, 4]]]
 */
export function diagEmbed(x: Tensor, offset?: number | DiagEmbedOptions, dim1?: number, dim2?: number): Tensor {
  tensorArg('diagEmbed', 'input', x);
  const o: DiagEmbedOptions = isOptions(offset) ? readOptions<DiagEmbedOptions>('diagEmbed', offset, ['offset', 'dim1', 'dim2']) : { offset: offset as number | undefined, dim1, dim2 };
  const k = specialized(o.offset ?? 0);
  if (!Number.isInteger(k)) throw new TypeError(`diagEmbed: offset must be an integer; got ${JSON.stringify(k)}`);
  const rank = x.ndim + 1;
  if (x.ndim === 0) throw new RangeError('diagEmbed: the input must have at least 1 dim (the vectors); got a 0-d tensor');
  const d1 = normalizeDim('diagEmbed', o.dim1 ?? -2, rank, 'dim1');
  const d2 = normalizeDim('diagEmbed', o.dim2 ?? -1, rank, 'dim2');
  if (d1 === d2) throw new RangeError(`diagEmbed: dim1 and dim2 cannot be the same dim; got ${o.dim1 ?? -2} and ${o.dim2 ?? -1} for a result of rank ${rank}`);
  const n = x.shape[x.ndim - 1]! + Math.abs(k);
  return composite('diagEmbed', () => {
    // row r of each matrix holds its diagonal element: the vector padded to n, rows before it for k < 0
    const column = pad(x, k >= 0 ? [0, k] : [-k, 0]).unsqueeze(-1);
    const rows = filled('diagEmbed', [n, 1], 1, 'int32', x.chip).cumsum(0);
    const cols = filled('diagEmbed', [1, n], 1, 'int32', x.chip).cumsum(1);
    const matrices = where(cols.sub(rows).eq(k), column, x.dtype === 'bool' ? false : 0);
    return movedim(matrices, [rank - 2, rank - 1], [d1, d2]);
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Each last-dim vector on diagonal `offset` of a matrix over dims dim1, dim2 of the result (torch.Tensor.diag_embed).
     * @example tpu.tensor([1, 2]).diagEmbed(1) // [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
     */
    diagEmbed(offset?: number | DiagEmbedOptions, dim1?: number, dim2?: number): Tensor;
  }
}
installMethods({
  diagEmbed(offset, dim1, dim2) { return diagEmbed(this, offset, dim1, dim2); },
});
