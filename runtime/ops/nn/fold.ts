// torch.nn.functional.unfold (im2col) and fold (col2im), composed of strided slices: unfold
// reads one strided slice of the padded image per kernel position; fold writes each back
// (embedSlice) and sums the overlaps. Exact copies, so ±inf and NaN stay where they were (a
// conv with one-hot kernels would make 0·inf = NaN); each one's gradient is the other.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { apply } from '../../modes/dispatch.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { specialized } from '../../jit/live-number.js';
import { stack } from '../concat.js';
import { pad } from '../pad.js';
import { embedSlice, slice } from '../slice.js';
import { batched, pair } from './conv.js';

export interface FoldOptions {
  /** The spacing of a block's elements (default 1). */
  dilation?: number | readonly number[];
  /** Zeros added on both sides of each spatial dim (default 0). */
  padding?: number | readonly number[];
  /** The step between blocks (default 1). */
  stride?: number | readonly number[];
}

interface Blocks {
  kernel: [number, number];
  dilation: [number, number];
  padding: [number, number];
  stride: [number, number];
}

function blocksOf(op: string, kernelSize: unknown, opts: FoldOptions | undefined): Blocks {
  const o = readOptions<FoldOptions>(op, opts, ['dilation', 'padding', 'stride']);
  if (kernelSize === undefined) throw new TypeError(`${op}: kernelSize is required, as in PyTorch`);
  return {
    kernel: pair(op, 'kernelSize', kernelSize as number, [1, 1], 1),
    dilation: pair(op, 'dilation', o.dilation, [1, 1], 1),
    padding: pair(op, 'padding', o.padding, [0, 0], 0),
    stride: pair(op, 'stride', o.stride, [1, 1], 1),
  };
}

/** How many blocks fit along each spatial dim of an (unpadded) size [h, w]. */
function blockCounts(b: Blocks, size: readonly number[]): [number, number] {
  return [0, 1].map((d) => Math.floor((size[d]! + 2 * b.padding[d]! - b.dilation[d]! * (b.kernel[d]! - 1) - 1) / b.stride[d]!) + 1) as [number, number];
}

const described = (b: Blocks) => `kernelSize ${formatShape(b.kernel)}, dilation ${formatShape(b.dilation)}, padding ${formatShape(b.padding)}, stride ${formatShape(b.stride)}`;

/** The slice of the padded image that kernel position (i, j) reads in every block. */
const sliceAt = (b: Blocks, n: number, c: number, counts: readonly number[], i: number, j: number) => ({
  begin: [0, 0, i * b.dilation[0], j * b.dilation[1]], step: [1, 1, ...b.stride], count: [n, c, ...counts],
});

/**
 * The sliding blocks of an image [n, c, h, w] (or [c, h, w]) as columns [n, c·kh·kw, blocks]
 * (torch.nn.functional.unfold, im2col): row c·kh·kw + i·kw + j holds kernel position (i, j) of channel c.
 * @example tpu.nn.functional.unfold(tpu.arange(9).reshape([1, 1, 3, 3]).float(), 2) // [[[0, 1, 3, 4], [1, 2, 4, 5], [3, 4, 6, 7], [4, 5, 7, 8]]]
 */
export function unfold(x: Tensor, kernelSize: number | readonly number[], opts?: FoldOptions): Tensor {
  const op = 'unfold';
  const b = blocksOf(op, specialized(kernelSize), opts);
  return batched(op, x, 4, (x4) => {
    const [n, c, h, w] = x4.shape as [number, number, number, number];
    const counts = blockCounts(b, [h, w]);
    if (counts.some((k) => k < 1)) throw new RangeError(`${op}: no block fits the input ${formatShape(x.shape)} with ${described(b)}: ${formatShape(counts)} blocks`);
    return composite(op, () => {
      const padded = b.padding.some((p) => p > 0) ? pad(x4, [b.padding[1], b.padding[1], b.padding[0], b.padding[0]]) : x4;
      const columns: Tensor[] = [];
      for (let i = 0; i < b.kernel[0]; i++) for (let j = 0; j < b.kernel[1]; j++) columns.push(apply(slice, [padded], sliceAt(b, n, c, counts, i, j)));
      return stack(columns, 2).reshape([n, c * b.kernel[0] * b.kernel[1], counts[0] * counts[1]]);
    });
  });
}

/**
 * Columns [n, c·kh·kw, blocks] (or without n) summed back into an image [n, c, ...outputSize]
 * (torch.nn.functional.fold, col2im): unfold's adjoint, overlapping blocks add up.
 * @example tpu.nn.functional.fold(tpu.ones([1, 4, 4]), [3, 3], 2) // [[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]]]
 */
export function fold(x: Tensor, outputSize: number | readonly number[], kernelSize: number | readonly number[], opts?: FoldOptions): Tensor {
  const op = 'fold';
  const b = blocksOf(op, specialized(kernelSize), opts);
  const size = pair(op, 'outputSize', outputSize, [1, 1], 1);
  return batched(op, x, 3, (x3) => {
    const [n, ck, l] = x3.shape as [number, number, number];
    const k = b.kernel[0] * b.kernel[1];
    if (ck % k !== 0) throw new RangeError(`${op}: the input's dim 1 must be divisible by the kernel's size ${formatShape(b.kernel)} = ${k}; got input ${formatShape(x.shape)}`);
    const counts = blockCounts(b, size);
    if (counts.some((m) => m < 1) || counts[0] * counts[1] !== l) {
      throw new RangeError(`${op}: outputSize ${formatShape(size)} with ${described(b)} has ${counts[0]} * ${counts[1]} blocks, but the input ${formatShape(x.shape)} has ${l}`);
    }
    const c = ck / k;
    const full = [n, c, size[0] + 2 * b.padding[0], size[1] + 2 * b.padding[1]];
    return composite(op, () => {
      const blocks = x3.reshape([n, c, k, ...counts]);
      let sum: Tensor | undefined;
      for (let i = 0; i < b.kernel[0]; i++) {
        for (let j = 0; j < b.kernel[1]; j++) {
          const placed = apply(embedSlice, [blocks.select(2, i * b.kernel[1] + j)], { ...sliceAt(b, n, c, counts, i, j), shape: full });
          sum = sum === undefined ? placed : sum.add(placed);
        }
      }
      return b.padding.some((p) => p > 0) ? sum!.narrow(2, b.padding[0], size[0]).narrow(3, b.padding[1], size[1]) : sum!;
    });
  });
}
