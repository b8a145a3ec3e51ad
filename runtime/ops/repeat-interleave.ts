// repeatInterleave: each element (or slice along a dim) repeated, in place (torch.repeat_interleave).
// A number of repeats is a view expanded and reshaped; a tensor of repeats sizes the result by
// its sum, which only the device knows: read then (a sync, as PyTorch's), or given as
// outputSize, when the positions are computed on the device (no read; a wrong size fails there).
import { INDEX_DTYPE, isInteger } from '../dtype.js';
import { formatShape, normalizeDim } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { composite } from '../modes/composite.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { tracing } from '../jit/trace-record.js';
import { upload } from '../upload.js';
import { describeValue } from '../distributed/describe-value.js';
import { filled } from './constant.js';
import { indexAttrs, indexSelectOp, zeroOrFail } from './gather-scatter.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface RepeatInterleaveOptions {
  /** The dim whose slices repeat; none: the flattened input. */
  dim?: number | null;
  /** The result's length along dim (the sum of the repeats): with a tensor of repeats, nothing is read from the device. */
  outputSize?: number;
}

const KEYS: readonly (keyof RepeatInterleaveOptions)[] = ['dim', 'outputSize'];

/** 0, 1, ..., n-1 (int64) computed on the device. */
const positions = (n: number, chip: number) => filled('repeatInterleave', [n], 1, INDEX_DTYPE, chip).cumsum(0).sub(1);

/**
 * Each element of x, or slice along dim, repeated `repeats` times in place: a number, or a
 * tensor of one count per slice (torch.repeat_interleave). tpu.repeatInterleave(repeats)
 * alone repeats 0, 1, 2, ... (PyTorch's one-argument form).
 * @example tpu.repeatInterleave(tpu.tensor([1, 2]), 2) // [1, 1, 2, 2]
 * @example tpu.repeatInterleave(tpu.tensor(new Int32Array([2, 0, 1]))) // [0, 0, 2]
 */
export function repeatInterleave(x: Tensor, repeats?: number | Tensor | RepeatInterleaveOptions, dim?: number | null | RepeatInterleaveOptions, options?: RepeatInterleaveOptions): Tensor {
  tensorArg('repeatInterleave', 'input', x);
  if (repeats === undefined || isOptions(repeats)) {
    // the one-argument form: x is the repeats of 0, 1, 2, ...
    const o = readOptions<RepeatInterleaveOptions>('repeatInterleave', repeats, ['outputSize']);
    return repeatInterleave(positions(x.numel(), x.chip), x, { dim: 0, ...o });
  }
  const o: RepeatInterleaveOptions = isOptions(dim) ? readOptions<RepeatInterleaveOptions>('repeatInterleave', dim, KEYS)
    : isOptions(options) ? withPositional('repeatInterleave', 'dim', dim, options, KEYS) as RepeatInterleaveOptions : { dim: dim as number | null | undefined };
  const flat = o.dim === undefined || o.dim === null;
  const v = flat ? x.reshape([-1]) : x;
  const d = flat ? 0 : normalizeDim('repeatInterleave', o.dim!, x.ndim);
  const n = v.ndim === 0 ? 1 : v.shape[d]!;
  const size = specialized(o.outputSize);
  repeats = specialized(repeats);
  if (size !== undefined && (!Number.isInteger(size) || size < 0)) throw new RangeError(`repeatInterleave: outputSize must be a non-negative integer; got ${JSON.stringify(size)}`);
  if (typeof repeats === 'number') {
    if (!Number.isInteger(repeats) || repeats < 0) throw new RangeError(`repeatInterleave: repeats must be a non-negative integer; got ${JSON.stringify(repeats)}`);
    if (size !== undefined && size !== n * repeats) throw new RangeError(`repeatInterleave: outputSize ${size} is not the result's length ${n} × ${repeats} = ${n * repeats}`);
    const w = v.ndim === 0 ? v.reshape([1]) : v;
    // [.., n, ..] -> [.., n, r, ..] (a view) -> [.., n·r, ..]
    const grown = w.unsqueeze(d + 1).expand(w.shape.flatMap((m, k) => (k === d ? [m, repeats] : [m])));
    return grown.reshape(w.shape.map((m, k) => (k === d ? m * repeats : m)));
  }
  if (!(repeats instanceof Tensor)) throw new TypeError(`repeatInterleave: repeats must be a number or an integer tensor; got ${describeValue(repeats)}`);
  if (!isInteger(repeats.dtype)) throw new TypeError(`repeatInterleave: repeats must be an int32 or int64 tensor, as in PyTorch; got ${repeats.dtype}`);
  if (repeats.ndim > 1 || (repeats.numel() !== n && repeats.numel() !== 1)) {
    throw new RangeError(`repeatInterleave: repeats must be 0-D or 1-D with one count per slice (${n}) or one for all, as in PyTorch; got ${formatShape(repeats.shape)}`);
  }
  const w = v.ndim === 0 ? v.reshape([1]) : v;
  const counts = repeats.numel() === 1 && n !== 1 ? repeats.reshape([1]).expand([n]) : repeats.reshape([n]);
  if (n === 0) {
    if (size !== undefined && size !== 0) throw new RangeError(`repeatInterleave: outputSize ${size} is not the result's length 0 (no slices to repeat)`);
    return w.clone();
  }
  if (size === undefined) return apply(indexSelectOp, [w, hostPositions(counts, w.chip)], indexAttrs(d, true));
  return composite('repeatInterleave', () => {
    // slot j holds slice i where the running count passes j: the count of running ends <= j
    const ends = counts.cumsum(0);
    const slot = positions(size, w.chip).unsqueeze(1).ge(ends.unsqueeze(0)).sum(1);
    // repeats that do not sum to outputSize, or a negative one, fail on the device
    const wrong = ends.narrow(0, n - 1, 1).ne(size).logicalOr(counts.lt(0).any().reshape([1]));
    return apply(indexSelectOp, [w, slot.add(zeroOrFail(wrong))], indexAttrs(d, false));
  });
}

/** The positions each slice repeats at, from the counts read from the device (a sync). */
function hostPositions(counts: Tensor, chip: number): Tensor {
  if (tracing()) {
    throw new RangeError('repeatInterleave: the result\'s length is the sum of the repeats, which tpu.compile does not have while tracing ' +
      '(a compiled function is one program of static shapes): give { outputSize } (the sum) or a number of repeats');
  }
  const values = Array.from(counts._readSync('the repeats read of repeatInterleave') as ArrayLike<number | bigint>, Number);
  const bad = values.findIndex((c) => c < 0);
  if (bad >= 0) throw new RangeError(`repeatInterleave: repeats must not be negative, as in PyTorch; got ${values[bad]} at position ${bad}`);
  const out = new Int32Array(values.reduce((a, b) => a + b, 0));
  let k = 0;
  values.forEach((c, i) => out.fill(i, k, (k += c)));
  return upload('repeatInterleave', () => out, [out.length], 'int32', chip);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Each element, or slice along dim, repeated in place: a number or a tensor of counts
     * (torch.repeat_interleave); a tensor of counts is read from the device unless outputSize is given.
     * @example tpu.tensor([[1, 2], [3, 4]]).repeatInterleave(tpu.tensor(new Int32Array([1, 2])), 0) // [[1, 2], [3, 4], [3, 4]]
     */
    repeatInterleave(repeats?: number | Tensor | RepeatInterleaveOptions, dim?: number | null | RepeatInterleaveOptions, options?: RepeatInterleaveOptions): Tensor;
  }
}
installMethods({
  repeatInterleave(repeats, dim, options) { return repeatInterleave(this, repeats, dim, options); },
});
