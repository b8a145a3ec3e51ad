// tpu.nn.init: PyTorch's torch.nn.init, in place and outside autograd, its numbers positional
// or in an options object (`normal_(w, 0, 0.02)` or `normal_(w, { std: 0.02 })`). Fans, gains
// and bounds follow torch/nn/init.py's formulas (its documentation): fan_in = size(1) · the
// receptive field (the product of the dims after the second), fan_out = size(0) · the same.
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { formatShape } from '../shape.js';
import { numbersByPosition, readOptions } from '../options.js';
import { tensorArg } from '../ops/tensor-arg.js';
import { normal } from '../random.js';
import { fillRandom, normalWith, uniformIn } from '../views/inplace-random.js';
import { numberValue, specialized } from '../jit/live-number.js';

type Nonlinearity = 'linear' | 'conv1d' | 'conv2d' | 'conv3d' | 'conv_transpose1d' | 'conv_transpose2d' | 'conv_transpose3d' | 'sigmoid' | 'tanh' | 'relu' | 'leaky_relu' | 'selu';
type FanMode = 'fan_in' | 'fan_out';

export interface KaimingOptions {
  /** The negative slope of the leaky_relu after this layer (default 0). */
  a?: number;
  mode?: FanMode;
  nonlinearity?: Nonlinearity;
}

const LINEAR_GAIN: readonly string[] = ['linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d', 'sigmoid'];

/**
 * The gain for a nonlinearity, as torch.nn.init.calculate_gain (`param`: leaky_relu's negative slope, default 0.01).
 * @example tpu.nn.init.calculateGain('relu') // 1.4142135623730951
 */
export function calculateGain(nonlinearity: Nonlinearity, param?: number): number {
  if (LINEAR_GAIN.includes(nonlinearity)) return 1;
  if (nonlinearity === 'tanh') return 5 / 3;
  if (nonlinearity === 'relu') return Math.SQRT2;
  if (nonlinearity === 'selu') return 3 / 4;
  if (nonlinearity === 'leaky_relu') {
    param = specialized(param);
    if (param !== undefined && (typeof param !== 'number' || !Number.isFinite(param))) throw new TypeError(`calculateGain: param must be a number (the negative slope); got ${JSON.stringify(param)}`);
    const slope = param ?? 0.01;
    return Math.sqrt(2 / (1 + slope * slope));
  }
  throw new TypeError(`calculateGain: unsupported nonlinearity ${JSON.stringify(nonlinearity)}; give one of ${[...LINEAR_GAIN, 'tanh', 'relu', 'leaky_relu', 'selu'].join(', ')}`);
}

function fans(op: string, t: Tensor): { fanIn: number; fanOut: number } {
  if (t.ndim < 2) throw new RangeError(`${op}: fan in and fan out cannot be computed for a tensor of fewer than 2 dims; got ${formatShape(t.shape)}`);
  const receptive = t.shape.slice(2).reduce((a, b) => a * b, 1);
  return { fanIn: t.shape[1]! * receptive, fanOut: t.shape[0]! * receptive };
}

function target(op: string, t: unknown): Tensor {
  return tensorArg(`tpu.nn.init.${op}`, 'tensor', t);
}

/** Fills in place without recording the write, as torch.nn.init does under torch.no_grad(). */
function fill(op: string, t: Tensor, draw: (n: number) => Float64Array): Tensor {
  return noGrad(() => fillRandom(`tpu.nn.init.${op}`, t, draw));
}

/**
 * Uniform values in [a, b) (default [0, 1)), in place.
 * @example tpu.nn.init.uniform_(w, -0.1, 0.1)
 */
export function uniform_(tensor: Tensor, ...bounds: (number | { a?: number; b?: number })[]): Tensor {
  const { a = 0, b = 1 } = numbersByPosition('tpu.nn.init.uniform_', ['a', 'b'], bounds);
  return fill('uniform_', target('uniform_', tensor), uniformIn('tpu.nn.init.uniform_', a, b));
}

/**
 * Normal values of mean and std (default 0, 1), in place.
 * @example tpu.nn.init.normal_(w, { std: 0.02 })
 */
export function normal_(tensor: Tensor, ...params: (number | { mean?: number; std?: number })[]): Tensor {
  const { mean = 0, std = 1 } = numbersByPosition('tpu.nn.init.normal_', ['mean', 'std'], params);
  return fill('normal_', target('normal_', tensor), normalWith('tpu.nn.init.normal_', mean, std));
}

/**
 * Normal values of mean and std redrawn until inside [a, b] (default -2, 2: absolute bounds, as PyTorch's), in place.
 * @example tpu.nn.init.truncNormal_(w, { std: 0.02 })
 */
export function truncNormal_(tensor: Tensor, ...params: (number | { mean?: number; std?: number; a?: number; b?: number })[]): Tensor {
  const op = 'tpu.nn.init.truncNormal_';
  const { mean = 0, std = 1, a = -2, b = 2 } = numbersByPosition(op, ['mean', 'std', 'a', 'b'], params);
  if (!(std >= 0)) throw new RangeError(`${op}: std must be at least 0; got ${std}`);
  if (!(a <= b)) throw new RangeError(`${op}: a must be at most b; got a ${a}, b ${b}`);
  return fill('truncNormal_', target('truncNormal_', tensor), (n) => {
    const out = new Float64Array(n);
    // rejection: each draw lands in [a, b] with the interval's probability; a bound on the draws keeps an interval far in the tail from looping on
    let filled = 0;
    for (let draws = 0; filled < n; draws += 1024) {
      if (draws > 1000 * n + 1e6) throw new RangeError(`${op}: [${a}, ${b}] holds too little of N(${mean}, ${std}²) to draw from`);
      for (const z of normal(1024)) {
        const v = mean + std * z;
        if (v >= a && v <= b && filled < n) out[filled++] = v;
      }
    }
    return out;
  });
}

/**
 * `val` everywhere, in place.
 * @example tpu.nn.init.constant_(tpu.zeros([2]), 0.1) // [0.1, 0.1]
 */
export function constant_(tensor: Tensor, val: number): Tensor {
  // a tpu.compile number argument stays live, as fill_'s value
  if (typeof numberValue(val) !== 'number') throw new TypeError(`tpu.nn.init.constant_: val must be a number; got ${JSON.stringify(val)}`);
  return noGrad(() => target('constant_', tensor).fill_(val));
}

/** Ones, in place. @example tpu.nn.init.ones_(tpu.zeros([2])) // [1, 1] */
export function ones_(tensor: Tensor): Tensor {
  return noGrad(() => target('ones_', tensor).fill_(1));
}

/** Zeros, in place. @example tpu.nn.init.zeros_(new tpu.nn.Linear(4, 2).bias!) // [0, 0] */
export function zeros_(tensor: Tensor): Tensor {
  return noGrad(() => target('zeros_', tensor).zero_());
}

/**
 * The identity of a 2-D tensor (ones on the diagonal), in place.
 * @example tpu.nn.init.eye_(w)
 */
export function eye_(tensor: Tensor): Tensor {
  const t = target('eye_', tensor);
  if (t.ndim !== 2) throw new RangeError(`tpu.nn.init.eye_: tensor must be 2-D; got ${formatShape(t.shape)}`);
  const [rows, cols] = t.shape as [number, number];
  return fill('eye_', t, (n) => new Float64Array(n).map((_, i) => (Math.floor(i / cols) === i % cols && Math.floor(i / cols) < rows ? 1 : 0)));
}

/**
 * Xavier/Glorot uniform: bound gain · √(6 / (fan_in + fan_out)), in place.
 * @example tpu.nn.init.xavierUniform_(new tpu.nn.Linear(4, 2).weight)
 */
export function xavierUniform_(tensor: Tensor, gain = 1): Tensor {
  const t = target('xavierUniform_', tensor);
  const { fanIn, fanOut } = fans('tpu.nn.init.xavierUniform_', t);
  const bound = gainOf('xavierUniform_', gain) * Math.sqrt(6 / (fanIn + fanOut));
  return fill('xavierUniform_', t, uniformIn('tpu.nn.init.xavierUniform_', -bound, bound));
}

/**
 * Xavier/Glorot normal: std gain · √(2 / (fan_in + fan_out)), in place.
 * @example tpu.nn.init.xavierNormal_(new tpu.nn.Linear(4, 2).weight)
 */
export function xavierNormal_(tensor: Tensor, gain = 1): Tensor {
  const t = target('xavierNormal_', tensor);
  const { fanIn, fanOut } = fans('tpu.nn.init.xavierNormal_', t);
  return fill('xavierNormal_', t, normalWith('tpu.nn.init.xavierNormal_', 0, gainOf('xavierNormal_', gain) * Math.sqrt(2 / (fanIn + fanOut))));
}

/**
 * He/Kaiming uniform: bound √3 · gain / √fan (options a, mode 'fan_in' | 'fan_out', nonlinearity; PyTorch's defaults), in place.
 * @example tpu.nn.init.kaimingUniform_(new tpu.nn.Conv2d(3, 8, 3).weight, { mode: 'fan_out', nonlinearity: 'relu' })
 */
export function kaimingUniform_(tensor: Tensor, options?: KaimingOptions): Tensor {
  const t = target('kaimingUniform_', tensor);
  const bound = Math.sqrt(3) * kaimingStd('kaimingUniform_', t, options);
  return fill('kaimingUniform_', t, uniformIn('tpu.nn.init.kaimingUniform_', -bound, bound));
}

/**
 * He/Kaiming normal: std gain / √fan (options as kaimingUniform_), in place.
 * @example tpu.nn.init.kaimingNormal_(new tpu.nn.Conv2d(3, 8, 3).weight, { mode: 'fan_out', nonlinearity: 'relu' })
 */
export function kaimingNormal_(tensor: Tensor, options?: KaimingOptions): Tensor {
  const t = target('kaimingNormal_', tensor);
  return fill('kaimingNormal_', t, normalWith('tpu.nn.init.kaimingNormal_', 0, kaimingStd('kaimingNormal_', t, options)));
}

function kaimingStd(name: string, t: Tensor, options: KaimingOptions | undefined): number {
  const op = `tpu.nn.init.${name}`;
  const o = readOptions<KaimingOptions>(op, options, ['a', 'mode', 'nonlinearity']);
  const mode = o.mode ?? 'fan_in';
  if (mode !== 'fan_in' && mode !== 'fan_out') throw new TypeError(`${op}: options.mode must be 'fan_in' or 'fan_out'; got ${JSON.stringify(mode)}`);
  const { fanIn, fanOut } = fans(op, t);
  const gain = calculateGain(o.nonlinearity ?? 'leaky_relu', o.a ?? 0);
  return gain / Math.sqrt(mode === 'fan_in' ? fanIn : fanOut);
}

function gainOf(name: string, gain: unknown): number {
  gain = specialized(gain);
  if (typeof gain !== 'number' || !Number.isFinite(gain)) throw new TypeError(`tpu.nn.init.${name}: gain must be a finite number; got ${JSON.stringify(gain)}`);
  return gain;
}
