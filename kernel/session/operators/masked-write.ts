// Writing through a bool mask in a cell, as PyTorch's x[mask] = v (index_put_) and x[mask] OP= v
// (read the selection, OP in place, write it back): in place on x, so views of x see it. The
// mask covers x's leading dims; the selection is [count, ...rest] with rest x's other dims. A
// value that broadcasts to it whatever count is (a number, a 0-d tensor, a row of rest's shape)
// is written with where, no sync; a value per selected row needs the count, read from the mask
// (a sync, as x[mask] reads). Built from the tensors' own ops, so gradients are theirs.
import { METHODS } from './operator-table.js';

/** Cells' values: the tensor branch calls the methods by name. */
type Any = any;

const shapeText = (shape: readonly number[]): string => `[${shape.join(', ')}]`;

/** The selected rows' dims after the count: x's dims the mask does not cover (it must be x's leading dims). */
function restDims(what: string, x: Any, mask: Any): number[] {
  const leading = mask.ndim <= x.ndim && mask.shape.every((n: number, i: number) => n === x.shape[i]);
  if (!leading) throw new RangeError(`${what}: the mask's shape ${shapeText(mask.shape)} must be x's leading dims (x is ${shapeText(x.shape)})`);
  return x.shape.slice(mask.ndim);
}

/** The mask with a 1 for each of x's other dims, so it broadcasts against x. */
const maskOverX = (x: Any, mask: Any): Any => mask.reshape([...mask.shape, ...Array(x.ndim - mask.ndim).fill(1)]);

/** The error for a value no tensor element takes (`x[k] = v`, through a mask or a view). */
export const notAValue = (what: string, v: unknown): TypeError =>
  new TypeError(`${what}: v must be a tensor, a number or a boolean; got ${v === null ? 'null' : Array.isArray(v) ? 'an array (wrap it with tpu.tensor(...))' : typeof v}`);

/** The number of selected rows: the length of the mask's own selection (reads the mask: a sync, as x[mask]). */
const countOf = (mask: Any): number => mask.maskedSelect(mask).shape[0];

/**
 * v without its count dim when that dim is 1 or absent (it then broadcasts to any count), else
 * null (v has a row per selected row). Its other dims must broadcast to rest, as PyTorch's.
 */
function countFree(what: string, mask: Any, rest: number[], v: Any): Any | null {
  const shape: number[] = v.shape;
  const fits = (dims: number[]) => dims.length <= rest.length && dims.every((n, i) => n === 1 || n === rest[rest.length - dims.length + i]);
  const mismatch = () => new RangeError(`${what}: v's shape ${shapeText(shape)} does not broadcast to the selected shape ${shapeText([countOf(mask), ...rest])}`);
  if (shape.length <= rest.length) {
    if (!fits(shape)) throw mismatch();
    return v;
  }
  if (shape.length > rest.length + 1 || !fits(shape.slice(1))) throw mismatch();
  return shape[0] === 1 ? v.reshape(shape.slice(1)) : null;
}

/** v with a row per selected row: its first dim must be the mask's count. */
function checkRows(what: string, v: Any, count: number, rest: number[]): void {
  if (v.shape[0] !== count) {
    const [of, selected] = rest.length === 0 ? ['values', 'elements'] : ['rows', 'rows'];
    throw new RangeError(`${what}: v has ${v.shape[0]} ${of} for the mask's ${count} selected ${selected} (v's shape ${shapeText(v.shape)}, the selected shape ${shapeText([count, ...rest])})`);
  }
}

/** x's values where the mask is false, and the selected rows from `rows` ([count, ...dims broadcasting to rest]). */
function writeRows(x: Any, mask: Any, rows: Any, count: number): void {
  if (count === 0) return;
  // row i of x takes selected row k when it is the k-th true of the mask; rows not selected take any, then x's
  const rank = mask.reshape([-1]).to('int32').cumsum(0).sub(1).clamp(0);
  const spread = rows.indexSelect(0, rank).reshape([...mask.shape, ...rows.shape.slice(1)]);
  x.copy_(spread.where(maskOverX(x, mask), x));
}

/** `x[mask] = v`: a number or 0-d tensor fills, a tensor of the selection's shape (or broadcasting to it) is written in, of x's dtype (as PyTorch's index_put_). */
export function assignMasked(x: Any, mask: Any, v: unknown, isTensor: (v: unknown) => boolean): void {
  const what = 'x[mask] = v';
  const rest = restDims(what, x, mask);
  if (typeof v === 'number' || typeof v === 'boolean' || (isTensor(v) && (v as Any).ndim === 0)) {
    x.maskedFill_(maskOverX(x, mask), typeof v === 'boolean' ? Number(v) : v);
    return;
  }
  if (!isTensor(v)) throw notAValue(what, v);
  const values = v as Any;
  if (values.dtype !== x.dtype) throw new TypeError(`${what}: v's dtype must be x's (PyTorch's index_put_): x is ${x.dtype}, v is ${values.dtype}; cast v with v.to('${x.dtype}')`);
  const free = countFree(what, mask, rest, values);
  if (free) x.copy_(free.where(maskOverX(x, mask), x));
  else {
    const count = countOf(mask);
    checkRows(what, values, count, rest);
    writeRows(x, mask, values, count);
  }
}

/** `x[mask] OP= v` (op is '+=', '-=', ...): the selection OP v, in place with the selection's dtype, written back into x. */
export function compoundMasked(op: string, x: Any, mask: Any, v: unknown, isTensor: (v: unknown) => boolean): void {
  const what = `x[mask] ${op} v`;
  const method = `${METHODS[op.slice(0, -1)]}_`;
  const rest = restDims(what, x, mask);
  if (!isTensor(v) && typeof v !== 'number' && typeof v !== 'boolean') throw notAValue(what, v);
  const free = isTensor(v) ? countFree(what, mask, rest, v) : v;
  if (free !== null) {
    // every element computed, the selected ones kept: no data-dependent shape
    const updated = x.clone()[method](free);
    x.copy_(updated.where(maskOverX(x, mask), x));
    return;
  }
  const selected = x.at(mask);
  const count = selected.shape[0];
  checkRows(what, v, count, rest);
  writeRows(x, mask, selected[method](v), count);
}
