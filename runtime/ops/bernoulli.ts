// tpu.bernoulli: 0/1 samples from the tpu.manualSeed generator (torch.bernoulli), drawn on the
// host from probabilities read there (each checked to lie in [0, 1], as PyTorch's), uploaded
// in the input's dtype; x.bernoulli_ (views/inplace-random.ts) draws the same way.
import { isFloating } from '../dtype.js';
import { numel } from '../shape.js';
import { Tensor } from '../tensor.js';
import { upload } from '../upload.js';
import { uniform, refuseGenerator } from '../random.js';
import { readOptions } from '../options.js';
import { installMethods } from '../install-methods.js';
import { describeValue } from '../distributed/describe-value.js';
import { specialized } from '../jit/live-number.js';

export interface BernoulliOptions {
  /** PyTorch's generator: not supported (one generator, tpu.manualSeed's); an error if given. */
  generator?: never;
}

/** `p` as host values: a number in [0, 1], or a floating tensor's values (broadcast to `shape`), each in [0, 1]. */
function probabilities(op: string, p: unknown, shape: readonly number[]): number | ArrayLike<number> {
  p = specialized(p); // a tpu.compile number argument: its value, the trace specialized on it
  if (typeof p === 'number') {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`${op}: p must be in [0, 1]; got ${p}`);
    return p;
  }
  if (!(p instanceof Tensor)) throw new TypeError(`${op}: p must be a number or a tensor of probabilities; got ${describeValue(p)}`);
  if (!isFloating(p.dtype)) throw new TypeError(`${op}: p must be a floating-point tensor of probabilities, as PyTorch's; got ${p.dtype}`);
  const values = p.detach().expand(...shape).dataSync();
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!(v >= 0 && v <= 1)) throw new RangeError(`${op}: every probability must be in [0, 1]; got ${v} at flat index ${i}`);
  }
  return values as ArrayLike<number>;
}

/** 1 where a uniform draw falls below its probability, else 0: one draw per element, in row-major order. */
function bernoulliDraws(p: number | ArrayLike<number>, n: number): Float64Array {
  const u = uniform(n);
  for (let i = 0; i < n; i++) u[i] = u[i]! < (typeof p === 'number' ? p : p[i]!) ? 1 : 0;
  return u;
}

/** 0/1 samples of probabilities `p` in the shape, dtype and chip of `like`, uploaded as `label` (tpu.bernoulli's and x.bernoulli_'s). */
export function sampleBernoulli(op: string, label: string, p: unknown, like: Tensor): Tensor {
  const values = probabilities(op, p, like.shape);
  return upload(label, () => bernoulliDraws(values, numel(like.shape)), [...like.shape], like.dtype, like.chip);
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
