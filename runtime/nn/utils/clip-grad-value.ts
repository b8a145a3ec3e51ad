// torch.nn.utils.clip_grad_value_: every gradient clamped in place to [-clipValue, clipValue]
// (PyTorch's clamp_min then clamp_max: a NaN stays NaN). A DTensor's gradient is clamped piece by
// piece on its chips (its full value's elements, as PyTorch's DTensor clamp).
import { DTensor } from '../../distributed/dtensor.js';
import { describeValue } from '../../distributed/describe-value.js';
import { noGrad } from '../../autograd/grad-mode.js';
import { isOptions, readOptions } from '../../options.js';
import { parametersWithGrads, type Parameters } from './parameters-with-grads.js';
import { liveMap, numberValue } from '../../jit/live-number.js';

const WHO = 'clipGradValue_';

/**
 * Clamps the gradients of `parameters` in place to [-clipValue, clipValue] (torch.nn.utils.clip_grad_value_).
 * @example
 * const q = tpu.tensor([3, -0.25], { requiresGrad: true });
 * q.mul(q).div(2).sum().backward();
 * tpu.nn.utils.clipGradValue_([q], 1);
 * q.grad // [1, -0.25]
 */
export function clipGradValue_(parameters: Parameters, clipValue: number | { clipValue: number }): void {
  const v = isOptions(clipValue) ? readOptions<{ clipValue: number }>(WHO, clipValue, ['clipValue']).clipValue : clipValue;
  if (typeof numberValue(v) !== 'number') throw new TypeError(`${WHO}: clipValue must be a number; got ${describeValue(v)}`);
  // a tpu.compile number argument stays live (the bounds are program inputs)
  const lo = liveMap(v!, (value) => -value);
  noGrad(() => {
    for (const p of parametersWithGrads(WHO, parameters)) {
      if (p instanceof DTensor) p._updateGrad_((piece) => piece.clamp_(lo, v));
      else p._grad!.clamp_(lo, v);
    }
  });
}
