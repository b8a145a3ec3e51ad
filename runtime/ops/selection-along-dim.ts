// What median(dim), nanmedian(dim), kthvalue and mode share: their one dim and keepdim
// (positional, x.mode(1, true); an options object, x.mode({ dim: 1, keepdim: true }); or a dim
// and options), and their (values, indices) from the index each row picks, the values gathered
// from the input so the gradient goes to that index.
import { INDEX_DTYPE } from '../dtype.js';
import { formatShape } from '../shape.js';
import { isOptions } from '../options.js';
import { composite } from '../modes/composite.js';
import type { Tensor } from '../tensor.js';
import { filled } from './constant.js';
import { reduceAttrs, type KeepdimOptions, type OneDimOptions } from './reduce.js';
import { ValuesIndices } from './values-indices.js';
import { numberValue } from '../jit/live-number.js';

/** Whether a dim is given, positionally or in the options: median() and median(dim) differ. */
export const dimGiven = (dim: unknown): boolean => typeof numberValue(dim) === 'number' || (isOptions(dim) && (dim as OneDimOptions).dim !== undefined);

/** The dim (the last when none is given, as PyTorch's kthvalue and mode) and keepdim. */
export function oneDimArgs(op: string, x: { readonly ndim: number }, dim?: number | OneDimOptions, keepdim?: boolean | KeepdimOptions): { dim: number; keepdim: boolean } {
  const given = dimGiven(dim);
  const attrs = reduceAttrs(op, x, given || isOptions(dim) ? dim : -1, keepdim, undefined, `Flatten the dims first: x.flatten(start, end).${op}(...)`);
  return { dim: given ? attrs.dims[0]! : Math.max(x.ndim - 1, 0), keepdim: attrs.keepdim };
}

/**
 * The values at the index `pick` gives each row along dim (a keepdim-shaped int64 tensor, built
 * as one composed op), and that index; a 0-d input is its own value at index 0.
 */
export function pickAlong(op: string, x: Tensor, dim: number, keepdim: boolean, pick: () => Tensor): ValuesIndices {
  if (x.ndim === 0) return new ValuesIndices(x.clone(), filled(op, [], 0, INDEX_DTYPE, x.chip));
  if (x.shape[dim] === 0) throw new RangeError(`${op}: expected reduction dim ${dim} to have non-zero size (input ${formatShape(x.shape)})`);
  const indices = composite(op, pick);
  const values = x.gather(dim, indices);
  return keepdim ? new ValuesIndices(values, indices) : new ValuesIndices(values.squeeze(dim), indices.squeeze(dim));
}
