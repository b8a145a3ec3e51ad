// torch.nn.functional's normalize and cosine_similarity, composed as PyTorch composes them.
import { readOptions } from '../../options.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { broadcastShapes } from '../../shape.js';
import { isFloating } from '../../dtype.js';
import { noGrad } from '../../autograd/grad-mode.js';
import { tensorArg } from '../tensor-arg.js';
import { where } from '../where.js';
import { numberOption } from './number-option.js';

function floating(op: string, arg: string, x: unknown): Tensor {
  const t = tensorArg(op, arg, x);
  if (!isFloating(t.dtype)) throw new TypeError(`${op}: ${arg} must be a floating-point tensor (float32 or bfloat16), as in PyTorch; got ${t.dtype}`);
  return t;
}

export interface NormalizeOptions {
  /** The norm's order (default 2; Infinity for the largest |x|). */
  p?: number;
  /** The dim normalized (default 1, as PyTorch's). */
  dim?: number;
  /** The least norm divided by (default 1e-12). */
  eps?: number;
}

/**
 * x / max(‖x‖_p, eps) along dim (torch.nn.functional.normalize).
 * @example tpu.nn.functional.normalize(x, { dim: -1 })
 */
export function normalize(x: Tensor, opts: NormalizeOptions = {}): Tensor {
  const op = 'normalize';
  const o = readOptions<NormalizeOptions>(op, opts, ['p', 'dim', 'eps']);
  floating(op, 'input', x);
  const p = numberOption(op, 'p', o.p, 2);
  const dim = numberOption(op, 'dim', o.dim, 1);
  const eps = numberOption(op, 'eps', o.eps, 1e-12);
  return composite(op, () => x.div(x.norm(p, dim, true).clamp(eps)));
}

export interface CosineSimilarityOptions {
  /** The dim of the vectors (default 1, as PyTorch's). */
  dim?: number;
  /** The least norm divided by (default 1e-8). */
  eps?: number;
}

/**
 * n raised to eps where below it, with the gradient of n itself (PyTorch clamps its norms in
 * place under no_grad, so its backward differentiates the norm unclamped).
 */
function atLeastKeepingGradient(n: Tensor, eps: number): Tensor {
  return where(n.lt(eps), n.add(noGrad(() => n.neg().add(eps))), n);
}

/**
 * Σ (x1/‖x1‖)·(x2/‖x2‖) along dim, each norm at least eps, x1 and x2 broadcast
 * (torch.nn.functional.cosine_similarity).
 * @example tpu.nn.functional.cosineSimilarity(a, b, { dim: -1 })
 */
export function cosineSimilarity(x1: Tensor, x2: Tensor, opts: CosineSimilarityOptions = {}): Tensor {
  const op = 'cosineSimilarity';
  const o = readOptions<CosineSimilarityOptions>(op, opts, ['dim', 'eps']);
  floating(op, 'x1', x1);
  floating(op, 'x2', x2);
  const dim = numberOption(op, 'dim', o.dim, 1);
  const eps = numberOption(op, 'eps', o.eps, 1e-8);
  const shape = broadcastShapes(op, x1.shape, x2.shape, ['x1', 'x2']);
  return composite(op, () => {
    const unit = (x: Tensor) => {
      const v = x.expand([...shape]);
      return v.div(atLeastKeepingGradient(v.norm(2, dim, true), eps));
    };
    return unit(x1).mul(unit(x2)).sum(dim);
  });
}

export interface PairwiseDistanceOptions {
  /** The norm's order (default 2). */
  p?: number;
  /** Added to the difference, so a zero distance has a gradient (default 1e-6). */
  eps?: number;
  /** Keep the last dim, of size 1 (default false). */
  keepdim?: boolean;
}

/**
 * ‖x1 - x2 + eps‖_p over the last dim, x1 and x2 broadcast (torch.nn.functional.pairwise_distance).
 * @example tpu.nn.functional.pairwiseDistance(a, b, { p: 1 })
 */
export function pairwiseDistance(x1: Tensor, x2: Tensor, opts: PairwiseDistanceOptions = {}): Tensor {
  const op = 'pairwiseDistance';
  const o = readOptions<PairwiseDistanceOptions>(op, opts, ['p', 'eps', 'keepdim']);
  floating(op, 'x1', x1);
  floating(op, 'x2', x2);
  const p = numberOption(op, 'p', o.p, 2);
  const eps = numberOption(op, 'eps', o.eps, 1e-6);
  const keepdim = o.keepdim ?? false;
  if (typeof keepdim !== 'boolean') throw new TypeError(`${op}: keepdim must be a boolean; got ${JSON.stringify(keepdim)}`);
  broadcastShapes(op, x1.shape, x2.shape, ['x1', 'x2']);
  return composite(op, () => x1.sub(x2).add(eps).norm(p, -1, keepdim));
}
