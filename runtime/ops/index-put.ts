// indexPut (torch.index_put): x with values written at the positions its index tensors pick,
// as PyTorch's x[i, j] = v; with accumulate they are added, repeated positions adding up.
// The indexed dims become one linear index, and one scatter (or scatterAdd) along it writes
// every picked position, so the gradients are those primitives' (PyTorch's: x's gradient
// zeroed at the written positions, values' read there). Of repeated positions without
// accumulate the last write is kept (in index order) on the ONNX backend, as PyTorch's CPU;
// PyTorch leaves that case undefined.
import { isInteger } from '../dtype.js';
import { broadcastShapes, formatShape, shapesEqual } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { checkHostIndices } from '../host-known-indices.js';
import { describeValue } from '../distributed/describe-value.js';
import { readOptions } from '../options.js';
import { fromTheEnd, indexAttrs, INT32_INDEX_HINT, scatterAddOp, scatterOp, zeroOrFail } from './gather-scatter.js';
import { filled } from './constant.js';
import { tensorArg } from './tensor-arg.js';
import { maskedPut } from './masked-put.js';

/** An entry of indices: an int32/int64 index for one dim, a bool mask for as many dims as it has, or null for a whole dim. */
export type PutIndex = Tensor | null;

export interface IndexPutOptions {
  /** Add values at the positions instead of writing them (repeated positions add up). */
  accumulate?: boolean;
}

/** An integer index for dim `dim` of x, the entry of indices it comes from, and whether its values are known to be in range (host-checked, or a mask's). */
interface Pick {
  readonly index: Tensor;
  readonly dim: number;
  readonly entry: number;
  readonly checked: boolean;
}

/** `accumulate` given positionally (PyTorch's third argument) or as { accumulate }. */
export function readAccumulate(op: string, accumulate: boolean | IndexPutOptions | undefined): boolean {
  const value = typeof accumulate === 'object' && accumulate !== null ? readOptions<IndexPutOptions>(op, accumulate, ['accumulate']).accumulate : accumulate;
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${op}: accumulate must be true or false; got ${describeValue(value)}`);
  return value ?? false;
}

/** The dims an entry of indices covers: a mask's own, one for an index or null. */
const dimsCovered = (entry: PutIndex): number => (entry instanceof Tensor && entry.dtype === 'bool' ? entry.ndim : 1);

/** The integer index of each dim that indices pick, in dim order: a bool mask becomes its nonzero positions (a sync; masked-put.ts writes most masks without). */
function picksOf(op: string, x: Tensor, indices: readonly PutIndex[]): Pick[] {
  if (!Array.isArray(indices)) throw new TypeError(`${op}: indices must be a list of tensors, one per indexed leading dim (x.${op}([idx], v)); got ${describeValue(indices)}`);
  const covered = indices.reduce((n, e) => n + dimsCovered(e), 0);
  if (covered > x.ndim) throw new RangeError(`${op}: too many indices for a tensor of ${x.ndim} dims ${formatShape(x.shape)}: indices cover ${covered}`);
  const picks: Pick[] = [];
  let d = 0;
  indices.forEach((entry, k) => {
    if (entry !== null && !(entry instanceof Tensor)) throw new TypeError(`${op}: indices[${k}] must be an int32, int64 or bool tensor (or null for a whole dim); got ${describeValue(entry)}`);
    if (entry?.dtype === 'bool') {
      const dims = x.shape.slice(d, d + entry.ndim);
      if (entry.ndim === 0 || !shapesEqual(entry.shape, dims)) {
        throw new RangeError(`${op}: the bool mask indices[${k}] of shape ${formatShape(entry.shape)} must match the dims it covers from dim ${d}, ${formatShape(dims)} (x is ${formatShape(x.shape)})`);
      }
      entry.nonzero({ asTuple: true }).forEach((column: Tensor, j: number) => picks.push({ index: column, dim: d + j, entry: k, checked: true }));
    } else if (entry) {
      if (!isInteger(entry.dtype)) throw new TypeError(`${op}: indices[${k}] must be an int32, int64 or bool tensor; got ${entry.dtype}${entry.dtype === 'float32' ? ` ${INT32_INDEX_HINT}` : ''}`);
      const n = x.shape[d]!;
      picks.push({ index: entry, dim: d, entry: k, checked: checkHostIndices(op, `indices[${k}] (for dim ${d} of size ${n}):`, entry, n, true) });
    }
    d += dimsCovered(entry);
  });
  if (picks.length === 0) throw new RangeError(`${op}: indices must hold at least one index tensor; got ${indices.length === 0 ? 'none' : 'only nulls'}`);
  return picks;
}

/** values (a tensor of x's dtype, or a number) broadcast to `shape`, the shape x[indices] would have. */
function valuesOver(op: string, x: Tensor, values: Tensor | number | boolean, shape: readonly number[]): Tensor {
  if (typeof values === 'number' || typeof values === 'boolean') return filled(op, [], values, x.dtype, x.chip).expand([...shape]);
  tensorArg(op, 'values', values);
  if (values.dtype !== x.dtype) throw new TypeError(`${op}: values must have x's dtype ${x.dtype}, as PyTorch's index_put requires; got ${values.dtype} (cast them with v.to('${x.dtype}'))`);
  const fits = values.ndim <= shape.length && values.shape.every((n, k) => n === 1 || n === shape[shape.length - values.ndim + k]);
  if (!fits) throw new RangeError(`${op}: values of shape ${formatShape(values.shape)} cannot be broadcast to the indexed shape ${formatShape(shape)}`);
  return values.expand([...shape]);
}

/**
 * x with values written (or, with accumulate, added) at x[indices] (torch.index_put): the
 * index tensors broadcast together to a shape B, and values broadcast to x[indices]'s shape
 * (B in place of the indexed dims when they are adjacent, else B first, as PyTorch's
 * advanced indexing). Negative indices count from the end; one past a dim is an error at the
 * call where its values are known on the host, else on the device.
 * @example tpu.zeros([4]).indexPut([tpu.tensor([0, -1], { dtype: 'int64' })], tpu.tensor([1, 2])) // [1, 0, 0, 2]
 */
export function indexPut(x: Tensor, indices: readonly PutIndex[], values: Tensor | number | boolean, accumulate?: boolean | IndexPutOptions): Tensor {
  return indexPutAs('indexPut', x, indices, values, accumulate);
}

/** indexPut, its errors naming `op` (indexPut_ writes its result back into x). */
export function indexPutAs(op: string, x: Tensor, indices: readonly PutIndex[], values: Tensor | number | boolean, accumulate?: boolean | IndexPutOptions): Tensor {
  tensorArg(op, 'input', x);
  const add = readAccumulate(op, accumulate);
  const masked = maskedPut(op, x, indices, values, add);
  if (masked) return masked;
  const picks = picksOf(op, x, indices);
  const B = picks.map((p) => p.index.shape).reduce((a, b, k) => broadcastShapes(op, a, b, [`the indices before indices[${picks[k]!.entry}]`, `indices[${picks[k]!.entry}]`]));
  const picked = picks.map((p) => p.dim);
  const kept = x.shape.map((_, d) => d).filter((d) => !picked.includes(d));
  const adjacent = picked.every((d, k) => k === 0 || d === picked[k - 1]! + 1);
  const first = picked[0]!;
  // x[indices]'s shape: B in place of the picked dims when adjacent, else first
  const target = adjacent ? [...x.shape.slice(0, first), ...B, ...x.shape.slice(first + picked.length)] : [...B, ...kept.map((d) => x.shape[d]!)];
  const v = valuesOver(op, x, values, target);
  return composite(op, () => {
    const count = B.reduce((a, b) => a * b, 1);
    const keptShape = kept.map((d) => x.shape[d]!);
    const pickedShape = picked.map((d) => x.shape[d]!);
    const order = [...picked, ...kept];
    const moved = order.some((d, k) => d !== k);
    // values with B first, flattened to [count, ...kept]
    const vFirst = adjacent && first > 0 ? v.permute([...B.map((_, k) => first + k), ...target.map((_, k) => k).filter((k) => k < first || k >= first + B.length)]) : v;
    const rows = vFirst.reshape([count, ...keptShape]);
    // the linear position of each pick among the picked dims (row-major), checked on the device where the host could not
    let linear: Tensor | null = null;
    let stride = 1;
    let failWhen: Tensor | null = null;
    for (let k = picks.length - 1; k >= 0; k--) {
      const { index, dim, checked } = picks[k]!;
      const n = x.shape[dim]!;
      if (!checked) {
        const outside = index.lt(-n).logicalOr(index.ge(n));
        failWhen = failWhen ? failWhen.logicalOr(outside) : outside;
      }
      const term = fromTheEnd(index, n).expand([...B]).reshape([count]);
      const scaled = stride === 1 ? term : term.mul(stride);
      linear = linear ? linear.add(scaled) : scaled;
      stride *= n;
    }
    if (failWhen) linear = linear!.add(zeroOrFail(failWhen.expand([...B]).reshape([count])));
    const base = (moved ? x.permute(order) : x).reshape([stride, ...keptShape]);
    const spread = linear!.reshape([count, ...keptShape.map(() => 1)]).expand([count, ...keptShape]);
    const allChecked = picks.every((p) => p.checked);
    const written = count === 0 ? base.clone() : apply(add ? scatterAddOp : scatterOp, [base, spread, rows], indexAttrs(0, allChecked));
    const out = written.reshape([...pickedShape, ...keptShape]);
    return moved ? out.permute(order.map((_, d) => order.indexOf(d))) : out;
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * A copy of x with values written at x[indices] (torch.index_put): indices a list of int32/int64
     * or bool tensors for the leading dims (null for a whole dim); values broadcast to x[indices]'s
     * shape, of x's dtype (or a number). accumulate (positional or `{ accumulate }`) adds them,
     * repeated positions adding up; without it, of repeated positions the last write is kept.
     * @example tpu.zeros([3]).indexPut([tpu.tensor([0, 0, 2], { dtype: 'int64' })], tpu.tensor([1, 2, 3]), true) // [3, 0, 3]
     */
    indexPut(indices: readonly PutIndex[], values: Tensor | number | boolean, accumulate?: boolean | IndexPutOptions): Tensor;
  }
}
installMethods({
  indexPut(indices, values, accumulate) { return indexPut(this, indices, values, accumulate); },
});
