// cov and corrcoef (torch.cov, torch.corrcoef): rows are variables, columns observations,
// composed over mean, matmul and where. Weights that are negative fail on the device (no host
// read per call), as PyTorch's check fails on the host.
import { formatShape } from '../shape.js';
import { isFloating } from '../dtype.js';
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { readOptions } from '../options.js';
import { composite } from '../modes/composite.js';
import { where } from './where.js';
import { checkedOnDevice, firstFailure } from './device-check.js';
import { tensorArg } from './tensor-arg.js';
import { specialized } from '../jit/live-number.js';

export interface CovOptions {
  /** Subtracted from the observation count (or weight sum) in the divisor: 1 (Bessel's) by default, 0 for the population covariance. */
  correction?: number;
  /** Integer repeat counts of the observations (one per column). */
  fweights?: Tensor | null;
  /** Floating importance weights of the observations (one per column). */
  aweights?: Tensor | null;
}

/** A weight tensor: 1-D, one per observation, of the dtype kind PyTorch wants, never negative (checked on the device). */
function observationWeights(name: 'fweights' | 'aweights', w: Tensor, observations: number, computeDType: Tensor['dtype']): Tensor {
  tensorArg('cov', name, w);
  if (w.ndim > 1) throw new RangeError(`cov: ${name} must have one or fewer dims; got ${formatShape(w.shape)}`);
  if (w.numel() !== observations) throw new RangeError(`cov: ${name} must have one value per observation (${observations}, the input's columns); got ${w.numel()}`);
  const integral = w.dtype === 'int32' || w.dtype === 'int64';
  if (name === 'fweights' && !integral) throw new TypeError(`cov: fweights must have an integer dtype, as in PyTorch; got ${w.dtype}`);
  if (name === 'aweights' && !isFloating(w.dtype)) throw new TypeError(`cov: aweights must have a floating dtype, as in PyTorch; got ${w.dtype}`);
  // checked as the compute dtype: the device check takes no int64, and a cast keeps the sign
  const cast = w.reshape([observations]).to(computeDType);
  if (observations === 0) return cast;
  const good = cast.reshape([1, observations]).lt(0).logicalNot(); // NaN passes, as PyTorch's (w < 0).any()
  return checkedOnDevice(cast, firstFailure(good), { op: 'cov', text: `${name} cannot be negative; the one at position {k} (1-based) is`, n: observations, batched: false });
}

/**
 * The covariance matrix of the variables in x's rows, its columns the observations; a 1-D
 * x is one variable (a 0-d result) (torch.cov). Integers give float32.
 * @example tpu.cov(tpu.tensor([[0, 1, 2], [2, 1, 0]])) // [[1, -1], [-1, 1]]
 * @example tpu.cov(tpu.tensor([1, 2, 3, 4]), { correction: 0 }) // 1.25
 */
export function cov(x: Tensor, options?: CovOptions): Tensor {
  tensorArg('cov', 'input', x);
  const o = readOptions<CovOptions>('cov', options, ['correction', 'fweights', 'aweights']);
  if (x.ndim > 2) throw new RangeError(`cov: the input must have 2 or fewer dims (variables × observations); got ${formatShape(x.shape)}`);
  if (x.dtype === 'bool') throw new TypeError("cov: bool input is not supported, as in PyTorch; convert it with x.to('float32')");
  const correction = specialized(o.correction ?? 1);
  if (!Number.isInteger(correction)) throw new TypeError(`cov: correction must be an integer, as in PyTorch; got ${JSON.stringify(correction)}`);
  const dtype = isFloating(x.dtype) ? x.dtype : 'float32';
  const observations = x.ndim < 2 ? x.numel() : x.shape[1]!;
  const fw = o.fweights ?? null;
  const aw = o.aweights ?? null;
  return composite('cov', () => {
    const v = (x.ndim < 2 ? x.reshape([1, observations]) : x).to(dtype);
    const f = fw && observationWeights('fweights', fw, observations, dtype);
    const a = aw && observationWeights('aweights', aw, observations, dtype);
    const w = f && a ? f.mul(a) : f ?? a;
    const wSum = w ? w.sum() : observations;
    const mean = w ? v.mul(w).sum(1).div(wSum) : v.mean(1);
    // PyTorch's divisor: a count (or weight sum) less the correction, the aweights' share of it; 0 where that is <= 0
    const divisor = w === null ? Math.max(observations - correction, 0)
      : clampedDivisor(correction === 0 ? (wSum as Tensor)
        : a === null ? (wSum as Tensor).sub(correction)
          : (wSum as Tensor).sub(w.mul(a).sum().div(wSum).mul(correction)));
    const centered = v.sub(mean.unsqueeze(1));
    return centered.matmul((w ? centered.mul(w) : centered).t()).div(divisor).squeeze();
  });
}

function clampedDivisor(d: Tensor): Tensor {
  return where(d.le(0), 0, d);
}

/**
 * Pearson's correlation coefficients of the variables in x's rows (torch.corrcoef), in [-1, 1];
 * a variable of constant values gives NaN, as in PyTorch.
 * @example tpu.corrcoef(tpu.tensor([[1, 2, 3], [3, 2, 1]])) // [[1, -1], [-1, 1]]
 */
export function corrcoef(x: Tensor): Tensor {
  tensorArg('corrcoef', 'input', x);
  if (x.ndim > 2) throw new RangeError(`corrcoef: the input must have 2 or fewer dims (variables × observations); got ${formatShape(x.shape)}`);
  return composite('corrcoef', () => {
    const c = cov(x);
    if (c.ndim === 0) return c.div(c);
    const std = c.diagonal().sqrt();
    return c.div(std.unsqueeze(1)).div(std.unsqueeze(0)).clamp(-1, 1);
  });
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * The covariance matrix of the variables in the rows, the columns the observations (torch.Tensor.cov): { correction, fweights, aweights }.
     * @example tpu.tensor([[1, 2, 3], [1, 1, 4]]).cov() // [[1, 1.5], [1.5, 3]]
     */
    cov(options?: CovOptions): Tensor;
    /**
     * Pearson's correlation coefficients of the variables in the rows (torch.Tensor.corrcoef).
     * @example tpu.tensor([[1, 2, 3], [2, 4, 6]]).corrcoef() // [[1, 1], [1, 1]]
     */
    corrcoef(): Tensor;
  }
}
installMethods({
  cov(options) { return cov(this, options); },
  corrcoef() { return corrcoef(this); },
});
