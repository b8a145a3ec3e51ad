// torch.nn.functional.conv_transpose1d/2d over the convTranspose2d primitive (conv.ts: conv2d's
// adjoint, lowered by each backend); the 1-D form is the 2-D one over a height of 1, as conv1d.
import { formatShape } from '../../shape.js';
import { apply } from '../../modes/dispatch.js';
import { Tensor } from '../../tensor.js';
import { imageLayout } from '../../views/result-layout.js';
import { specialized } from '../../jit/live-number.js';
import { batched, convOptions, convTranspose2dOp, pair, withBias, type ConvTransposeAttrs } from './conv.js';

export interface ConvTransposeOptions {
  bias?: Tensor | null;
  stride?: number | readonly number[];
  /** Taken off each side of the full result (dilation·(k - 1) - padding zeros pad the input). */
  padding?: number | readonly number[];
  /** Added to one side of the result: picks among the input sizes a strided conv maps to this one. */
  outputPadding?: number | readonly number[];
  groups?: number;
  dilation?: number | readonly number[];
}

const KEYS: readonly (keyof ConvTransposeOptions)[] = ['bias', 'stride', 'padding', 'outputPadding', 'groups', 'dilation'];

/** A 1-D form's one integer (or [n]) as the pair of a height-1 2-D one: [fallback, n]. */
function single(op: string, name: string, v: number | readonly number[] | undefined, fallback: number, min: number): [number, number] {
  const given = specialized(v);
  if (Array.isArray(given) && given.length !== 1) throw new RangeError(`${op}: ${name} must be an integer ≥ ${min} or one of them; got ${JSON.stringify(given)}`);
  return [fallback, pair(op, name, Array.isArray(given) ? given[0] : given, [fallback, fallback], min)[1]];
}

/** The primitive's attrs of a 1-D or 2-D call (1-D: over a height of 1, at index 0), checked as PyTorch checks them. */
export function transposeAttrs(op: string, o: ConvTransposeOptions, dims: 1 | 2): ConvTransposeAttrs {
  const read = (name: 'stride' | 'padding' | 'outputPadding' | 'dilation', fallback: number, min: number) =>
    dims === 2 ? pair(op, name, o[name], [fallback, fallback], min) : single(op, name, o[name], fallback, min);
  const [stride, padding, outputPadding, dilation] = [read('stride', 1, 1), read('padding', 0, 0), read('outputPadding', 0, 0), read('dilation', 1, 1)];
  const groups = specialized(o.groups ?? 1);
  if (!Number.isInteger(groups) || groups < 1) throw new RangeError(`${op}: groups must be a positive integer; got ${JSON.stringify(groups)}`);
  if (outputPadding.some((p, d) => p >= stride[d]! && p >= dilation[d]!)) {
    const shown = (v: readonly number[]) => formatShape(dims === 2 ? v : v.slice(1));
    throw new RangeError(`${op}: outputPadding must be smaller than either stride or dilation, as in PyTorch; got outputPadding ${shown(outputPadding)}, stride ${shown(stride)}, dilation ${shown(dilation)}`);
  }
  return { stride, padding, outputPadding, dilation, groups };
}

function weightArg(op: string, weight: unknown, rank: number, layout: string): Tensor {
  if (!(weight instanceof Tensor) || weight.ndim !== rank) {
    throw new RangeError(`${op}: weight must be a ${rank}-D tensor ${layout}; got ${weight instanceof Tensor ? formatShape(weight.shape) : typeof weight}`);
  }
  return weight;
}

/**
 * Transposed 2-D convolution (the gradient of conv2d with respect to its input) of [n, c, h, w]
 * or [c, h, w] input with [c, out/groups, kh, kw] weight (torch.nn.functional.conv_transpose2d).
 * @example tpu.nn.functional.convTranspose2d(tpu.ones([1, 1, 2, 2]), tpu.ones([1, 1, 2, 2]), { stride: 2 }).shape // [1, 1, 4, 4]
 */
export function convTranspose2d(x: Tensor, weight: Tensor, opts?: ConvTransposeOptions): Tensor;
/** PyTorch's positional bias: convTranspose2d(x, w, b, { stride: 2 }), convTranspose2d(x, w, null, ...). */
export function convTranspose2d(x: Tensor, weight: Tensor, bias: Tensor | null, opts?: Omit<ConvTransposeOptions, 'bias'>): Tensor;
export function convTranspose2d(x: Tensor, weight: Tensor, biasOrOptions?: Tensor | null | ConvTransposeOptions, rest?: Omit<ConvTransposeOptions, 'bias'>): Tensor {
  const op = 'convTranspose2d';
  const opts = convOptions(op, biasOrOptions, rest, KEYS);
  const w = weightArg(op, weight, 4, '[C, O/groups, kh, kw]');
  const attrs = transposeAttrs(op, opts, 2);
  return imageLayout([x, w], batched(op, x, 4, (b) => withBias(op, apply(convTranspose2dOp, [b, w], attrs), opts.bias, 2)));
}

/**
 * Transposed 1-D convolution of [n, c, length] or [c, length] input with [c, out/groups, k]
 * weight (torch.nn.functional.conv_transpose1d).
 * @example tpu.nn.functional.convTranspose1d(tpu.tensor([[[1, 2]]]), tpu.tensor([[[1, 1]]])) // [[[1, 3, 2]]]
 */
export function convTranspose1d(x: Tensor, weight: Tensor, opts?: ConvTransposeOptions): Tensor;
/** PyTorch's positional bias: convTranspose1d(x, w, b, { stride: 2 }), convTranspose1d(x, w, null, ...). */
export function convTranspose1d(x: Tensor, weight: Tensor, bias: Tensor | null, opts?: Omit<ConvTransposeOptions, 'bias'>): Tensor;
export function convTranspose1d(x: Tensor, weight: Tensor, biasOrOptions?: Tensor | null | ConvTransposeOptions, rest?: Omit<ConvTransposeOptions, 'bias'>): Tensor {
  const op = 'convTranspose1d';
  const opts = convOptions(op, biasOrOptions, rest, KEYS);
  const w = weightArg(op, weight, 3, '[C, O/groups, k]');
  const attrs = transposeAttrs(op, opts, 1);
  return batched(op, x, 3, (b) => withBias(op, apply(convTranspose2dOp, [b.unsqueeze(2), w.unsqueeze(2)], attrs).squeeze(2), opts.bias, 1));
}
