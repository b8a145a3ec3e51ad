// The indices of a tensor's nonzero values (torch.nonzero, argwhere, one-argument where). How
// many there are only the device knows: the mask x != 0 is read (true-positions.ts: one sync;
// in fused mode the pending region runs first; an error under tpu.compile), and the indices,
// computed on the host from the positions found, are uploaded as int64, as PyTorch's.
import { INDEX_DTYPE } from '../dtype.js';
import type { Shape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { setStrides } from '../views/result-layout.js';
import { truePositions } from './true-positions.js';
import { tensorArg } from './tensor-arg.js';

export interface NonzeroOptions {
  /** One 1-D index tensor per dim instead of one [count, ndim] tensor (torch.nonzero's as_tuple). */
  asTuple?: boolean;
}

/** The row-major positions of x's nonzero values (NaN counts, -0 does not, as x != 0). */
function nonzeroPositions(op: string, x: Tensor): Int32Array {
  const mask = x.dtype === 'bool' ? x : x.ne(0);
  try {
    return truePositions(op, mask, {
      count: 'the count of nonzero values',
      instead: 'keep the shape with a mask (x.ne(0)) and where or maskedFill, or find the indices after the call, outside the compiled function',
    });
  } finally {
    if (mask !== x) mask.dispose();
  }
}

/** Each position's index along dim `d` of `shape` (row-major). */
function indicesAlong(positions: Int32Array, shape: Shape, d: number): Int32Array {
  let inner = 1;
  for (let k = d + 1; k < shape.length; k++) inner *= shape[k]!;
  const n = shape[d]!;
  return positions.map((p) => Math.floor(p / inner) % n);
}

/** [count, ndim] int64 indices, one row per nonzero value in row-major order. */
function indexRows(op: string, x: Tensor, positions: Int32Array): Tensor {
  const count = positions.length;
  const columns = x.shape.map((_, d) => indicesAlong(positions, x.shape, d));
  const rows = () => {
    const out = new Int32Array(count * x.ndim);
    columns.forEach((column, d) => column.forEach((v, i) => { out[i * x.ndim + d] = v; }));
    return out;
  };
  // PyTorch writes the result column by column: its strides are [1, count]
  return setStrides(upload(op, rows, [count, x.ndim], INDEX_DTYPE, x.chip), [1, count]);
}

/** One 1-D int64 index tensor per dim (a 0-d x counts as one element of a 1-D tensor, as in PyTorch). */
function indexColumns(op: string, x: Tensor, positions: Int32Array): Tensor[] {
  const shape = x.ndim === 0 ? [1] : x.shape;
  return shape.map((_, d) => {
    const column = indicesAlong(positions, shape, d);
    return upload(op, () => column, [column.length], INDEX_DTYPE, x.chip);
  });
}

/** The indices of x's nonzero values: rows of a [count, ndim] tensor, or one tensor per dim. */
function nonzeroIndices(op: string, x: Tensor, asTuple: boolean): Tensor | Tensor[] {
  tensorArg(op, 'input', x);
  const positions = nonzeroPositions(op, x);
  return asTuple ? indexColumns(op, x, positions) : indexRows(op, x, positions);
}

/**
 * The indices of x's nonzero values (torch.nonzero): int64 [count, ndim], one row per value in
 * row-major order; `{ asTuple: true }` gives one 1-D index tensor per dim instead. The count is
 * read from the device: a sync point.
 * @example tpu.nonzero(tpu.tensor([[0, 1], [2, 3]])) // [[0, 1], [1, 0], [1, 1]]
 * @example tpu.nonzero(tpu.tensor([[0, 1], [2, 3]]), { asTuple: true }) // [[0, 1, 1], [1, 0, 1]]
 */
export function nonzero(x: Tensor, options?: { asTuple?: false }): Tensor;
export function nonzero(x: Tensor, options: { asTuple: true }): Tensor[];
export function nonzero(x: Tensor, options?: NonzeroOptions): Tensor | Tensor[];
export function nonzero(x: Tensor, options?: NonzeroOptions): Tensor | Tensor[] {
  const { asTuple = false } = readOptions<NonzeroOptions>('nonzero', options, ['asTuple']);
  if (typeof asTuple !== 'boolean') throw new TypeError(`nonzero: asTuple must be true or false; got ${JSON.stringify(asTuple)}`);
  return nonzeroIndices('nonzero', x, asTuple);
}

/**
 * The indices of x's nonzero values as int64 [count, ndim] (torch.argwhere: nonzero's rows).
 * @example tpu.argwhere(tpu.tensor([0, 3, 5])) // [[1], [2]]
 */
export function argwhere(x: Tensor): Tensor {
  return nonzeroIndices('argwhere', x, false) as Tensor;
}

/** torch.where(condition): one 1-D int64 index tensor per dim of the nonzero values of condition. */
export function nonzeroColumns(condition: Tensor): Tensor[] {
  return nonzeroIndices('where', condition, true) as Tensor[];
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The indices of the nonzero values: int64 [count, ndim] in row-major order (torch.nonzero);
     * `{ asTuple: true }`: one 1-D index tensor per dim. The count is read from the device (a sync).
     * @example tpu.tensor([[0, 1], [2, 3]]).nonzero() // [[0, 1], [1, 0], [1, 1]]
     */
    nonzero(options?: { asTuple?: false }): Tensor;
    nonzero(options: { asTuple: true }): Tensor[];
    nonzero(options?: NonzeroOptions): Tensor | Tensor[];
    /**
     * The indices of the nonzero values as int64 [count, ndim] (torch.argwhere). A sync.
     * @example tpu.tensor([0, 3, 5]).argwhere() // [[1], [2]]
     */
    argwhere(): Tensor;
  }
}
installMethods({
  nonzero: function (this: Tensor, options?: NonzeroOptions) { return nonzero(this, options); } as Tensor['nonzero'],
  argwhere() { return argwhere(this); },
});
