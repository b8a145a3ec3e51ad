// layerNorm and rmsNorm, composed, in the ONNX shape of ONNX Runtime's LayerNormalization
// fusions (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul, Add with constant
// 2 and eps): a fused program runs them as one kernel; the definition stays composed.
import { readOptions } from '../../options.js';
import { formatShape } from '../../shape.js';
import { Tensor } from '../../tensor.js';
import { scalarConstant } from '../constant.js';
import { inFloat32 } from './activations.js';
import { composite } from '../../modes/composite.js';
import { rowMajor } from '../../views/result-layout.js';
import { sharingVersion } from '../../autograd/past-values.js';
import { specialized } from '../../jit/live-number.js';

export interface NormalizationOptions {
  weight?: Tensor | null;
  bias?: Tensor | null;
  eps?: number;
}

function normalizedDims(op: string, x: Tensor, normalizedShape: readonly number[] | number): number[] {
  normalizedShape = specialized(normalizedShape);
  const shape = typeof normalizedShape === 'number' ? [normalizedShape] : normalizedShape;
  const tail = x.shape.slice(x.ndim - shape.length);
  if (!Array.isArray(shape) || shape.length > x.ndim || shape.some((n, i) => n !== tail[i])) {
    throw new RangeError(`${op}: normalizedShape ${formatShape(shape as number[])} must match the last dims of the input ${formatShape(x.shape)}`);
  }
  return shape.map((_, i) => x.ndim - shape.length + i);
}

/** weight and bias, where given, are tensors of `shape`. */
export function checkAffineParams(op: string, o: NormalizationOptions, shape: readonly number[]): void {
  for (const name of ['weight', 'bias'] as const) {
    const p = o[name];
    if (p !== undefined && p !== null && (!(p instanceof Tensor) || p.shape.join() !== shape.join())) {
      throw new RangeError(`${op}: ${name} must be a tensor of shape ${formatShape(shape)}; got ${p instanceof Tensor ? formatShape(p.shape) : typeof p}`);
    }
  }
}

function affine(op: string, y: Tensor, shape: readonly number[], o: NormalizationOptions): Tensor {
  checkAffineParams(op, o, shape);
  let out = o.weight ? y.mul(inFloat32Saved(o.weight)) : y;
  if (o.bias) out = out.add(o.bias.to('float32'));
  return out;
}

/**
 * A bfloat16 parameter's float32 copy shares the parameter's version counter: mul saves the
 * copy for backward, and a write to the parameter in between (an optimizer step) must raise
 * PyTorch's "modified by an inplace operation", as it does for a float32 parameter.
 */
export function inFloat32Saved(p: Tensor): Tensor {
  return p.dtype === 'float32' ? p : sharingVersion(p.to('float32'), p);
}

export function epsOf(op: string, o: NormalizationOptions, fallback: number): number {
  const eps = specialized(o.eps ?? fallback);
  if (typeof eps !== 'number' || !(eps >= 0)) throw new RangeError(`${op}: eps must be a non-negative number; got ${JSON.stringify(eps)}`);
  return eps;
}

/**
 * torch.nn.functional.layer_norm(x, normalizedShape, weight, bias, eps = 1e-5).
 * @example tpu.nn.functional.layerNorm(tpu.tensor([[1, 3]]), [2]) // [[-1.0000, 1.0000]]
 */
export function layerNorm(x: Tensor, normalizedShape: readonly number[] | number, opts: NormalizationOptions = {}): Tensor {
  readOptions<NormalizationOptions>('layerNorm', opts, ['weight', 'bias', 'eps']);
  const dims = normalizedDims('layerNorm', x, normalizedShape);
  const eps = epsOf('layerNorm', opts, 1e-5);
  const shape = dims.map((d) => x.shape[d]!);
  return rowMajor(composite('layerNorm', () => inFloat32('layerNorm', x, (v) => {
    const centered = v.sub(v.mean(dims, true));
    const variance = centered.square().mean(dims, true);
    const out = affine('layerNorm', centered.div(variance.add(scalarConstant(eps, 'float32')).sqrt()), shape, opts);
    // PyTorch's kernel computes x·a + (0 - mean·a): a zero result is +0 without a bias; here
    // (x - mean)·rstd is -0 for a -0 input, so + 0 (adding +0 changes no other value). With a
    // bias the bias add does the same (the graph ONNX Runtime fuses to LayerNormalization).
    return opts.bias ? out : out.add(scalarConstant(0, 'float32'));
  })));
}

/**
 * torch.nn.functional.rms_norm(x, normalizedShape, weight, eps = float32 epsilon by default).
 * @example tpu.nn.functional.rmsNorm(tpu.tensor([[3, 4]]), [2]) // [[0.8485, 1.1314]]
 */
export function rmsNorm(x: Tensor, normalizedShape: readonly number[] | number, opts: NormalizationOptions = {}): Tensor {
  readOptions<NormalizationOptions>('rmsNorm', opts, ['weight', 'eps']);
  const dims = normalizedDims('rmsNorm', x, normalizedShape);
  const eps = epsOf('rmsNorm', opts, 2 ** -23);
  const shape = dims.map((d) => x.shape[d]!);
  if (opts.bias) throw new TypeError('rmsNorm: there is no bias (PyTorch rms_norm takes a weight only)');
  return rowMajor(composite('rmsNorm', () => inFloat32('rmsNorm', x, (v) => {
    const meanSquare = v.square().mean(dims, true);
    return affine('rmsNorm', v.div(meanSquare.add(scalarConstant(eps, 'float32')).sqrt()), shape, opts);
  })));
}
