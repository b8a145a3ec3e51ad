// What batchNorm and groupNorm share: the [N, C, *] input check and the per-channel scale and
// shift (weight and bias of shape [C] applied along dim 1).
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { inFloat32Saved, type NormalizationOptions } from './normalization.js';

export function checkChannelInput(op: string, x: unknown): asserts x is Tensor {
  if (!(x instanceof Tensor) || x.ndim < 2) {
    throw new RangeError(`${op}: input must be a tensor [N, C, *] of at least 2 dims; got ${x instanceof Tensor ? formatShape(x.shape) : x === null ? 'null' : typeof x}`);
  }
}

/** y·weight + bias per channel; the caller checked both are [C] (checkAffineParams) before any work. */
export function channelAffine(op: string, y: Tensor, o: NormalizationOptions): Tensor {
  const c = y.shape[1]!;
  const alongChannels = (p: Tensor) => p.reshape([c, ...new Array<number>(y.ndim - 2).fill(1)]);
  let out = o.weight ? y.mul(alongChannels(inFloat32Saved(o.weight))) : y;
  if (o.bias) out = out.add(alongChannels(o.bias.to('float32')));
  return out;
}
