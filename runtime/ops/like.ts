// zerosLike onesLike fullLike randLike randnLike: same shape and chip (and dtype unless given),
// and the input's strides when they are dense (PyTorch's preserve_format).
import { readOptions } from '../options.js';
import { assertDType, type DType } from '../dtype.js';
import { rand, randn } from '../creation.js';
import { randint } from '../creation-computed.js';
import { Tensor } from '../tensor.js';
import { filled } from './constant.js';
import { preserveLayout } from '../views/result-layout.js';

export interface LikeOptions {
  dtype?: DType;
}

function likeDtype(op: string, x: Tensor, opts?: LikeOptions): DType {
  if (!(x instanceof Tensor)) throw new TypeError(`${op}: input must be a tensor; got ${typeof x}`);
  const o = readOptions<LikeOptions>(op, opts, ['dtype']);
  return o.dtype === undefined ? x.dtype : assertDType(o.dtype, op);
}

/**
 * A constant with the shape and dtype of x (torch.full_like).
 * @example tpu.fullLike(x, 7)
 */
export function fullLike(x: Tensor, value: number | boolean, opts?: LikeOptions): Tensor {
  return preserveLayout(x, filled('tpu.fullLike', x.shape, value, likeDtype('tpu.fullLike', x, opts), x.chip));
}
/**
 * Zeros with the shape and dtype of x (torch.zeros_like).
 * @example tpu.zerosLike(x)
 */
export function zerosLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, filled('tpu.zerosLike', x.shape, 0, likeDtype('tpu.zerosLike', x, opts), x.chip));
}
/**
 * Ones with the shape and dtype of x (torch.ones_like).
 * @example tpu.onesLike(x)
 */
export function onesLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, filled('tpu.onesLike', x.shape, 1, likeDtype('tpu.onesLike', x, opts), x.chip));
}
/**
 * Uniform [0, 1) values with the shape of x (torch.rand_like).
 * @example tpu.randLike(x)
 */
export function randLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, rand([...x.shape], { dtype: likeDtype('tpu.randLike', x, opts), chip: x.chip }));
}
/**
 * Standard normal values with the shape of x (torch.randn_like).
 * @example tpu.randnLike(x)
 */
export function randnLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, randn([...x.shape], { dtype: likeDtype('tpu.randnLike', x, opts), chip: x.chip }));
}

/**
 * Integers uniform in [low, high) with the shape and dtype of x (torch.randint_like):
 * randintLike(x, high) or randintLike(x, low, high), then options.
 * @example tpu.randintLike(tpu.zeros([2, 3]), 10).dtype // 'float32'
 */
export function randintLike(x: Tensor, high: number, opts?: LikeOptions): Tensor;
export function randintLike(x: Tensor, low: number, high: number, opts?: LikeOptions): Tensor;
export function randintLike(x: Tensor, a: number, b?: number | LikeOptions, c?: LikeOptions): Tensor {
  const [low, high, opts] = typeof b === 'number' ? [a, b, c] : [0, a, b];
  const dtype = likeDtype('tpu.randintLike', x, opts);
  if (dtype === 'bool' && high > 2) throw new RangeError(`tpu.randintLike: high - 1 = ${high - 1} is out of range for dtype bool; high must be at most 2`);
  return preserveLayout(x, randint(low, high, [...x.shape], { dtype, chip: x.chip }));
}
