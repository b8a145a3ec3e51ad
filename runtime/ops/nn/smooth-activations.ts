// Smooth activations (torch.nn.functional's softplus, logsigmoid, mish, softsign, tanhshrink,
// softmin), composed. softplus, logSigmoid and mish follow PyTorch's kernels (bfloat16 computed
// in float32, rounded once); softsign, tanhshrink and softmin are composed in PyTorch too
// (torch/nn/functional.py), so they are here the same way, op by op, in the input's dtype.
import { byPosition } from '../../options.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { where } from '../where.js';
import { softmax } from '../composed.js';
import type { DTypeOption } from '../dim-argument.js';
import { inFloat32 } from './activations.js';
import { within } from './piecewise-activations.js';
import { numberOption } from './number-option.js';

export interface SoftplusOptions {
  /** Sharpness (default 1): log(1 + e^(beta·x)) / beta. */
  beta?: number;
  /** Above this beta·x, softplus is x (default 20). */
  threshold?: number;
}

/** PyTorch's softplus kernel over float32 v: x where beta·x > threshold, else log1p(e^(beta·x)) / beta. */
function softplusOf(v: Tensor, beta: number, threshold: number): Tensor {
  const over = (beta === 1 ? v : v.mul(beta)).gt(threshold);
  const s = within(over.logicalNot(), v);
  const sp = (beta === 1 ? s : s.mul(beta)).exp().log1p();
  return where(over, v, beta === 1 ? sp : sp.div(beta));
}

/**
 * log(1 + e^(beta·x)) / beta, x itself where beta·x > threshold (torch.nn.functional.softplus).
 * @example tpu.nn.functional.softplus(x, { beta: 2, threshold: 10 })
 */
export function softplus(x: Tensor, ...args: [beta?: number, threshold?: number, options?: SoftplusOptions] | [SoftplusOptions]): Tensor {
  const o = byPosition<SoftplusOptions>('softplus', args, ['beta', 'threshold']);
  const beta = numberOption('softplus', 'beta', o.beta, 1);
  const threshold = numberOption('softplus', 'threshold', o.threshold, 20);
  return composite('softplus', () => inFloat32('softplus', x, (v) => softplusOf(v, beta, threshold)));
}

/**
 * log(sigmoid(x)), stable for any x (torch.nn.functional.logsigmoid), in PyTorch's form
 * min(x, 0) - log1p(e^-|x|).
 * @example tpu.nn.functional.logSigmoid(x)
 */
export function logSigmoid(x: Tensor): Tensor {
  return composite('logSigmoid', () => inFloat32('logSigmoid', x, (v) => {
    const negative = v.lt(0);
    // |x| whose slope at 0 is +1: the gradient at 0 is PyTorch's 1/2
    const magnitude = where(negative, v.neg(), v);
    return where(negative, v, 0).sub(magnitude.neg().exp().log1p());
  }));
}

/**
 * x·tanh(softplus(x)) (torch.nn.functional.mish).
 * @example tpu.nn.functional.mish(x)
 */
export function mish(x: Tensor): Tensor {
  // softplus(x) is x above 20, where tanh is 1 either way: so the gradient there is 1, as
  // PyTorch's, not 0·inf from e^x
  return composite('mish', () => inFloat32('mish', x, (v) => v.mul(softplusOf(v, 1, 20).tanh())));
}

/**
 * x / (1 + |x|) (torch.nn.functional.softsign).
 * @example tpu.nn.functional.softsign(x)
 */
export function softsign(x: Tensor): Tensor {
  return composite('softsign', () => x.div(x.abs().add(1)));
}

/**
 * x - tanh(x) (torch.nn.functional.tanhshrink).
 * @example tpu.nn.functional.tanhshrink(x)
 */
export function tanhshrink(x: Tensor): Tensor {
  return composite('tanhshrink', () => x.sub(x.tanh()));
}

/**
 * softmax(-x) over dim (torch.nn.functional.softmin); takes softmax's arguments.
 * @example tpu.nn.functional.softmin(x, 1)
 */
export function softmin(x: Tensor, dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor {
  return composite('softmin', () => softmax(x.neg(), dim, options));
}
