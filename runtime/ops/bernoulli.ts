// tpu.bernoulli: 0/1 samples from the tpu.manualSeed generator (torch.bernoulli), in the
// input's dtype: 1 where a uniform draw falls below its probability. A number p is checked
// and compared on the host; a tensor of probabilities on the device (no read: a training loop
// drawing masks takes no sync, and tpu.compile traces it), where a probability outside [0, 1]
// fails the program with PyTorch's check. x.bernoulli_ (views/inplace-random.ts) draws the same way.
import { isFloating } from '../dtype.js';
import { numel } from '../shape.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { rand } from '../creation.js';
import { uniform, refuseGenerator } from '../random.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';
import { checkedOnDevice, firstFailure } from './device-check.js';

export interface BernoulliOptions {
  /** PyTorch's generator: not supported (one generator, tpu.manualSeed's); an error if given. */
  generator?: never;
}

/** 1 where a uniform draw falls below p (a number in [0, 1]), else 0: one draw per element, in row-major order. */
function bernoulliDraws(op: string, p: number, n: number): Float64Array {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${op}: p must be in [0, 1]; got ${p}`);
  const u = uniform(n);
  for (let i = 0; i < n; i++) u[i] = u[i]! < p ? 1 : 0;
  return u;
}

/** 1 where a uniform draw falls below the probability p holds there (broadcast to like's shape), compared on the device; a probability outside [0, 1] fails there. */
function drawsOnDevice(op: string, p: Tensor, like: Tensor): Tensor {
  const probs = p.detach().expand(...like.shape).to('float32');
  const draws = rand([...like.shape], { chip: like.chip }).lt(probs).to(like.dtype);
  const n = numel(like.shape);
  // NaN is neither >= 0 nor <= 1: it fails too, as PyTorch's check
  const inRange = probs.ge(0).logicalAnd(probs.le(1)).reshape([n]);
  return checkedOnDevice(draws, firstFailure(inRange), { op, text: 'every probability must be in [0, 1]; the one at flat position {k} (1-based) is not', n, batched: false });
}

/** 0/1 samples of probabilities `p` in the shape, dtype and chip of `like`, uploaded as `label` (tpu.bernoulli's and x.bernoulli_'s). */
export function sampleBernoulli(op: string, label: string, given: unknown, like: Tensor): Tensor {
  const p = specialized(given); // a tpu.compile number argument: its value, the trace specialized on it
  if (typeof p === 'number') return upload(label, () => bernoulliDraws(op, p, numel(like.shape)), [...like.shape], like.dtype, like.chip);
  if (!(p instanceof Tensor)) throw new TypeError(`${op}: p must be a number or a tensor of probabilities; got ${describeValue(p)}`);
  if (!isFloating(p.dtype)) throw new TypeError(`${op}: p must be a floating-point tensor of probabilities, as PyTorch's; got ${p.dtype}`);
  return drawsOnDevice(op, p, like);
}

/**
 * 0/1 samples (torch.bernoulli): each element 1 with the probability input holds there, in
 * input's floating dtype; with a number p, each element of input's shape and dtype 1 with
 * probability p. A probability outside [0, 1] (or NaN) is an error, as in PyTorch.
 * @example tpu.bernoulli(tpu.tensor([0, 1])) // [0, 1]
 * @example tpu.bernoulli(tpu.zeros([2, 3]), 0.5).shape // [2, 3]
 */
export function bernoulli(input: Tensor, p?: number | BernoulliOptions, options?: BernoulliOptions): Tensor {
  p = specialized(p);
  const [prob, opts] = typeof p === 'object' ? [undefined, p] : [p, options];
  refuseGenerator('tpu.bernoulli', readOptions<BernoulliOptions>('tpu.bernoulli', opts, ['generator']).generator);
  if (!(input instanceof Tensor)) throw new TypeError(`tpu.bernoulli: input must be a tensor; got ${describeValue(input)}`);
  if (prob === undefined && !isFloating(input.dtype)) throw new TypeError(`tpu.bernoulli: input must be a floating-point tensor of probabilities, as PyTorch's; got ${input.dtype}`);
  return sampleBernoulli('tpu.bernoulli', 'bernoulli', prob ?? input, input);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * 0/1 samples, 1 with the probability this holds (or with probability p, in this shape and dtype) (torch.Tensor.bernoulli).
     * @example tpu.full([4], 0.5).bernoulli().shape // [4]
     */
    bernoulli(p?: number | BernoulliOptions, options?: BernoulliOptions): Tensor;
  }
}
installMethods({
  bernoulli(p, options) { return bernoulli(this, p, options); },
});
