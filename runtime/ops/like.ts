// zerosLike onesLike fullLike emptyLike randLike randnLike randintLike: same shape, dtype and chip
// unless the options give a dtype or PyTorch's device, and the input's strides when they are
// dense (PyTorch's preserve_format).
import { readOptions } from '../options.js';
import { assertDType, type DType } from '../dtype.js';
import type { Device } from '../device-argument.js';
import { deviceOptionChip } from '../creation-options.js';
import { rand, randn } from '../creation.js';
import { randint } from '../creation-computed.js';
import { Tensor } from '../tensor.js';
import { filled } from './constant.js';
import { preserveLayout } from '../views/result-layout.js';

export interface LikeOptions {
  dtype?: DType;
  /** PyTorch's device=: the chip 'tpu:N' names (what x.device reads; 'xla:N' the same); x's by default. */
  device?: Device;
}

/** The dtype and chip of the result: x's unless the options give others. */
function likeTarget(op: string, x: Tensor, opts?: LikeOptions): { dtype: DType; chip: number } {
  if (!(x instanceof Tensor)) throw new TypeError(`${op}: input must be a tensor; got ${typeof x}`);
  const o = readOptions<LikeOptions>(op, opts, ['dtype', 'device']);
  return {
    dtype: o.dtype === undefined ? x.dtype : assertDType(o.dtype, op),
    chip: o.device === undefined ? x.chip : deviceOptionChip(op, o.device),
  };
}

/** A constant shaped like x. */
function filledLike(op: string, x: Tensor, value: number | boolean, opts?: LikeOptions): Tensor {
  const { dtype, chip } = likeTarget(op, x, opts);
  return preserveLayout(x, filled(op, x.shape, value, dtype, chip));
}

/**
 * A constant with the shape and dtype of x (torch.full_like).
 * @example tpu.fullLike(x, 7)
 */
export function fullLike(x: Tensor, value: number | boolean, opts?: LikeOptions): Tensor {
  return filledLike('tpu.fullLike', x, value, opts);
}
/**
 * Zeros with the shape and dtype of x (torch.zeros_like), on x's chip or the one `device` names.
 * @example tpu.zerosLike(x)
 * @example tpu.zerosLike(x, { device: 'tpu:0', dtype: 'int32' }).device // 'tpu:0'
 */
export function zerosLike(x: Tensor, opts?: LikeOptions): Tensor {
  return filledLike('tpu.zerosLike', x, 0, opts);
}
/**
 * A tensor shaped like x whose values are not to be read before they are written (torch.empty_like;
 * here zeros, as tpu.empty).
 * @example tpu.emptyLike(x).fill_(1)
 */
export function emptyLike(x: Tensor, opts?: LikeOptions): Tensor {
  return filledLike('tpu.emptyLike', x, 0, opts);
}
/**
 * Ones with the shape and dtype of x (torch.ones_like).
 * @example tpu.onesLike(x)
 */
export function onesLike(x: Tensor, opts?: LikeOptions): Tensor {
  return filledLike('tpu.onesLike', x, 1, opts);
}
/**
 * Uniform [0, 1) values with the shape of x (torch.rand_like).
 * @example tpu.randLike(x)
 */
export function randLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, rand([...x.shape], likeTarget('tpu.randLike', x, opts)));
}
/**
 * Standard normal values with the shape of x (torch.randn_like).
 * @example tpu.randnLike(x)
 */
export function randnLike(x: Tensor, opts?: LikeOptions): Tensor {
  return preserveLayout(x, randn([...x.shape], likeTarget('tpu.randnLike', x, opts)));
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
  const { dtype, chip } = likeTarget('tpu.randintLike', x, opts);
  if (dtype === 'bool' && high > 2) throw new RangeError(`tpu.randintLike: high - 1 = ${high - 1} is out of range for dtype bool; high must be at most 2`);
  return preserveLayout(x, randint(low, high, [...x.shape], { dtype, chip }));
}
