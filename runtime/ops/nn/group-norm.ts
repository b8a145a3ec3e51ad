// groupNorm (torch.nn.functional.group_norm), composed: each sample's channels split into
// numGroups groups, each group normalized over its channels and positions (mean and biased
// variance of the [N, G, C/G·rest] view), then scaled and shifted per channel. The result is
// elementwise over the input, so it takes the input's layout as PyTorch's does.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { scalarConstant } from '../constant.js';
import { composite } from '../../modes/composite.js';
import { imageLayout } from '../../views/result-layout.js';
import { inFloat32 } from './activations.js';
import { checkAffineParams, epsOf, type NormalizationOptions } from './normalization.js';
import { channelAffine, checkChannelInput } from './channel-affine.js';
import { specialized } from '../../jit/live-number.js';

/**
 * torch.nn.functional.group_norm(input [N, C, *], numGroups, { weight [C], bias [C], eps = 1e-5 }).
 * @example tpu.nn.functional.groupNorm(tpu.tensor([[1, 3, 5, 9]]), 2) // [[-1.0000, 1.0000, -1.0000, 1.0000]]
 */
export function groupNorm(x: Tensor, numGroups: number, opts: NormalizationOptions = {}): Tensor {
  const o = readOptions<NormalizationOptions>('groupNorm', opts, ['weight', 'bias', 'eps']);
  checkChannelInput('groupNorm', x);
  const c = x.shape[1]!;
  numGroups = specialized(numGroups);
  if (!Number.isInteger(numGroups) || numGroups < 1 || c % numGroups !== 0) {
    throw new RangeError(`groupNorm: numGroups must be a positive integer dividing the input's ${c} channels (dim 1 of ${formatShape(x.shape)}); got ${JSON.stringify(numGroups)}`);
  }
  checkAffineParams('groupNorm', o, [c]);
  const eps = epsOf('groupNorm', o, 1e-5);
  const [n, g] = [x.shape[0]!, numGroups];
  const alongChannels = [n, c, ...new Array<number>(x.ndim - 2).fill(1)];
  return imageLayout([x], inFloat32('groupNorm', x, (v) => composite('groupNorm', () => {
    const grouped = v.reshape([n, g, -1]);
    const mean = grouped.mean(2, true);
    const variance = grouped.sub(mean).square().mean(2, true);
    // each group's statistics repeated for its channels, to broadcast over the input as it is
    const perChannel = (t: Tensor) => t.expand([n, g, c / g]).reshape(alongChannels);
    const normalized = v.sub(perChannel(mean)).div(perChannel(variance).add(scalarConstant(eps, 'float32')).sqrt());
    return channelAffine('groupNorm', normalized, o);
  })));
}
