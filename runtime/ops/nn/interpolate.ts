// interpolate over the spatial dims of [N, C, ...]: per dim, an indexSelect for each tap
// (host-computed source indices, program constants) weighted by constant weights and summed
// (interpolate-taps.ts has PyTorch's rules). Composed, so the gradient is the scatter of those.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { constantTensor } from '../constant.js';
import { inFloat32 } from './activations.js';
import { imageLayout } from '../../views/result-layout.js';
import { specialized } from '../../jit/live-number.js';
import { interpolateTaps, type InterpolateMode } from './interpolate-taps.js';

export interface InterpolateOptions {
  size?: number | readonly number[];
  scaleFactor?: number | readonly number[];
  mode?: InterpolateMode;
  alignCorners?: boolean;
  /** true: the output size comes from the scale factor and the resampling from the sizes alone (PyTorch's recompute_scale_factor). */
  recomputeScaleFactor?: boolean;
  /** Antialiased downsampling (modes 'bilinear' and 'bicubic'), as PyTorch's antialias=True. */
  antialias?: boolean;
}

const MODES: readonly string[] = ['nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic'];
/** The spatial dims each interpolating mode takes (the nearest modes take any). */
const SPATIAL: Partial<Record<InterpolateMode, number>> = { linear: 1, bilinear: 2, bicubic: 2 };

function perDim(op: string, name: string, v: number | readonly number[], n: number): number[] {
  v = specialized(v); // sizes and scale factors shape the result
  const list = typeof v === 'number' ? new Array(n).fill(v) : [...v];
  if (list.length !== n || !list.every((x) => typeof x === 'number' && x > 0)) {
    throw new RangeError(`${op}: ${name} must be a positive number or ${n} of them; got ${JSON.stringify(v)}`);
  }
  return list;
}

/**
 * Resizes [n, c, h, w] images (torch.nn.functional.interpolate).
 * @example tpu.nn.functional.interpolate(images, { scaleFactor: 2 }).shape // [2, 3, 16, 16]
 */
export function interpolate(x: Tensor, opts: InterpolateOptions): Tensor {
  readOptions<InterpolateOptions>('interpolate', opts, ['size', 'scaleFactor', 'mode', 'alignCorners', 'recomputeScaleFactor', 'antialias']);
  const op = 'interpolate';
  if (!(x instanceof Tensor) || x.ndim < 3) throw new RangeError(`${op}: input must be [N, C, ...spatial]; got ${x instanceof Tensor ? formatShape(x.shape) : typeof x}`);
  const mode = opts.mode ?? 'nearest';
  const spatial = x.ndim - 2;
  if (!MODES.includes(mode)) throw new TypeError(`${op}: mode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}; got ${JSON.stringify(mode)}`);
  const needs = SPATIAL[mode];
  if (needs !== undefined && spatial !== needs) throw new RangeError(`${op}: mode '${mode}' needs a ${needs + 2}-D input; got ${formatShape(x.shape)}`);
  if ((opts.size === undefined) === (opts.scaleFactor === undefined)) throw new TypeError(`${op}: give exactly one of size and scaleFactor`);
  const nearest = mode === 'nearest' || mode === 'nearest-exact';
  if (nearest && opts.alignCorners !== undefined) throw new TypeError(`${op}: alignCorners only applies to modes 'linear', 'bilinear' and 'bicubic'; got mode '${mode}'`);
  for (const name of ['alignCorners', 'recomputeScaleFactor', 'antialias'] as const) {
    if (opts[name] !== undefined && typeof opts[name] !== 'boolean') throw new TypeError(`${op}: ${name} must be a boolean; got ${JSON.stringify(opts[name])}`);
  }
  if (opts.recomputeScaleFactor === true && opts.size !== undefined) throw new TypeError(`${op}: recomputeScaleFactor is not meaningful with an explicit size`);
  const antialias = opts.antialias ?? false;
  if (antialias && mode !== 'bilinear' && mode !== 'bicubic') throw new TypeError(`${op}: antialias only applies to modes 'bilinear' and 'bicubic'; got mode '${mode}'`);
  const inSizes = x.shape.slice(2);
  const scales = opts.scaleFactor === undefined ? undefined : perDim(op, 'scaleFactor', opts.scaleFactor, spatial);
  const outSizes = opts.size !== undefined ? perDim(op, 'size', opts.size, spatial) : inSizes.map((n, i) => Math.floor(n * scales![i]!));
  if (!outSizes.every(Number.isInteger)) throw new RangeError(`${op}: size must be integers; got ${formatShape(outSizes)}`);
  // recomputeScaleFactor: the kernel sees only the sizes, as if size had been given
  const kernelScales = opts.recomputeScaleFactor === true ? undefined : scales;
  return imageLayout([x], composite(op, () => {
    const run = (v: Tensor) => {
      let y = v;
      inSizes.forEach((n, i) => {
        const dim = 2 + i;
        const { index, weight } = interpolateTaps(n, outSizes[i]!, kernelScales?.[i], mode, opts.alignCorners ?? false, antialias);
        const gather = (k: number) => y.indexSelect(dim, constantTensor(index[k]!, [outSizes[i]!], 'int32'));
        if (weight === undefined) {
          y = gather(0);
          return;
        }
        const shape = y.shape.map((m, d) => (d === dim ? outSizes[i]! : 1));
        // PyTorch's Σ source·weight (between inf and a finite value linear gives inf, not the
        // NaN of a + (b - a)·w at w = 0)
        let sum: Tensor | undefined;
        weight.forEach((w, k) => {
          const term = gather(k).mul(constantTensor(w, shape, 'float32'));
          sum = sum === undefined ? term : sum.add(term);
        });
        y = sum!;
      });
      return y;
    };
    return nearest ? run(x) : inFloat32(`interpolate (mode '${mode}')`, x, run);
  }));
}
