// torch.nn.utils.clip_grad_norm_: the p-norm of all the gradients (the norm of their norms, as if
// joined in one vector), then every gradient scaled in place by min(maxNorm / (norm + 1e-6), 1),
// in PyTorch 2.13's dtypes and order of operations. A DTensor gradient (tensor parallelism,
// fullyShard) counts with the norm of its full value (DTensor.norm reduces the chips' parts); DDP's
// replicas count once (distributed/gradient-copies.ts), as each PyTorch rank counts its own; every
// chip's piece or copy is scaled by the same coefficient.
import type { Tensor } from '../../tensor.js';
import { DTensor } from '../../distributed/dtensor.js';
import { withoutCopies } from '../../distributed/gradient-copies.js';
import { describeValue } from '../../distributed/describe-value.js';
import { noGrad } from '../../autograd/grad-mode.js';
import { scope } from '../../scope.js';
import { zeros } from '../../creation.js';
import { stack } from '../../ops/concat.js';
import { isOptions, readOptions, withPositional } from '../../options.js';
import { gradOf, parametersWithGrads, type Parameters } from './parameters-with-grads.js';
import '../../distributed/to-chip.js';
import { numberValue, specialized } from '../../jit/live-number.js';

const WHO = 'clipGradNorm_';

export type NormType = number | 'inf' | '-inf';

export interface ClipGradNormOptions {
  /** The largest total norm kept (PyTorch's max_norm). */
  maxNorm?: number;
  /** The p of the p-norm: 2 (default), 1, Infinity or 'inf' (the largest |value|), any number. */
  normType?: NormType;
  /** Throw when the total norm is NaN or ±Infinity instead of scaling by it (default false; reads the norm: a sync point). */
  errorIfNonfinite?: boolean;
}

const KEYS: readonly (keyof ClipGradNormOptions)[] = ['maxNorm', 'normType', 'errorIfNonfinite'];

/**
 * Scales the gradients of `parameters` in place so that their total p-norm is at most maxNorm
 * (torch.nn.utils.clip_grad_norm_); returns the total norm before clipping (a 0-d tensor on the
 * first gradient's chip). Gradients that are null are skipped.
 * Also clipGradNorm_(params, maxNorm, 'inf', { errorIfNonfinite: true }) or clipGradNorm_(params, { maxNorm, normType }).
 * @example
 * const p = tpu.tensor([3, 4], { requiresGrad: true });
 * p.mul(p).div(2).sum().backward();
 * tpu.nn.utils.clipGradNorm_([p], 1).item() // 5
 * p.grad // [0.6, 0.8]
 */
export function clipGradNorm_(
  parameters: Parameters, maxNorm: number | ClipGradNormOptions, normType?: NormType | Omit<ClipGradNormOptions, 'maxNorm'>,
  options?: Pick<ClipGradNormOptions, 'errorIfNonfinite'>,
): Tensor {
  const o = readArguments(maxNorm, normType, options);
  const params = parametersWithGrads(WHO, parameters);
  return noGrad(() => scope(() => {
    const total = totalNorm(withoutCopies(params).map((p) => gradOf(p)!), o.ord);
    if (o.errorIfNonfinite && !Number.isFinite(total.item())) {
      throw new RangeError(`${WHO}: the total norm of order ${o.ord} for gradients from parameters is non-finite (${total.item()}), so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set { errorIfNonfinite: false }`);
    }
    // PyTorch's max_norm / (total + 1e-6) is total's reciprocal times max_norm, in total's dtype.
    const coef = total.add(1e-6).reciprocal().mul(o.maxNorm).clamp({ max: 1 });
    const onChip = new Map<number, Tensor>();
    const coefOn = (chip: number) => onChip.get(chip) ?? onChip.set(chip, coef.toChip(chip)).get(chip)!;
    for (const p of params) {
      if (p instanceof DTensor) p._updateGrad_((piece) => piece.mul_(coefOn(piece.chip)));
      else p._grad!.mul_(coefOn(p._grad!.chip));
    }
    return total;
  }));
}

function readArguments(maxNorm: unknown, normType: unknown, options: unknown): { maxNorm: number; ord: number; errorIfNonfinite: boolean } {
  const o: ClipGradNormOptions = isOptions(maxNorm) ? readOptions<ClipGradNormOptions>(WHO, maxNorm, KEYS)
    : isOptions(normType) ? withPositional(WHO, 'maxNorm', maxNorm, normType, KEYS)
      : { maxNorm: maxNorm as number, ...withPositional(WHO, 'normType', normType, (options ?? {}) as Record<string, unknown>, KEYS.filter((k) => k !== 'maxNorm')) };
  // maxNorm scales the gradients: a tpu.compile number argument stays live (a program input);
  // normType decides the computation: the trace is specialized on it.
  if (typeof numberValue(o.maxNorm) !== 'number') throw new TypeError(`${WHO}: maxNorm must be a number; got ${describeValue(o.maxNorm)}`);
  const p = specialized(o.normType ?? 2);
  const ord = p === 'inf' ? Infinity : p === '-inf' ? -Infinity : p;
  if (typeof ord !== 'number' || Number.isNaN(ord)) throw new TypeError(`${WHO}: normType must be a number, Infinity or 'inf'; got ${describeValue(p)}`);
  const e = o.errorIfNonfinite ?? false;
  if (typeof e !== 'boolean') throw new TypeError(`${WHO}: errorIfNonfinite must be a boolean; got ${describeValue(e)}`);
  return { maxNorm: o.maxNorm!, ord, errorIfNonfinite: e };
}

/**
 * The norm of the gradients' norms on the first one's chip (PyTorch's first device), or a float32
 * 0 when there are none, as PyTorch's. Each norm rounds once to a bfloat16 gradient's dtype, as
 * PyTorch's foreach norm; a DTensor's is its full value's (reduced to chip mesh.chips[0]).
 */
function totalNorm(all: readonly (Tensor | DTensor)[], ord: number): Tensor {
  // An empty gradient (an FSDP chip's empty shard) adds nothing, and has no ±∞-norm of its own.
  const grads = all.filter((g) => g instanceof DTensor || g.numel() > 0);
  if (grads.length === 0) return zeros([]);
  const norms = grads.map((g) => (g instanceof DTensor ? g.norm(ord).fullTensor() : roundedOnce(g, ord)));
  const first = norms[0]!.chip;
  // stack promotes (bfloat16 and float32 norms give float32), as PyTorch's
  return roundedOnce(stack(norms.map((n) => n.toChip(first))), ord);
}

const roundedOnce = (g: Tensor, ord: number) => (g.dtype === 'bfloat16' ? g.to('float32').norm(ord).to('bfloat16') : g.norm(ord));
