// isposinf isneginf nanToNum: the float values ±inf and NaN found or replaced, composed over
// comparisons and where. Integer and bool tensors hold none of them.
import { isFloating } from '../dtype.js';
import { composite } from '../modes/composite.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from '../install-methods.js';
import { isOptions, readOptions } from '../options.js';
import { asBoolTensor, type BoolTensor } from '../bool-tensor.js';
import { where } from './where.js';
import { tensorArg } from './tensor-arg.js';
import { numberValue } from '../jit/live-number.js';

/**
 * True where x is +inf (torch.isposinf).
 * @example tpu.isposinf(tpu.tensor([Infinity, -Infinity, 1])) // [true, false, false]
 */
export function isposinf(x: Tensor): BoolTensor {
  return asBoolTensor(tensorArg('isposinf', 'input', x).eq(Infinity));
}

/**
 * True where x is -inf (torch.isneginf).
 * @example tpu.isneginf(tpu.tensor([Infinity, -Infinity, 1])) // [false, true, false]
 */
export function isneginf(x: Tensor): BoolTensor {
  return asBoolTensor(tensorArg('isneginf', 'input', x).eq(-Infinity));
}

export interface NanToNumOptions {
  /** What NaN becomes (0 by default). */
  nan?: number;
  /** What +inf becomes (the dtype's largest finite value by default). */
  posinf?: number | null;
  /** What -inf becomes (the dtype's lowest finite value by default). */
  neginf?: number | null;
}

/** The largest finite value of each floating dtype. */
const LARGEST = { float32: 3.4028234663852886e38, bfloat16: 3.3895313892515355e38 };

/**
 * NaN, +inf and -inf replaced by numbers: 0 and the dtype's extremes by default, as PyTorch
 * (torch.nan_to_num); positionally nanToNum(nan, posinf, neginf) or { nan, posinf, neginf }.
 * @example tpu.nanToNum(tpu.tensor([NaN, Infinity, 2]), { posinf: 9 }) // [0, 9, 2]
 */
export function nanToNum(x: Tensor, nan?: number | NanToNumOptions, posinf?: number | null, neginf?: number | null): Tensor {
  tensorArg('nanToNum', 'input', x);
  const o: NanToNumOptions = isOptions(nan) ? readOptions<NanToNumOptions>('nanToNum', nan, ['nan', 'posinf', 'neginf']) : { nan: nan as number | undefined, posinf, neginf };
  for (const key of ['nan', 'posinf', 'neginf'] as const) {
    const v = numberValue(o[key]); // a tpu.compile number argument stays live in where()
    if (v !== undefined && v !== null && typeof v !== 'number') throw new TypeError(`nanToNum: ${key} must be a number; got ${JSON.stringify(v)}`);
  }
  if (!isFloating(x.dtype)) return x.clone();
  const largest = LARGEST[x.dtype as keyof typeof LARGEST];
  return composite('nanToNum', () =>
    where(x.isnan(), o.nan ?? 0, where(x.eq(Infinity), o.posinf ?? largest, where(x.eq(-Infinity), o.neginf ?? -largest, x))));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * True where +inf (torch.isposinf).
     * @example tpu.tensor([Infinity, 1]).isposinf() // [true, false]
     */
    isposinf(): BoolTensor;
    /**
     * True where -inf (torch.isneginf).
     * @example tpu.tensor([-Infinity, 1]).isneginf() // [true, false]
     */
    isneginf(): BoolTensor;
    /**
     * NaN, +inf and -inf replaced by numbers (torch.nan_to_num).
     * @example tpu.tensor([NaN, -Infinity]).nanToNum(0, null, -1) // [0, -1]
     */
    nanToNum(nan?: number | NanToNumOptions, posinf?: number | null, neginf?: number | null): Tensor;
  }
}
installMethods({
  isposinf() { return isposinf(this); },
  isneginf() { return isneginf(this); },
  nanToNum(nan, posinf, neginf) { return nanToNum(this, nan, posinf, neginf); },
});
