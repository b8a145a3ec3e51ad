// adaptiveAvgPool2d, composed: output cell i along a dim averages the input's
// [floor(i·in/out), ceil((i+1)·in/out)) (PyTorch's windows, which may overlap). A window is a
// product of an H and a W range, so the average is taken along H, then along W.
import { isFloating } from '../../dtype.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { imageLayout } from '../../views/result-layout.js';
import { concat } from '../concat.js';
import { inFloat32 } from './activations.js';
import { specialized } from '../../jit/live-number.js';

/**
 * torch.nn.functional.adaptive_avg_pool2d(input [N, C, H, W] or [C, H, W], outputSize): a number,
 * or [h, w] where null keeps the input's size.
 * @example tpu.nn.functional.adaptiveAvgPool2d(tpu.tensor([[[1, 2, 3], [4, 5, 6]]]), 1) // [[[3.5]]]
 */
export function adaptiveAvgPool2d(x: Tensor, outputSize: number | readonly (number | null)[]): Tensor {
  if (!(x instanceof Tensor) || (x.ndim !== 3 && x.ndim !== 4) || x.shape.slice(-2).includes(0)) {
    throw new RangeError(`adaptiveAvgPool2d: input must be [N, C, H, W] or [C, H, W] with H, W > 0; got ${x instanceof Tensor ? formatShape(x.shape) : typeof x}`);
  }
  if (!isFloating(x.dtype)) throw new TypeError(`adaptiveAvgPool2d: input must be float32 or bfloat16, as in PyTorch; got ${x.dtype}`);
  outputSize = specialized(outputSize);
  const size = typeof outputSize === 'number' ? [outputSize, outputSize] : outputSize;
  const valid = Array.isArray(size) && size.length === 2 && size.every((n) => n === null || (Number.isInteger(n) && n >= 1));
  if (!valid) throw new RangeError(`adaptiveAvgPool2d: outputSize must be a positive integer or [h, w] of them (null keeps that dim); got ${JSON.stringify(outputSize)}`);
  const h = x.ndim - 2;
  const out = size.map((n, i) => n ?? x.shape[h + i]!);
  return imageLayout([x], inFloat32('adaptiveAvgPool2d', x, (v) => composite('adaptiveAvgPool2d', () =>
    adaptiveMean(adaptiveMean(v, h, out[0]!), h + 1, out[1]!))));
}

/** x averaged along `dim` into `out` windows. */
function adaptiveMean(x: Tensor, dim: number, out: number): Tensor {
  const size = x.shape[dim]!;
  if (size % out === 0) {
    // equal windows side by side: one reshape and one mean (the identity when out == size)
    const split = [...x.shape.slice(0, dim), out, size / out, ...x.shape.slice(dim + 1)];
    return x.reshape(split).mean(dim + 1);
  }
  const windows = Array.from({ length: out }, (_, i) => {
    const start = Math.floor((i * size) / out);
    return x.narrow(dim, start, Math.ceil(((i + 1) * size) / out) - start).mean(dim, true);
  });
  return concat(windows, dim);
}
