// x.uniform_(a, b), x.normal_(mean, std) and x.bernoulli_(p): PyTorch's in-place random fills
// (weight init code, masks), drawn from the tpu.manualSeed generator on the host in float64 and
// written in x's dtype.
import { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isFloating } from '../dtype.js';
import { numel } from '../shape.js';
import { numbersByPosition, readOptions } from '../options.js';
import { normal, refuseGenerator, uniform } from '../random.js';
import { sampleBernoulli, type BernoulliOptions } from '../ops/bernoulli.js';
import { upload } from '../upload.js';
import { writeInPlace } from './inplace-ops.js';

/** `target` takes `n` host values made by `draw` (a fresh tensor: its old value is not read). */
export function fillRandom(op: string, target: Tensor, draw: (n: number) => Float64Array): Tensor {
  if (!isFloating(target.dtype)) throw new TypeError(`${op}: x must be a floating-point tensor (as PyTorch's); got ${target.dtype}`);
  const value = upload(op, () => draw(numel(target.shape)), [...target.shape], target.dtype, target.chip);
  return writeInPlace(op, target, value, true);
}

/** Uniform in [from, to), as torch.Tensor.uniform_. */
export function uniformIn(op: string, from: number, to: number): (n: number) => Float64Array {
  if (!(from <= to)) throw new RangeError(`${op}: from must be at most to; got from ${from}, to ${to}`);
  return (n) => uniform(n).map((u) => from + (to - from) * u);
}

/** N(mean, std²), as torch.Tensor.normal_. */
export function normalWith(op: string, mean: number, std: number): (n: number) => Float64Array {
  if (!(std >= 0)) throw new RangeError(`${op}: std must be at least 0; got ${std}`);
  return (n) => normal(n).map((z) => mean + std * z);
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * In place: uniform values in [from, to) (default [0, 1)), numbers positional or `{ from, to }` (torch.Tensor.uniform_).
     * @example tpu.zeros([3]).uniform_(-0.1, 0.1)
     */
    uniform_(from?: number | { from?: number; to?: number }, to?: number | { to?: number }): Tensor;
    /**
     * In place: normal values of `mean` and `std` (default 0, 1), positional or `{ mean, std }` (torch.Tensor.normal_).
     * @example tpu.zeros([3]).normal_(0, 0.02)
     */
    normal_(mean?: number | { mean?: number; std?: number }, std?: number | { std?: number }): Tensor;
    /**
     * In place: 1 with probability p (default 0.5), else 0, in x's dtype; p a number or a tensor
     * of probabilities broadcast to x's shape (torch.Tensor.bernoulli_).
     * @example tpu.zeros([3]).bernoulli_(1) // [1, 1, 1]
     */
    bernoulli_(p?: number | Tensor, options?: BernoulliOptions): Tensor;
  }
}
installMethods({
  uniform_(...args: unknown[]) {
    const { from = 0, to = 1 } = numbersByPosition('uniform_', ['from', 'to'], args);
    return fillRandom('uniform_', this, uniformIn('uniform_', from, to));
  },
  normal_(...args: unknown[]) {
    const { mean = 0, std = 1 } = numbersByPosition('normal_', ['mean', 'std'], args);
    return fillRandom('normal_', this, normalWith('normal_', mean, std));
  },
  bernoulli_(p: number | Tensor = 0.5, options?: BernoulliOptions) {
    refuseGenerator('bernoulli_', readOptions<BernoulliOptions>('bernoulli_', options, ['generator']).generator);
    return writeInPlace('bernoulli_', this, sampleBernoulli('bernoulli_', 'bernoulli_', p, this), true);
  },
} as Partial<Tensor> & ThisType<Tensor>);
