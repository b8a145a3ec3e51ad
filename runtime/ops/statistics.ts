// var std logsumexp norm logSoftmax: composed over primitives (gradients come for free); float32
// logSoftmax is its own primitive (log-softmax.ts), as PyTorch's, its gradient reading its result.
import { Tensor } from '../tensor.js';
import { reduceAttrs, type KeepdimOptions, type ReduceAttrs, type ReduceOptions } from './reduce.js';
import { composite } from '../modes/composite.js';
import { where } from './where.js';
import { isOptions, readOptions, withPositional } from '../options.js';
import { dimAndDType, type DTypeOption } from './dim-argument.js';
import { emptyPassesThrough, inFloat32 } from './nn/activations.js';
import { isFloating } from '../dtype.js';
import { ownInput } from './identity.js';
import { installMethods } from '../install-methods.js';
import { noGrad } from '../autograd/grad-mode.js';
import { rowMajor } from '../views/result-layout.js';
import { apply } from '../modes/dispatch.js';
import { logSoftmaxOp } from './log-softmax.js';
import { specialized } from '../jit/live-number.js';

type DimArg = number | readonly number[];

export interface VarOptions extends ReduceOptions {
  /** Bessel's correction: 1 (default, unbiased) or 0 (population). */
  correction?: number;
  /** Legacy PyTorch flag: unbiased: false is correction 0. */
  unbiased?: boolean;
}

const VAR_KEYS: readonly (keyof VarOptions)[] = ['dim', 'keepdim', 'correction', 'unbiased'];
/** The options after a positional dim: `x.std(0, { correction: 0 })`. */
export type VarRestOptions = Omit<VarOptions, 'dim'>;

/**
 * PyTorch's forms: var(), var(unbiased), var(dim, unbiased = true, keepdim = false),
 * var(dim, { correction, keepdim }), var({ dim, correction, keepdim }).
 */
export function varOptions(op: string, x: { readonly ndim: number }, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean) {
  let o: VarOptions;
  if (isOptions(dim) || typeof dim === 'boolean') {
    if (unbiased !== undefined || keepdim !== undefined) throw new TypeError(`${op}: no argument may follow ${typeof dim === 'boolean' ? 'unbiased' : 'the options'}; got ${JSON.stringify(unbiased ?? keepdim)}`);
    o = typeof dim === 'boolean' ? { unbiased: dim } : readOptions<VarOptions>(op, dim, VAR_KEYS);
  } else if (isOptions(unbiased)) {
    if (keepdim !== undefined) throw new TypeError(`${op}: no argument may follow the options; got ${JSON.stringify(keepdim)}`);
    o = withPositional(op, 'dim', dim, unbiased, VAR_KEYS) as VarOptions;
  } else o = { dim: dim as DimArg | undefined, unbiased, keepdim };
  if (o.unbiased !== undefined && typeof o.unbiased !== 'boolean') throw new TypeError(`${op}: unbiased must be a boolean; got ${JSON.stringify(o.unbiased)}`);
  if (o.unbiased !== undefined && o.correction !== undefined) throw new TypeError(`${op}: give unbiased or correction, not both (unbiased ${o.unbiased}, correction ${o.correction})`);
  const attrs = reduceAttrs(op, x, { dim: o.dim, keepdim: o.keepdim });
  const correction = specialized(o.correction ?? (o.unbiased === false ? 0 : 1));
  if (typeof correction !== 'number' || correction < 0) throw new RangeError(`${op}: correction must be a non-negative number; got ${JSON.stringify(correction)}`);
  return { ...attrs, correction };
}

/**
 * Deviations of x from its mean over dims (keepdim). The mean is refined once by the mean of
 * the deviations from it (corrected two-pass): a constant row of 1e30 has deviations 0, as
 * with PyTorch's Welford, not its rounding error. The mean is held fixed: the deviations sum
 * to 0, so it adds nothing to a gradient, which is then PyTorch's 2·(x - mean)/n; through it,
 * one infinite element's NaN deviation made the whole row's gradient NaN.
 */
function deviations(x: Tensor, dims: readonly number[]): Tensor {
  const v = ownInput(x);
  const mean = noGrad(() => {
    const rough = v.mean(dims, true);
    const refinement = v.sub(rough).mean(dims, true);
    // NaN when an element is infinite (inf - inf): the rough mean, ±inf, is PyTorch's then
    return rough.add(where(refinement.isfinite(), refinement, 0));
  });
  return v.sub(mean);
}

/**
 * The spread of x over dims as scale·√s (keepdim shapes): s = Σ(c/scale)² / (n - correction)
 * for deviations c and scale = max |c|, so no square overflows unless the variance itself
 * does (PyTorch accumulates in float64: std of [3e38, -3e38] is 3e38).
 */
function spread(x: Tensor, dims: readonly number[], correction: number): { scale: Tensor | number; s: Tensor } {
  const n = dims.reduce((p, d) => p * x.shape[d]!, 1);
  const centered = deviations(x, dims);
  // a constant: Σc² = scale²·Σ(c/scale)² has the same gradient with it held fixed (1 over
  // an empty dim, where amax has no answer)
  const scale = n === 0 ? 1 : noGrad(() => {
    const m = centered.abs().amax(dims, true);
    return where(m.gt(0).logicalAnd(m.isfinite()), m, 1);
  });
  const unit = centered.div(scale);
  return { scale, s: unit.mul(unit).sum(dims, true).div(Math.max(n - correction, 0)) };
}

/**
 * Where Σc² overflows, the same sum over c·2⁻⁸⁰ scaled back: exact scaling, and for any
 * n < 2³² the squares that matter stay normal (Σc² > 2¹²⁸ needs some |c| > 2⁴⁸) and none
 * overflows (|c| < 2¹²⁸). A fixed scale needs no max pass; the graph has no branch, so this
 * sum is computed beside the direct one.
 */
const SHIFT = 2 ** -80;

export function variance(x: Tensor, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): Tensor {
  const { dims, keepdim: keep, correction } = varOptions('var', x, dim, unbiased, keepdim);
  const divisor = Math.max(dims.reduce((p, d) => p * x.shape[d]!, 1) - correction, 0);
  // bfloat16 in float32, rounded once at the end, as PyTorch's kernel accumulates
  return composite('var', () => inFloat32('var', x, (v) => {
    const c = deviations(v, dims);
    // Σc² / divisor directly: PyTorch's float32 answer where no square overflows. A row whose
    // Σc² is not finite takes the shifted sum, and its deviations are zeroed in the direct one:
    // unused, its gradient would still be 0·inf = NaN.
    const fits = noGrad(() => c.mul(c).sum(dims, true).isfinite());
    const inRange = where(fits, c, 0);
    const direct = inRange.mul(inRange).sum(dims, true).div(divisor);
    const small = c.mul(SHIFT);
    const shifted = small.mul(small).sum(dims, true).div(divisor).div(SHIFT).div(SHIFT);
    return kept(where(fits, direct, shifted), x, dims, keep);
  }));
}

/** Drops the reduced dims of a keepdim result unless keepdim. */
function kept(t: Tensor, x: Tensor, dims: readonly number[], keep: boolean): Tensor {
  return keep ? t : t.reshape(x.shape.filter((_, i) => !dims.includes(i)));
}

/**
 * Standard deviation (torch.std), unbiased by default.
 * @example x.std({ dim: 0 })
 */
export function std(x: Tensor, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): Tensor {
  const { dims, keepdim: keep, correction } = varOptions('std', x, dim, unbiased, keepdim);
  return composite('std', () => inFloat32('std', x, (v) => {
    const { scale, s } = spread(v, dims, correction);
    return kept(sqrtZeroGrad(s).mul(scale), x, dims, keep);
  }));
}

/**
 * √s with a zero gradient at s = 0, as PyTorch's std and norm have (the derivative of √ is
 * infinite there; times a zero it would give NaN). The inner where keeps √'s input away from 0.
 */
function sqrtZeroGrad(s: Tensor, root: (t: Tensor) => Tensor = (t) => t.sqrt()): Tensor {
  const zero = s.eq(0);
  return where(zero, 0, root(where(zero, 1, s)));
}

/**
 * log Σ exp(x), shifted by the max for stability.
 * @example tpu.logsumexp(tpu.tensor([0, 0]), 0) // 0.693147
 */
export function logsumexp(x: Tensor, dim: DimArg | ReduceOptions, keepdim?: boolean | KeepdimOptions): Tensor {
  const { dims, keepdim: keep } = reduceAttrs('logsumexp', x, dim, keepdim);
  return composite('logsumexp', () => {
    // integers and bools: in float32, as PyTorch's (whose result is its default float)
    const v = isFloating(x.dtype) ? ownInput(x) : x.to('float32');
    // an infinite max (a row of -inf, or +inf) shifts by 0 instead: -inf - -inf would be NaN;
    // an empty dim has no max (amax refuses it) and needs no shift: its sum is 0, its log -inf
    const max = dims.some((d) => x.shape[d] === 0) ? undefined : v.amax(dims, true);
    const m = max === undefined ? 0 : where(max.isfinite(), max, 0);
    const out = v.sub(m).exp().sum(dims, true).log().add(m);
    return keep ? out : out.reshape(x.shape.filter((_, i) => !dims.includes(i)));
  });
}

export interface NormOptions extends ReduceOptions {
  /** 2 (default), 1, Infinity, -Infinity, or any p > 0; 'fro' is 2 over at most two dims (PyTorch's Frobenius norm). */
  p?: number | 'fro';
}

const NORM_KEYS: readonly (keyof NormOptions)[] = ['p', 'dim', 'keepdim'];

/** norm's arguments (positional or options) as Tensor.norm and DTensor.norm read them: the order p (2 by default) and the reduced dims. */
export function normArgs(who: string, x: { readonly ndim: number }, p: number | 'fro' | NormOptions = 2, dim?: DimArg | Omit<NormOptions, 'p'>, keepdim?: boolean | KeepdimOptions): { ord: number; attrs: ReduceAttrs } {
  const o: NormOptions = isOptions(p) ? readOptions<NormOptions>(who, p, NORM_KEYS)
    : isOptions(dim) ? withPositional(who, 'p', p, dim, NORM_KEYS)
      : isOptions(keepdim) ? { p, ...withPositional(who, 'dim', dim, keepdim, NORM_KEYS.filter((k) => k !== 'p')) } : { p, dim, keepdim };
  const ord = specialized(o.p ?? 2);
  const attrs = reduceAttrs(who, x, { dim: o.dim, keepdim: o.keepdim });
  if (ord === 'fro') {
    // PyTorch's Frobenius norm: the 2-norm of the elements, over all dims or over one or two
    if (Array.isArray(o.dim) && o.dim.length > 2) throw new RangeError(`${who}: p 'fro' takes at most two dims, as PyTorch's; got ${JSON.stringify(o.dim)}: give p 2 for a norm over more`);
    return { ord: 2, attrs };
  }
  if (typeof ord !== 'number' || Number.isNaN(ord)) throw new RangeError(`${who}: p must be a number, ±Infinity or 'fro'; got ${typeof ord === 'number' ? ord : JSON.stringify(ord)}`);
  return { ord, attrs };
}

/**
 * Vector p-norm over dims (all by default): torch.linalg.vector_norm / Tensor.norm.
 * @example tpu.norm(tpu.tensor([3, 4])) // 5
 */
export function norm(x: Tensor, p: number | 'fro' | NormOptions = 2, dim?: DimArg | Omit<NormOptions, 'p'>, keepdim?: boolean | KeepdimOptions): Tensor {
  const { ord, attrs } = normArgs('norm', x, p, dim, keepdim);
  const a = (x.dtype === 'int32' || x.dtype === 'bool' ? x.to('float32') : x).abs();
  if (ord === 0) return a.ne(0).to(a.dtype).sum(attrs.dims, attrs.keepdim); // the count of non-zeros
  if (ord === Infinity) return a.amax(attrs.dims, attrs.keepdim);
  if (ord === -Infinity) return a.amin(attrs.dims, attrs.keepdim);
  if (ord === 1) return a.sum(attrs.dims, attrs.keepdim);
  if (ord === 2) return composite('norm', () => sqrtZeroGrad(a.mul(a).sum(attrs.dims, attrs.keepdim)));
  return composite('norm', () => sqrtZeroGrad(a.pow(ord).sum(attrs.dims, attrs.keepdim), (t) => t.pow(1 / ord)));
}

/**
 * log(softmax(x)) along dim, computed stably (torch.log_softmax); `{ dtype }` casts the input
 * first, as PyTorch's.
 * @example tpu.logSoftmax(logits, -1); tpu.logSoftmax(ids, 1, { dtype: 'float32' })
 */
export function logSoftmax(input: Tensor, dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor {
  const { d, v: x } = dimAndDType('logSoftmax', input, dim, options, 'floating-point');
  const empty = emptyPassesThrough(x);
  if (empty) return empty;
  // PyTorch's form, x - max - log Σ exp(x - max): a row holding +inf is all NaN, as there.
  // float32: one primitive (ops/log-softmax.ts), whose gradient reads its result as PyTorch's.
  if (x.dtype === 'float32') return rowMajor(apply(logSoftmaxOp, [x], { dim: d }));
  // bfloat16: PyTorch's CPU kernel for the last dim rounds Σ exp and its log to bfloat16
  // (matched bit for bit); its kernel for any other dim keeps them in float32. The shift
  // changes no gradient (it cancels). Bound module-level functions, not closures per call: V8
  // drops a closure's optimized code at each full collection once no closure of it lives
  // (docs/runtime.md, W6).
  return rowMajor(composite('logSoftmax', logSoftmaxOf.bind(null, x, d)));
}

function logSoftmaxOf(x: Tensor, d: number): Tensor {
  return inFloat32('logSoftmax', x, shiftedLogSoftmax.bind(null, d, x.dtype === 'bfloat16' && d === x.ndim - 1));
}

function shiftedLogSoftmax(d: number, bf16LastDim: boolean, v: Tensor): Tensor {
  const asPyTorch = (t: Tensor) => (bf16LastDim ? t.to('bfloat16').to('float32') : t);
  const shifted = v.sub(noGrad(() => v.amax(d, true)));
  return shifted.sub(asPyTorch(asPyTorch(shifted.exp().sum(d, true)).log()));
}

declare module '../tensor.js' {
  interface Tensor {
    /**
     * Variance (torch.var), unbiased unless { correction: 0 } or unbiased false; PyTorch's
     * positional form var(dim, unbiased = true, keepdim = false).
     * @example x.var(0); x.var(0, false); x.var(0, { keepdim: true })
     */
    var(dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): Tensor;
    /**
     * Standard deviation (torch.std), unbiased unless { correction: 0 } or unbiased false;
     * PyTorch's positional form std(dim, unbiased = true, keepdim = false).
     * @example x.std(0); x.std(0, { correction: 0 }); x.std(1, true, true)
     */
    std(dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): Tensor;
    /**
     * log(sum(exp(x))) along dim, computed stably (torch.logsumexp).
     * @example x.logsumexp(-1)
     */
    logsumexp(dim: DimArg | ReduceOptions, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * Vector norm (2 by default) over all elements or along dim (torch.linalg.vector_norm).
     * @example x.norm()
     */
    norm(p?: number | 'fro' | NormOptions, dim?: DimArg | Omit<NormOptions, 'p'>, keepdim?: boolean | KeepdimOptions): Tensor;
    /**
     * log(softmax(x)) along dim, computed stably (torch.log_softmax).
     * @example logits.logSoftmax(-1); ids.logSoftmax(1, { dtype: 'float32' })
     */
    logSoftmax(dim: number | ({ dim: number } & DTypeOption), options?: DTypeOption): Tensor;
  }
}
installMethods({
  var(dim, unbiased, keepdim) { return variance(this, dim, unbiased, keepdim); },
  std(dim, unbiased, keepdim) { return std(this, dim, unbiased, keepdim); },
  logsumexp(dim, keepdim) { return logsumexp(this, dim, keepdim); },
  norm(p, dim, keepdim) { return norm(this, p, dim, keepdim); },
  logSoftmax(dim, options) { return logSoftmax(this, dim, options); },
});
