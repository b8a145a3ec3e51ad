// pad(x, [left, right, top, bottom, ...], { value }): PyTorch's constant padding, last dim
// first; negative amounts crop. The fill value is a run-time scalar. The 'reflect',
// 'replicate' and 'circular' modes are pad-edges.ts.
import { readOptions } from '../options.js';
import { formatShape } from '../shape.js';
import { apply } from '../modes/dispatch.js';
import { Tensor } from '../tensor.js';
import { defineOp } from './op.js';
import { embedSlice, slice, type SliceAttrs } from './slice.js';
import { cropOf, type PadAttrs } from './pad-crop.js';
import { specialized } from '../jit/live-number.js';
import { padEdges, type EdgeMode } from './pad-edges.js';

export const padOp = defineOp<PadAttrs>({
  name: 'pad',
  infer([x, v], { pads }) {
    if (v!.dtype === 'bool' && x!.dtype !== 'bool') throw new TypeError('pad: value must be a number');
    const shape = x!.shape.map((n, d) => n + pads[d]![0]! + pads[d]![1]!);
    if (shape.some((n) => n < 0)) throw new RangeError(`pad: padding ${JSON.stringify(pads)} crops more than the input ${formatShape(x!.shape)} has`);
    return { shape, dtype: x!.dtype };
  },
  grad(g, [x], _out, { pads }) {
    const input = (x as Tensor).shape;
    const crop = cropOf(input, pads);
    const inner: SliceAttrs = { begin: pads.map(([b]) => Math.max(b!, 0)), step: pads.map(() => 1), count: crop.count };
    const kept = apply(slice, [g], inner);
    return [pads.some(([b, a]) => b! < 0 || a! < 0) ? apply(embedSlice, [kept], { ...crop, shape: input }) : kept, null];
  },
});

export interface PadOptions {
  /** 'constant' (default), or the edge 'reflect'ed, 'replicate'd or wrapped 'circular' (the last 1-3 dims of a batch). */
  mode?: 'constant' | EdgeMode;
  /** The fill of 'constant' (default 0). */
  value?: number;
}

/**
 * torch.nn.functional.pad: `pad` lists (before, after) pairs starting from the last dim.
 * @example tpu.nn.functional.pad(tpu.tensor([1, 2]), [1, 1]) // [0, 1, 2, 0]
 * @example tpu.nn.functional.pad(tpu.tensor([[1, 2, 3]]), [2, 1], { mode: 'reflect' }) // [[3, 2, 1, 2, 3, 2]]
 * @example tpu.nn.functional.pad(tpu.tensor([[1, 2, 3]]), [2, 1], { mode: 'circular' }) // [[2, 3, 1, 2, 3, 1]]
 */
export function pad(x: Tensor, padding: readonly number[], opts: PadOptions = {}): Tensor {
  readOptions<PadOptions>('pad', opts, ['mode', 'value']);
  padding = specialized(padding);
  if (!Array.isArray(padding) || padding.length % 2 !== 0 || !padding.every(Number.isInteger)) {
    throw new TypeError(`pad: padding must be an even-length array of integers; got ${JSON.stringify(padding)}`);
  }
  if (padding.length / 2 > x.ndim) {
    throw new RangeError(`pad: padding of length ${padding.length} pads ${padding.length / 2} dims but the input ${formatShape(x.shape)} has ${x.ndim}`);
  }
  const mode = opts.mode ?? 'constant';
  if (mode === 'reflect' || mode === 'replicate' || mode === 'circular') {
    if (opts.value !== undefined) throw new TypeError(`pad: mode '${mode}' takes no value, as in PyTorch; got value ${opts.value}`);
    return padEdges(x, padding, mode);
  }
  if (mode !== 'constant') throw new TypeError(`pad: mode must be 'constant', 'reflect', 'replicate' or 'circular'; got ${JSON.stringify(mode)}`);
  const pads = x.shape.map(() => [0, 0]);
  for (let i = 0; i < padding.length / 2; i++) pads[x.ndim - 1 - i] = [padding[2 * i]!, padding[2 * i + 1]!];
  return apply(padOp, [x, opts.value ?? 0], { pads });
}
