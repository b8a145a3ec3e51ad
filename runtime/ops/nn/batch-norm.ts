// batchNorm (torch.nn.functional.batch_norm), composed: per-channel statistics over every dim
// but dim 1 of [N, C, *]. Training normalizes by the batch mean and biased variance and moves
// the running statistics toward the batch mean and the UNBIASED variance (in place, outside
// autograd), as PyTorch's kernel does; eval normalizes by the running statistics.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { scalarConstant } from '../constant.js';
import { composite } from '../../modes/composite.js';
import { noGrad } from '../../autograd/grad-mode.js';
import { imageLayout } from '../../views/result-layout.js';
import { inFloat32 } from './activations.js';
import { checkAffineParams, epsOf, type NormalizationOptions } from './normalization.js';
import { channelAffine, checkChannelInput } from './channel-affine.js';
import { specialized } from '../../jit/live-number.js';

export interface BatchNormOptions extends NormalizationOptions {
  /** Normalize by the batch's statistics and update the running ones (default false, as PyTorch's F.batch_norm). */
  training?: boolean;
  /** The running statistics' step toward the batch's (default 0.1). */
  momentum?: number;
}

const KEYS = ['weight', 'bias', 'training', 'momentum', 'eps'] as const;

/**
 * torch.nn.functional.batch_norm(input [N, C, *], runningMean [C] | null, runningVar [C] | null, { weight, bias, training, momentum, eps }).
 * @example tpu.nn.functional.batchNorm(tpu.tensor([[1], [3]]), null, null, { training: true }) // [[-1.0000], [1.0000]]
 */
export function batchNorm(x: Tensor, runningMean: Tensor | null, runningVar: Tensor | null, opts: BatchNormOptions = {}): Tensor {
  const o = readOptions<BatchNormOptions>('batchNorm', opts, [...KEYS]);
  const momentum = specialized(o.momentum === undefined ? 0.1 : o.momentum);
  if (typeof momentum !== 'number' || !Number.isFinite(momentum)) {
    throw new TypeError(`batchNorm: momentum must be a finite number (as F.batch_norm's; nn.BatchNorm takes null for a cumulative average); got ${JSON.stringify(momentum)}`);
  }
  return batchNormBy('batchNorm', x, runningMean ?? null, runningVar ?? null, o, momentum);
}

/**
 * batchNorm whose running statistics step by `factor`: a number, or a 0-d float32 tensor
 * (nn.BatchNorm's cumulative average, 1 / numBatchesTracked, computed on the device).
 */
export function batchNormBy(op: string, x: Tensor, runningMean: Tensor | null, runningVar: Tensor | null, o: BatchNormOptions, factor: number | Tensor): Tensor {
  checkChannelInput(op, x);
  const c = x.shape[1]!;
  for (const [name, t] of [['runningMean', runningMean], ['runningVar', runningVar]] as const) {
    if (t !== null && (!(t instanceof Tensor) || t.shape.length !== 1 || t.shape[0] !== c)) {
      throw new RangeError(`${op}: ${name} must be null or a tensor of shape [${c}] (the input's channels, dim 1 of ${formatShape(x.shape)}); got ${t instanceof Tensor ? formatShape(t.shape) : typeof t}`);
    }
  }
  checkAffineParams(op, o, [c]);
  const training = o.training ?? false;
  if (typeof training !== 'boolean') throw new TypeError(`${op}: training must be a boolean; got ${JSON.stringify(training)}`);
  if (!training && (runningMean === null || runningVar === null)) {
    throw new TypeError(`${op}: runningMean and runningVar must be tensors when training is false (eval normalizes by them); pass training: true to use the batch's statistics`);
  }
  const count = x.numel() / c;
  if (training && count <= 1) throw new RangeError(`${op}: expected more than 1 value per channel when training; got input shape ${formatShape(x.shape)}`);
  const eps = scalarConstant(epsOf(op, o, 1e-5), 'float32');
  return imageLayout([x], inFloat32(op, x, (v) => {
    const [mean, variance] = training
      ? batchStatistics(v, x.shape.map((_, d) => d).filter((d) => d !== 1))
      : [runningMean!, runningVar!].map((t) => t.to('float32').reshape([c, ...new Array<number>(x.ndim - 2).fill(1)])) as [Tensor, Tensor];
    if (training) {
      noGrad(() => {
        if (runningMean !== null) stepToward(runningMean, mean, factor);
        if (runningVar !== null) stepToward(runningVar, variance.mul(count / (count - 1)), factor);
      });
    }
    return composite(op, () => channelAffine(op, v.sub(mean).div(variance.add(eps).sqrt()), o));
  }));
}

/** The batch's per-channel mean and biased variance, keepdim (they broadcast against the input). */
function batchStatistics(v: Tensor, dims: number[]): [Tensor, Tensor] {
  const mean = v.mean(dims, true);
  return [mean, v.sub(mean).square().mean(dims, true)];
}

/** running ← (1 - factor)·running + factor·batch, in place (PyTorch's running-statistics update). */
function stepToward(running: Tensor, batch: Tensor, factor: number | Tensor): void {
  const keep = typeof factor === 'number' ? 1 - factor : factor.neg().add(1);
  running.copy_(running.to('float32').mul(keep).add(batch.reshape([running.shape[0]!]).mul(factor)));
}
