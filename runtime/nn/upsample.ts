// nn.Upsample: interpolate as a layer, to a size or by a scale factor.
import type { Tensor } from '../tensor.js';
import { interpolate, type InterpolateOptions } from '../ops/nn/interpolate.js';
import { Module } from './module.js';
import { layerArguments } from './layer-arguments.js';

/**
 * Resizes [n, c, ...spatial] inputs (torch.nn.Upsample; mode 'nearest'); give size or scaleFactor.
 * @example new tpu.nn.Upsample({ scaleFactor: 2, mode: 'bilinear' }).forward(images)
 */
export class Upsample extends Module {
  readonly size: number | readonly number[] | undefined;
  readonly scaleFactor: number | readonly number[] | undefined;
  readonly mode: NonNullable<InterpolateOptions['mode']>;
  readonly alignCorners: boolean | undefined;

  constructor(...args: [size?: number | readonly number[] | null, scaleFactor?: number | readonly number[] | null, mode?: InterpolateOptions['mode'], alignCorners?: boolean]
    | [size: number | readonly number[] | null, options: Omit<InterpolateOptions, 'size'>] | [options: InterpolateOptions]) {
    super();
    const o = layerArguments<InterpolateOptions>('Upsample', args.map((a) => a ?? undefined), ['size', 'scaleFactor', 'mode', 'alignCorners']);
    this.size = o.size;
    this.scaleFactor = o.scaleFactor;
    this.mode = o.mode ?? 'nearest';
    this.alignCorners = o.alignCorners;
    if ((this.size === undefined) === (this.scaleFactor === undefined)) throw new TypeError('nn.Upsample: give exactly one of size and scaleFactor');
    if (!['nearest', 'linear', 'bilinear'].includes(this.mode)) throw new TypeError(`nn.Upsample: mode must be 'nearest', 'linear' or 'bilinear'; got ${JSON.stringify(this.mode)}`);
    if (this.alignCorners !== undefined && typeof this.alignCorners !== 'boolean') throw new TypeError(`nn.Upsample: alignCorners must be a boolean; got ${JSON.stringify(this.alignCorners)}`);
  }

  forward(x: Tensor): Tensor {
    const { size, scaleFactor, mode, alignCorners } = this;
    return interpolate(x, { mode, ...(size === undefined ? { scaleFactor } : { size }), ...(alignCorners === undefined ? {} : { alignCorners }) });
  }

  protected override extraRepr(): string {
    const shown = (v: number | readonly number[]) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);
    return `${this.size === undefined ? `scaleFactor=${shown(this.scaleFactor!)}` : `size=${shown(this.size)}`}, mode='${this.mode}'`;
  }
}
