// Activations that zero or replace a band of values (torch.nn.functional's hardshrink,
// softshrink, threshold), composed. Each follows PyTorch's kernel: the same comparisons in its
// forward and backward, so the gradient at a kink (±lambd, the threshold itself) and at NaN is
// PyTorch's. bfloat16 is computed in float32 and rounded once, as PyTorch's kernels do.
import { byPosition } from '../../options.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { where } from '../where.js';
import { inFloat32 } from './activations.js';
import { numberOption } from './number-option.js';

export interface LambdOption {
  /** The half-width of the band around 0 (default 0.5). */
  lambd?: number;
}

/** True where lambd ≥ |x| (PyTorch's test, false at NaN): the band both shrinks zero and pass no gradient through. */
function inBand(v: Tensor, lambd: number): Tensor {
  return v.ge(-lambd).logicalAnd(v.le(lambd));
}

/**
 * 0 where |x| ≤ lambd, x elsewhere (torch.nn.functional.hardshrink; lambd 0.5); the gradient
 * is 0 at ±lambd.
 * @example tpu.nn.functional.hardshrink(tpu.tensor([-1, 0.2, 0.7])) // [-1, 0, 0.7]
 */
export function hardshrink(x: Tensor, ...args: [lambd?: number] | [LambdOption]): Tensor {
  const lambd = numberOption('hardshrink', 'lambd', byPosition<LambdOption>('hardshrink', args, ['lambd']).lambd, 0.5);
  return composite('hardshrink', () => inFloat32('hardshrink', x, (v) => where(inBand(v, lambd), 0, v)));
}

/**
 * x - lambd above lambd, x + lambd below -lambd, 0 between (torch.nn.functional.softshrink;
 * lambd 0.5, which must be ≥ 0).
 * @example tpu.nn.functional.softshrink(tpu.tensor([-1, 0.2, 0.7])) // [-0.5, 0, 0.2]
 */
export function softshrink(x: Tensor, ...args: [lambd?: number] | [LambdOption]): Tensor {
  const lambd = numberOption('softshrink', 'lambd', byPosition<LambdOption>('softshrink', args, ['lambd']).lambd, 0.5);
  if (!(lambd >= 0)) throw new RangeError(`softshrink: lambd must be ≥ 0, as in PyTorch; got ${lambd}`);
  return composite('softshrink', () => inFloat32('softshrink', x, (v) => {
    // +0 inside the band, as PyTorch's vectorized kernel (its scalar loop, used for short
    // tensors, gives x·0: -0 for a negative x); NaN is outside it and keeps its gradient
    return where(inBand(v, lambd), 0, where(v.gt(lambd), v.sub(lambd), v.add(lambd)));
  }));
}

export interface ThresholdOptions {
  /** Values at or below it are replaced. */
  threshold?: number;
  /** What replaces them. */
  value?: number;
}

/**
 * value where x ≤ threshold, x elsewhere (torch.nn.functional.threshold; both required); the
 * gradient is 0 at the threshold.
 * @example tpu.nn.functional.threshold(tpu.tensor([-1, 0.5, 2]), 0.5, -9) // [-9, -9, 2]
 */
export function threshold(x: Tensor, ...args: [threshold: number, value: number] | [ThresholdOptions]): Tensor {
  const o = byPosition<ThresholdOptions>('threshold', args, ['threshold', 'value']);
  for (const name of ['threshold', 'value'] as const) if (o[name] === undefined) throw new TypeError(`threshold: ${name} is required, as in PyTorch`);
  const at = numberOption('threshold', 'threshold', o.threshold, 0);
  const value = numberOption('threshold', 'value', o.value, 0);
  return composite('threshold', () => inFloat32('threshold', x, (v) => where(v.le(at), value, v)));
}
