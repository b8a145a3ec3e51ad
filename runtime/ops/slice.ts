// Strided slices: `slice` reads elements begin + i·step (i < count) of each dim; its
// gradient `embedSlice` writes them back into zeros of the input's shape. Both are
// primitives with fully resolved attrs (no negative indices left), so shapes are static.
// A row read in a loop (x.at(i), narrow, select) feeds its begin as an int32 scalar operand
// (`fed`), as JAX's dynamic_slice takes a traced start: every row shares one program.
import { formatShape, normalizeDim, type Shape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp, type Operand, type OpDef } from './op.js';
import { installMethods } from '../install-methods.js';
import { preserveLayout } from '../views/result-layout.js';
import { intArgs, type IntArgs } from '../shape-args.js';
import { numberValue, specialized } from '../jit/live-number.js';
import { fedStart } from '../jit/live-position.js';

export interface SliceAttrs {
  readonly begin: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly number[];
  /**
   * Dims (step 1, count > 0) whose begin is fed at run time: the scalar operands after the
   * tensor, in this order. Their begin here is 0, so the attrs (the program key) are the same
   * for every row: lowerings read the operands for these dims.
   */
  readonly fed?: readonly number[];
}

/** The gradient rules' attrs: `fed` kept only where there is one (plain-equal attrs match fastest). */
function sliceAttrs({ begin, step, count, fed }: SliceAttrs): SliceAttrs {
  return fed ? { begin, step, count, fed } : { begin, step, count };
}

/** No gradient for the fed begins. */
const noGrads = (starts: readonly Operand[]) => starts.map(() => null);

/** The begin of every dim of a slice applied to `operands`: the fed ones are its scalar operands. */
export function sliceBegin({ begin, fed }: SliceAttrs, operands: readonly Operand[]): readonly number[] {
  // a live start's value now: a view's offset is metadata, the values read it at run time
  return fed ? begin.map((b, d) => (fed.includes(d) ? Number(numberValue(operands[1 + fed.indexOf(d)])) : b)) : begin;
}

export const slice: OpDef<SliceAttrs> = defineOp<SliceAttrs>({
  name: 'slice',
  infer: ([x], { count }) => ({ shape: count, dtype: x!.dtype }),
  grad: (g, [x, ...starts], _out, attrs) => [apply(embedSlice, [g, ...starts], { ...sliceAttrs(attrs), shape: (x as Tensor).shape }), ...noGrads(starts)],
  positionScalars: true,
});

export const embedSlice: OpDef<SliceAttrs & { shape: Shape }> = defineOp<SliceAttrs & { shape: Shape }>({
  name: 'embedSlice',
  infer: ([x], { shape }) => ({ shape, dtype: x!.dtype }),
  grad: (g, [, ...starts], _out, attrs) => [apply(slice, [g, ...starts], sliceAttrs(attrs)), ...noGrads(starts)],
  positionScalars: true,
});

/**
 * Python slice semantics for one dim: start/end clamped, negatives from the end. The step must
 * be positive, as in PyTorch (no negative strides): `what` names the argument in the error.
 */
export function resolveRange(op: string, n: number, start: number | null | undefined, end: number | null | undefined, step: number, what = `step ${step}`): { begin: number; count: number } {
  if (!Number.isInteger(step) || step <= 0) {
    throw new RangeError(`${op}: step must be greater than zero (as in PyTorch); got ${what}` +
      (Number.isInteger(step) && step < 0 ? '. To reverse the elements, use flip(dims), e.g. x.flip(0) (a copy, as in PyTorch)' : ''));
  }
  for (const [name, v] of [['start', start], ['end', end]] as const) {
    if (v !== null && v !== undefined && !Number.isInteger(v)) throw new TypeError(`${op}: ${name} must be an integer; got ${JSON.stringify(v)}`);
  }
  const norm = (v: number) => Math.min(Math.max(v < 0 ? v + n : v, 0), n);
  const b = start == null ? 0 : norm(start);
  const e = end == null ? n : norm(end);
  return { begin: b, count: Math.max(0, Math.ceil((e - b) / step)) };
}

/** The slice of every dim untouched: the starting point of index specs. */
export function fullSlice(shape: Shape): { begin: number[]; step: number[]; count: number[] } {
  return { begin: shape.map(() => 0), step: shape.map(() => 1), count: [...shape] };
}

/** Applies slice unless it keeps all of x; `starts`: the begins of attrs.fed's dims (their begin in attrs is 0). */
export function applySlice(x: Tensor, attrs: SliceAttrs, starts?: readonly number[]): Tensor {
  const { begin, step, count } = attrs;
  for (let d = 0; d < count.length; d++) {
    if (count[d] !== x.shape[d] || step[d] !== 1 || begin[d] !== 0) return apply(slice, starts ? [x, ...starts] : [x], attrs);
  }
  return x;
}

/** x.slice(dim, start, end, step): Python-style range on one dim (negatives count from the end). */
export function sliceDim(x: Tensor, dim: number, start?: number | null, end?: number | null, step = 1): Tensor {
  const d = normalizeDim('slice', dim, x.ndim);
  [start, end, step] = specialized([start, end, step]); // a tpu.compile number argument: its value
  const r = resolveRange('slice', x.shape[d]!, start, end, step);
  const attrs = fullSlice(x.shape);
  attrs.begin[d] = r.begin;
  attrs.step[d] = step;
  attrs.count[d] = r.count;
  return applySlice(x, attrs);
}

/** x.narrow(dim, start, length): exactly `length` elements from `start` (must fit). */
export function narrow(x: Tensor, dim: number, start: number, length: number): Tensor {
  const d = normalizeDim('narrow', dim, x.ndim);
  const n = x.shape[d]!;
  const len = specialized(length);
  const fits = (p: number) => {
    const s = p < 0 ? p + n : p;
    return Number.isInteger(p) && Number.isInteger(len) && s >= 0 && len >= 0 && s + len <= n;
  };
  const first = numberValue(start) as number;
  if (!Number.isInteger(first) || !Number.isInteger(len)) throw new TypeError(`narrow: start and length must be integers; got start ${first} and length ${len}`);
  if (!fits(first)) {
    throw new RangeError(`narrow: start ${first} and length ${len} do not fit dim ${numberValue(dim)} of size ${n} (input ${formatShape(x.shape)})`);
  }
  const { begin, step, count } = fullSlice(x.shape);
  count[d] = len;
  if (len > 0) return applySlice(x, { begin, step, count, fed: [d] }, [fedStart(start, n, 'narrow: the start', fits)]);
  const s = specialized(start); // nothing is read: a new start only has to fit, so it traces again
  begin[d] = s < 0 ? s + n : s;
  return applySlice(x, { begin, step, count });
}

/**
 * Reverses the order of elements along dims.
 * @example tpu.flip(tpu.tensor([1, 2, 3]), 0) // [3, 2, 1]
 */
export function flip(x: Tensor, dims: number | readonly number[]): Tensor {
  const list = typeof dims === 'number' ? [dims] : dims;
  if (!Array.isArray(list)) throw new TypeError(`flip: dims must be a number or an array of numbers; got ${JSON.stringify(dims)}`);
  const attrs = fullSlice(x.shape);
  for (const dim of list) {
    const d = normalizeDim('flip', dim, x.ndim);
    if (attrs.step[d] === -1) throw new RangeError(`flip: dim ${d} appears multiple times in the list of dims ${JSON.stringify(dims)}, as PyTorch refuses`);
    attrs.begin[d] = Math.max(x.shape[d]! - 1, 0);
    attrs.step[d] = -1;
  }
  // a new tensor in x's layout, as PyTorch's flip (also when there is nothing to reverse)
  return preserveLayout(x, x.ndim === 0 || x.numel() === 0 ? x : apply(slice, [x], attrs));
}

/**
 * Columns in reverse order: flip along dim 1 of a tensor of 2 or more dims (torch.fliplr).
 * @example tpu.fliplr(tpu.tensor([[1, 2], [3, 4]])) // [[2, 1], [4, 3]]
 */
export function fliplr(x: Tensor): Tensor {
  if (x.ndim < 2) throw new RangeError(`fliplr: input must have at least 2 dims; got ${x.describe()}`);
  return flip(x, 1);
}

/**
 * Rows in reverse order: flip along dim 0 of a tensor of 1 or more dims (torch.flipud).
 * @example tpu.flipud(tpu.tensor([[1, 2], [3, 4]])) // [[3, 4], [1, 2]]
 */
export function flipud(x: Tensor): Tensor {
  if (x.ndim < 1) throw new RangeError(`flipud: input must have at least 1 dim; got ${x.describe()}`);
  return flip(x, 0);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Elements start, start+step, ... before end along dim (Python slice rules; step > 0, as in PyTorch: flip() reverses).
     * @example tpu.arange(6).slice(0, 1, 5, 2) // [1, 3]
     */
    slice(dim: number, start?: number | null, end?: number | null, step?: number): Tensor;
    /**
     * length elements from start along dim, without copying (torch.narrow).
     * @example x.narrow(1, 0, 2)
     */
    narrow(dim: number, start: number, length: number): Tensor;
    /**
     * Reverses the order along dims, as integers or one array (torch.flip).
     * @example x.flip([0])
     * @example tpu.tensor([[1, 2], [3, 4]]).flip(0, 1) // [[4, 3], [2, 1]]
     */
    flip(...dims: IntArgs): Tensor;
    /**
     * Columns in reverse order, for 2 or more dims (torch.Tensor.fliplr).
     * @example tpu.tensor([[1, 2], [3, 4]]).fliplr() // [[2, 1], [4, 3]]
     */
    fliplr(): Tensor;
    /**
     * Rows in reverse order, for 1 or more dims (torch.Tensor.flipud).
     * @example tpu.tensor([[1, 2], [3, 4]]).flipud() // [[3, 4], [1, 2]]
     */
    flipud(): Tensor;
  }
}
installMethods({
  slice(dim, start, end, step) { return sliceDim(this, dim, start, end, step); },
  narrow(dim, start, length) { return narrow(this, dim, start, length); },
  flip(...dims) { return flip(this, intArgs('flip', dims, 'dims')); },
  fliplr() { return fliplr(this); },
  flipud() { return flipud(this); },
});
