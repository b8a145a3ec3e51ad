// nn.Upsample: interpolate as a layer, to a size or by a scale factor.
import type { Tensor } from '../tensor.js';
import { interpolate, type InterpolateOptions } from '../ops/nn/interpolate.js';

/** nn.Upsample's options: interpolate's without antialias (PyTorch's Upsample has none). */
export type UpsampleOptions = Omit<InterpolateOptions, 'antialias'>;
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/**
 * Resizes [n, c, ...spatial] inputs (torch.nn.Upsample; mode 'nearest', 'nearest-exact', 'linear', 'bilinear' or 'bicubic'); give size or scaleFactor.
 * @example new tpu.nn.Upsample({ scaleFactor: 2, mode: 'bilinear' }).forward(images)
 */
export class Upsample extends Module {
  readonly size: number | readonly number[] | undefined;
  readonly scaleFactor: number | readonly number[] | undefined;
  readonly mode: NonNullable<InterpolateOptions['mode']>;
  readonly alignCorners: boolean | undefined;
  readonly recomputeScaleFactor: boolean | undefined;

  constructor(...args: [size?: number | readonly number[] | null, scaleFactor?: number | readonly number[] | null, mode?: InterpolateOptions['mode'], alignCorners?: boolean, recomputeScaleFactor?: boolean]
    | [size: number | readonly number[] | null, options: Omit<UpsampleOptions, 'size'>] | [options: UpsampleOptions]) {
    super();
    const o = layerArguments<UpsampleOptions>('Upsample', args.map((a) => a ?? undefined), ['size', 'scaleFactor', 'mode', 'alignCorners', 'recomputeScaleFactor']);
    this.size = o.size;
    this.scaleFactor = o.scaleFactor;
    this.mode = o.mode ?? 'nearest';
    this.alignCorners = o.alignCorners;
    this.recomputeScaleFactor = o.recomputeScaleFactor;
    if ((this.size === undefined) === (this.scaleFactor === undefined)) throw new TypeError('nn.Upsample: give exactly one of size and scaleFactor');
    const modes = ['nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic'];
    if (!modes.includes(this.mode)) throw new TypeError(`nn.Upsample: mode must be one of ${modes.map((m) => `'${m}'`).join(', ')}; got ${JSON.stringify(this.mode)}`);
    for (const name of ['alignCorners', 'recomputeScaleFactor'] as const) {
      if (this[name] !== undefined && typeof this[name] !== 'boolean') throw new TypeError(`nn.Upsample: ${name} must be a boolean; got ${JSON.stringify(this[name])}`);
    }
  }

  forward(x: Tensor): Tensor {
    const { size, scaleFactor, mode, alignCorners, recomputeScaleFactor } = this;
    return interpolate(x, { mode, ...(size === undefined ? { scaleFactor } : { size }), ...(alignCorners === undefined ? {} : { alignCorners }), ...(recomputeScaleFactor === undefined ? {} : { recomputeScaleFactor }) });
  }

  protected override extraRepr(): string {
    const shown = (v: number | readonly number[]) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);
    return `${this.size === undefined ? `scaleFactor=${shown(this.scaleFactor!)}` : `size=${shown(this.size)}`}, mode='${this.mode}'`;
  }
}
