// interpolate (nearest, bilinear/linear) over the spatial dims of [N, C, ...]: per dim, an
// indexSelect with host-computed source indices (program constants) and, for linear
// modes, a lerp with constant weights. Composed, so the gradient is the scatter of those.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { constantTensor } from '../constant.js';
import { inFloat32 } from './activations.js';
import { imageLayout } from '../../views/result-layout.js';
import { specialized } from '../../jit/live-number.js';

export interface InterpolateOptions {
  size?: number | readonly number[];
  scaleFactor?: number | readonly number[];
  mode?: 'nearest' | 'bilinear' | 'linear';
  alignCorners?: boolean;
}

function perDim(op: string, name: string, v: number | readonly number[], n: number): number[] {
  v = specialized(v); // sizes and scale factors shape the result
  const list = typeof v === 'number' ? new Array(n).fill(v) : [...v];
  if (list.length !== n || !list.every((x) => typeof x === 'number' && x > 0)) {
    throw new RangeError(`${op}: ${name} must be a positive number or ${n} of them; got ${JSON.stringify(v)}`);
  }
  return list;
}

/** Source position of each output position along one dim (PyTorch's rules). */
function sources(inSize: number, outSize: number, scale: number | undefined, mode: string, alignCorners: boolean): number[] {
  const ratio = scale !== undefined ? 1 / scale : inSize / outSize;
  return Array.from({ length: outSize }, (_, i) => {
    if (mode === 'nearest') return Math.min(Math.floor(i * ratio), inSize - 1);
    if (alignCorners) return outSize > 1 ? (i * (inSize - 1)) / (outSize - 1) : 0;
    return Math.max((i + 0.5) * ratio - 0.5, 0);
  });
}

/**
 * Resizes [n, c, h, w] images (torch.nn.functional.interpolate).
 * @example tpu.nn.functional.interpolate(images, { scaleFactor: 2 }).shape // [2, 3, 16, 16]
 */
export function interpolate(x: Tensor, opts: InterpolateOptions): Tensor {
  readOptions<InterpolateOptions>('interpolate', opts, ['size', 'scaleFactor', 'mode', 'alignCorners']);
  const op = 'interpolate';
  if (!(x instanceof Tensor) || x.ndim < 3) throw new RangeError(`${op}: input must be [N, C, ...spatial]; got ${x instanceof Tensor ? formatShape(x.shape) : typeof x}`);
  const mode = opts.mode ?? 'nearest';
  const spatial = x.ndim - 2;
  if (mode !== 'nearest' && mode !== 'bilinear' && mode !== 'linear') throw new TypeError(`${op}: mode must be 'nearest', 'linear' or 'bilinear'; got ${JSON.stringify(mode)}`);
  if ((mode === 'bilinear' && spatial !== 2) || (mode === 'linear' && spatial !== 1)) {
    throw new RangeError(`${op}: mode '${mode}' needs a ${mode === 'bilinear' ? '4' : '3'}-D input; got ${formatShape(x.shape)}`);
  }
  if ((opts.size === undefined) === (opts.scaleFactor === undefined)) throw new TypeError(`${op}: give exactly one of size and scaleFactor`);
  if (mode === 'nearest' && opts.alignCorners !== undefined) throw new TypeError(`${op}: alignCorners only applies to linear modes`);
  const inSizes = x.shape.slice(2);
  const scales = opts.scaleFactor === undefined ? undefined : perDim(op, 'scaleFactor', opts.scaleFactor, spatial);
  const outSizes = opts.size !== undefined ? perDim(op, 'size', opts.size, spatial) : inSizes.map((n, i) => Math.floor(n * scales![i]!));
  if (!outSizes.every(Number.isInteger)) throw new RangeError(`${op}: size must be integers; got ${formatShape(outSizes)}`);
  return imageLayout([x], composite(op, () => {
    const run = (v: Tensor) => {
      let y = v;
      inSizes.forEach((n, i) => {
        const dim = 2 + i;
        const src = sources(n, outSizes[i]!, scales?.[i], mode, opts.alignCorners ?? false);
        if (mode === 'nearest') {
          y = y.indexSelect(dim, constantTensor(src, [src.length], 'int32'));
          return;
        }
        const lo = src.map(Math.floor);
        const hi = lo.map((l) => Math.min(l + 1, n - 1));
        const shape = y.shape.map((m, d) => (d === dim ? src.length : 1));
        const weight = constantTensor(src.map((s, k) => s - lo[k]!), shape, 'float32');
        const rest = constantTensor(src.map((s, k) => 1 - (s - lo[k]!)), shape, 'float32');
        const a = y.indexSelect(dim, constantTensor(lo, [lo.length], 'int32'));
        const b = y.indexSelect(dim, constantTensor(hi, [hi.length], 'int32'));
        // PyTorch's a·(1 - w) + b·w: between inf and a finite value the result is inf, not
        // the NaN of a + (b - a)·w at w = 0
        y = a.mul(rest).add(b.mul(weight));
      });
      return y;
    };
    return mode === 'nearest' ? run(x) : inFloat32(`interpolate (mode '${mode}')`, x, run);
  }));
}
