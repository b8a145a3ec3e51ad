// trilIndices / triuIndices: the [2, N] coordinates of a row × col matrix's lower or upper
// triangle, row by row (torch.tril_indices, torch.triu_indices); computed on the host from three
// integers and uploaded once, as eye's values. int64 by default, as PyTorch's index results.
import { INDEX_DTYPE } from './dtype.js';
import { upload } from './upload.js';
import { creationOptions, type CreationOptions } from './creation-options.js';
import { isOptions, readOptions } from './options.js';
import type { Tensor } from './tensor.js';
import { specialized } from './jit/live-number.js';

/** torch.tril_indices's keywords: an integer dtype ('int64' by default) and the device. */
export type TriangleIndicesOptions = Pick<CreationOptions, 'dtype' | 'chip' | 'device'> & { offset?: number };

function triangleIndices(op: string, upper: boolean, row: number, col: number, offset?: number | TriangleIndicesOptions, options?: TriangleIndicesOptions): Tensor {
  const o: TriangleIndicesOptions = isOptions(offset)
    ? readOptions<TriangleIndicesOptions>(op, offset, ['offset', 'dtype', 'chip', 'device'])
    : { ...readOptions<TriangleIndicesOptions>(op, options, ['dtype', 'chip', 'device']), offset };
  const [rows, cols, k] = specialized([row, col, o.offset ?? 0]);
  for (const [name, v] of [['row', rows], ['col', cols]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${op}: ${name} must be a non-negative integer; got ${JSON.stringify(v)}`);
  }
  if (!Number.isInteger(k)) throw new TypeError(`${op}: offset must be an integer; got ${JSON.stringify(k)}`);
  const made = creationOptions(op, { dtype: o.dtype, chip: o.chip, device: o.device });
  const dtype = made.dtype ?? INDEX_DTYPE;
  if (dtype !== 'int64' && dtype !== 'int32') throw new TypeError(`${op}: dtype must be 'int64' or 'int32' (indices), as in PyTorch; got '${dtype}'`);
  const is: number[] = [];
  const js: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (upper ? j - i >= k : j - i <= k) {
        is.push(i);
        js.push(j);
      }
    }
  }
  return upload(op, () => [...is, ...js], [2, is.length], dtype, made.chip);
}

/**
 * The coordinates of the lower triangle (column - row <= offset) of a row × col matrix, as a
 * [2, N] int64 tensor of row indices then column indices, row by row (torch.tril_indices);
 * positionally (row, col, offset) as PyTorch's, options { offset, dtype, device } last.
 * @example tpu.trilIndices(3, 3) // [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
 */
export function trilIndices(row: number, col: number, offset?: number | TriangleIndicesOptions, options?: TriangleIndicesOptions): Tensor {
  return triangleIndices('tpu.trilIndices', false, row, col, offset, options);
}

/**
 * The coordinates of the upper triangle (column - row >= offset) of a row × col matrix, as a
 * [2, N] int64 tensor, row by row (torch.triu_indices).
 * @example tpu.triuIndices(3, 3, 1) // [[0, 0, 1], [1, 2, 2]]
 */
export function triuIndices(row: number, col: number, offset?: number | TriangleIndicesOptions, options?: TriangleIndicesOptions): Tensor {
  return triangleIndices('tpu.triuIndices', true, row, col, offset, options);
}
