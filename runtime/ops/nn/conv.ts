// conv2d and its adjoint convTranspose2d are the two primitives (ONNX Conv/ConvTranspose,
// no bias: a bias is an add). Their weight gradients are built from conv2d itself (the
// input and output channel roles swapped), conv1d is conv2d over a height of 1.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { isFloating, promoteTypes } from '../../dtype.js';
import { apply } from '../../modes/dispatch.js';
import { Tensor } from '../../tensor.js';
import { defineOp, type Abstract, type OpDef } from '../op.js';
import { concat } from '../concat.js';
import { pad } from '../pad.js';
import { imageLayout } from '../../views/result-layout.js';
import { specialized } from '../../jit/live-number.js';

export interface ConvAttrs {
  readonly stride: readonly [number, number];
  readonly padding: readonly [number, number];
  readonly dilation: readonly [number, number];
  readonly groups: number;
}
export interface ConvTransposeAttrs extends ConvAttrs {
  readonly outputPadding: readonly [number, number];
}

const outSize = (n: number, k: number, a: ConvAttrs, d: 0 | 1) =>
  Math.floor((n + 2 * a.padding[d] - a.dilation[d] * (k - 1) - 1) / a.stride[d]) + 1;
/** Length along spatial dim d of a transposed convolution of length n, before output padding. */
export const transposedSize = (n: number, k: number, a: ConvAttrs, d: 0 | 1) =>
  (n - 1) * a.stride[d] - 2 * a.padding[d] + a.dilation[d] * (k - 1) + 1;

function checkConvOperands(op: string, x: Abstract, w: Abstract): void {
  if (!isFloating(x.dtype) || !isFloating(w.dtype)) {
    throw new TypeError(`${op}: input and weight must be floating point; got ${x.dtype} and ${w.dtype} (convert with .to('float32'))`);
  }
  if (x.shape.length !== 4 || w.shape.length !== 4) {
    throw new RangeError(`${op}: input must be [N, C, H, W] and weight 4-D; got input ${formatShape(x.shape)} and weight ${formatShape(w.shape)}`);
  }
}

export const conv2dOp: OpDef<ConvAttrs> = defineOp<ConvAttrs>({
  name: 'conv2d',
  infer([x, w], a) {
    checkConvOperands('conv2d', x!, w!);
    const [n, c, h, wd] = x!.shape as [number, number, number, number];
    const [o, cg, kh, kw] = w!.shape as [number, number, number, number];
    if (c !== cg * a.groups || o % a.groups !== 0) {
      throw new RangeError(`conv2d: weight ${formatShape(w!.shape)} with groups=${a.groups} expects ${cg * a.groups} input channels; the input ${formatShape(x!.shape)} has ${c}`);
    }
    const ho = outSize(h, kh, a, 0);
    const wo = outSize(wd, kw, a, 1);
    if (ho <= 0 || wo <= 0) throw new RangeError(`conv2d: the kernel ${kh}x${kw} (dilated) is larger than the padded input ${formatShape(x!.shape)}`);
    return { shape: [n, o, ho, wo], dtype: promoteTypes(x!.dtype, w!.dtype) };
  },
  grad(g, [x, w], _out, a) {
    const xt = x as Tensor;
    const wt = w as Tensor;
    const outputPadding = ([0, 1] as const).map((d) => xt.shape[2 + d]! - transposedSize(g.shape[2 + d]!, wt.shape[2 + d]!, a, d)) as [number, number];
    return [apply(convTranspose2dOp, [g, wt], { ...a, outputPadding }).to(xt.dtype), convWeightGrad(xt, g, wt.shape, a).to(wt.dtype)];
  },
});

export const convTranspose2dOp: OpDef<ConvTransposeAttrs> = defineOp<ConvTransposeAttrs>({
  name: 'convTranspose2d',
  infer([x, w], a) {
    checkConvOperands('convTranspose2d', x!, w!);
    const [n, c, h, wd] = x!.shape as [number, number, number, number];
    const [ci, og, kh, kw] = w!.shape as [number, number, number, number];
    if (c !== ci) throw new RangeError(`convTranspose2d: weight ${formatShape(w!.shape)} expects ${ci} input channels; the input ${formatShape(x!.shape)} has ${c}`);
    if (ci % a.groups !== 0) throw new RangeError(`convTranspose2d: groups=${a.groups} must divide the weight's dim 0 (the input channels); got weight ${formatShape(w!.shape)}`);
    const size = (m: number, k: number, d: 0 | 1) => transposedSize(m, k, a, d) + a.outputPadding[d];
    const [ho, wo] = [size(h, kh, 0), size(wd, kw, 1)];
    if (ho <= 0 || wo <= 0) throw new RangeError(`convTranspose2d: the output of input ${formatShape(x!.shape)} and weight ${formatShape(w!.shape)} would be ${ho}x${wo}: the padding is too large`);
    return { shape: [n, og * a.groups, ho, wo], dtype: promoteTypes(x!.dtype, w!.dtype) };
  },
  grad(g, [x, w], _out, a) {
    const { outputPadding: _, ...conv } = a;
    const xt = x as Tensor;
    // with an outputPadding at or above the stride (below the dilation) the conv of the gradient
    // reaches past x's last position: what lies past it belongs to no input
    let gx = apply(conv2dOp, [g, w as Tensor], conv);
    if (gx.shape[2] !== xt.shape[2]) gx = gx.narrow(2, 0, xt.shape[2]!);
    if (gx.shape[3] !== xt.shape[3]) gx = gx.narrow(3, 0, xt.shape[3]!);
    return [gx.to(xt.dtype), convWeightGrad(g, xt, (w as Tensor).shape, conv).to((w as Tensor).dtype)];
  },
});

/**
 * ∂conv/∂weight: for each group, a conv of the input (batch and channels swapped) with the
 * output gradient as kernel, stride and dilation swapped; cropped to the kernel size.
 */
function convWeightGrad(x: Tensor, g: Tensor, weightShape: readonly number[], a: ConvAttrs): Tensor {
  const [, cg, kh, kw] = weightShape as [number, number, number, number];
  const og = g.shape[1]! / a.groups;
  const parts: Tensor[] = [];
  for (let k = 0; k < a.groups; k++) {
    const xs = x.narrow(1, k * cg, cg).transpose(0, 1); // [cg, N, H, W]
    const gs = g.narrow(1, k * og, og).transpose(0, 1); // [og, N, Ho, Wo]
    const attrs: ConvAttrs = { stride: a.dilation, dilation: a.stride, padding: a.padding, groups: 1 };
    const full = apply(conv2dOp, [xs, gs], attrs); // [cg, og, >= kh, >= kw]
    parts.push(full.narrow(2, 0, kh).narrow(3, 0, kw).transpose(0, 1));
  }
  return parts.length === 1 ? parts[0]! : concat(parts, 0);
}

export interface ConvOptions {
  bias?: Tensor | null;
  stride?: number | readonly number[];
  padding?: number | readonly number[] | 'valid' | 'same';
  dilation?: number | readonly number[];
  groups?: number;
}

/** A number or a pair of integers ≥ min, as PyTorch's `_pair`; `fallback` when absent. */
export function pair(op: string, name: string, v: number | readonly number[] | undefined | null, fallback: readonly number[], min: number): [number, number] {
  v = specialized(v);
  const p = v === undefined || v === null ? [...fallback] : typeof v === 'number' ? [v, v] : [...v];
  if (p.length !== 2 || !p.every((n) => Number.isInteger(n) && n >= min)) {
    throw new RangeError(`${op}: ${name} must be an integer ≥ ${min} or a pair of them; got ${JSON.stringify(v)}`);
  }
  return p as [number, number];
}

/** Per spatial dim the padding 'same' needs in all: dilation·(kernel - 1). */
const sameTotals = (kernel: readonly number[], dilation: readonly number[]) => kernel.map((k, d) => dilation[d]! * (k - 1));

/**
 * x with the unit 'same' padding puts on the right of each dim whose total is odd (an even
 * dilated kernel), as PyTorch pads it; the convolution's own padding gives the even rest.
 */
function sameExtra(x: Tensor, kernel: readonly number[], o: ConvOptions, dilation: readonly number[]): Tensor {
  if (o.padding !== 'same') return x;
  const extra = sameTotals(kernel, dilation).map((t) => t % 2);
  if (extra.every((e) => e === 0)) return x;
  return pad(x, extra.reverse().flatMap((e) => [0, e]));
}

export function convAttrs(op: string, kernel: readonly number[], o: ConvOptions): ConvAttrs {
  const stride = pair(op, 'stride', o.stride, [1, 1], 1);
  const dilation = pair(op, 'dilation', o.dilation, [1, 1], 1);
  let padding: [number, number];
  if (o.padding === 'valid') padding = [0, 0];
  else if (o.padding === 'same') {
    if (stride.some((s) => s !== 1)) throw new RangeError(`${op}: padding 'same' needs stride 1; got ${formatShape(stride)}`);
    // an odd total's extra unit goes on the right, padded before the convolution (sameExtra)
    padding = sameTotals(kernel, dilation).map((t) => Math.floor(t / 2)) as [number, number];
  } else padding = pair(op, 'padding', o.padding, [0, 0], 0);
  const groups = specialized(o.groups ?? 1);
  if (!Number.isInteger(groups) || groups < 1) throw new RangeError(`${op}: groups must be a positive integer; got ${JSON.stringify(groups)}`);
  return { stride, padding, dilation, groups };
}

export function withBias(op: string, y: Tensor, bias: Tensor | null | undefined, spatial: number): Tensor {
  if (bias === undefined || bias === null) return y;
  if (!(bias instanceof Tensor) || bias.ndim !== 1 || bias.shape[0] !== y.shape[1]) {
    throw new RangeError(`${op}: bias must be a 1-D tensor of ${y.shape[1]} elements; got ${bias instanceof Tensor ? formatShape(bias.shape) : typeof bias}`);
  }
  return y.add(bias.reshape([y.shape[1]!, ...new Array(spatial).fill(1)]));
}

export function batched(op: string, x: Tensor, rank: number, f: (x: Tensor) => Tensor): Tensor {
  if (!(x instanceof Tensor)) throw new TypeError(`${op}: input must be a tensor; got ${typeof x}`);
  if (x.ndim === rank - 1) return f(x.unsqueeze(0)).squeeze(0);
  if (x.ndim !== rank) throw new RangeError(`${op}: input must have ${rank - 1} or ${rank} dims; got ${formatShape(x.shape)}`);
  return f(x);
}

/** torch.nn.functional.conv2d(input [N, C, H, W] or [C, H, W], weight [O, C/groups, kh, kw], ...). */
const CONV_KEYS: readonly (keyof ConvOptions)[] = ['bias', 'stride', 'padding', 'dilation', 'groups'];

/** The options of conv(x, w, options) or conv(x, w, bias, options), checked against `keys`. */
export function convOptions<T extends { bias?: Tensor | null }>(op: string, biasOrOptions: Tensor | null | T | undefined, rest: Omit<T, 'bias'> | undefined, keys: readonly (keyof T & string)[]): T {
  if (biasOrOptions instanceof Tensor || biasOrOptions === null) {
    return { ...readOptions<T>(op, rest, keys.filter((k) => k !== 'bias')), bias: biasOrOptions } as T;
  }
  if (rest !== undefined) throw new TypeError(`${op}: the third argument is the bias (a tensor or null) when options follow it; got options twice`);
  return readOptions<T>(op, biasOrOptions, keys) as T;
}

/**
 * 2-D convolution of [n, c, h, w] input with [out, c/groups, kh, kw] weight (torch.nn.functional.conv2d).
 * @example tpu.nn.functional.conv2d(images, tpu.randn([16, 3, 3, 3]), { padding: 1 }).shape // [2, 16, 8, 8]
 */
export function conv2d(x: Tensor, weight: Tensor, opts?: ConvOptions): Tensor;
/** PyTorch's positional bias: conv2d(x, w, b, { padding: 1 }), conv2d(x, w, null, ...). */
export function conv2d(x: Tensor, weight: Tensor, bias: Tensor | null, opts?: Omit<ConvOptions, 'bias'>): Tensor;
export function conv2d(x: Tensor, weight: Tensor, biasOrOptions?: Tensor | null | ConvOptions, rest?: Omit<ConvOptions, 'bias'>): Tensor {
  const opts = convOptions('conv2d', biasOrOptions, rest, CONV_KEYS);
  if (!(weight instanceof Tensor) || weight.ndim !== 4) throw new RangeError(`conv2d: weight must be a 4-D tensor [O, C/groups, kh, kw]; got ${weight instanceof Tensor ? formatShape(weight.shape) : typeof weight}`);
  const attrs = convAttrs('conv2d', weight.shape.slice(2), opts);
  // channels-last in, channels-last out (PyTorch's CPU kernels follow the input or the weight)
  return imageLayout([x, weight], batched('conv2d', x, 4, (b) => withBias('conv2d', apply(conv2dOp, [sameExtra(b, weight.shape.slice(2), opts, attrs.dilation), weight], attrs), opts.bias, 2)));
}

/**
 * torch.nn.functional.conv1d(input [N, C, L] or [C, L], weight [O, C/groups, k], ...).
 * @example tpu.nn.functional.conv1d(tpu.tensor([[[1, 2, 3]]]), tpu.tensor([[[1, 1]]])) // [[[3, 5]]]
 */
export function conv1d(x: Tensor, weight: Tensor, opts?: ConvOptions): Tensor;
/** PyTorch's positional bias: conv1d(x, w, b, { padding: 1 }), conv1d(x, w, null, ...). */
export function conv1d(x: Tensor, weight: Tensor, bias: Tensor | null, opts?: Omit<ConvOptions, 'bias'>): Tensor;
export function conv1d(x: Tensor, weight: Tensor, biasOrOptions?: Tensor | null | ConvOptions, rest?: Omit<ConvOptions, 'bias'>): Tensor {
  const opts = convOptions('conv1d', biasOrOptions, rest, CONV_KEYS);
  if (!(weight instanceof Tensor) || weight.ndim !== 3) throw new RangeError(`conv1d: weight must be a 3-D tensor [O, C/groups, k]; got ${weight instanceof Tensor ? formatShape(weight.shape) : typeof weight}`);
  // the height of 1 gets the fallback; the length its one value (PyTorch refuses a list of two)
  const one = (name: string, given: number | readonly number[] | undefined, fallback: number) => {
    const v = specialized(given);
    if (Array.isArray(v) && v.length !== 1) throw new RangeError(`conv1d: ${name} must be an integer or a list of 1; got ${JSON.stringify(v)}`);
    return [fallback, typeof v === 'number' ? v : v === undefined ? fallback : v[0]!];
  };
  const padding = opts.padding === 'valid' || opts.padding === 'same' ? opts.padding : one('padding', opts.padding, 0);
  const attrs = convAttrs('conv1d', [1, weight.shape[2]!], { ...opts, stride: one('stride', opts.stride, 1), dilation: one('dilation', opts.dilation, 1), padding });
  return batched('conv1d', x, 3, (b) =>
    withBias('conv1d', apply(conv2dOp, [sameExtra(b, weight.shape.slice(2), opts, attrs.dilation.slice(1)).unsqueeze(2), weight.unsqueeze(2)], attrs).squeeze(2), opts.bias, 1));
}
